import Foundation
import Testing

@testable import ScaffoldRepoCore

/// The store's engine is Swift that this package compiles and tests (Sources/StoreEngine,
/// Sources/StoreEngineTestSupport, and Sources/CSQLite's module map), embedded as the templates the
/// generator writes as they are.
@Suite struct EngineTemplatesTests {
    static let engine: [(template: String, source: String)] = [
        ("StoreFiles.swift.tmpl", "Sources/StoreEngine/StoreFiles.swift"),
        ("StoredValues.swift.tmpl", "Sources/StoreEngine/StoredValues.swift"),
        ("JournalStore.swift.tmpl", "Sources/StoreEngine/JournalStore.swift"),
        ("SnapshotStore.swift.tmpl", "Sources/StoreEngine/SnapshotStore.swift"),
        ("LiveList.swift.tmpl", "Sources/StoreEngine/LiveList.swift"),
        ("SQLiteStore.swift.tmpl", "Sources/StoreEngine/SQLiteStore.swift"),
        ("StoreQuery.swift.tmpl", "Sources/StoreEngine/StoreQuery.swift"),
        ("SQLiteRelations.swift.tmpl", "Sources/StoreEngine/SQLiteRelations.swift"),
        ("SampleData.swift.tmpl", "Sources/StoreEngineTestSupport/SampleData.swift"),
        ("StoredRows.swift.tmpl", "Sources/StoreEngineTestSupport/StoredRows.swift"),
        ("module.modulemap.tmpl", "Sources/CSQLite/module.modulemap"),
        ("shim.h.tmpl", "Sources/CSQLite/shim.h"),
    ]

    @Test func eachEngineTemplateIsItsSourceFileAsItIsWithoutATag() {
        for (template, source) in Self.engine {
            let text = TestPaths.text(TestPaths.repositoryRoot.appendingPathComponent(source))
            #expect(text != nil && BuiltInTemplates.embedded[template] == text, "\(template)")
            #expect(text?.contains("{{") == false, "\(source) holds a tag")
        }
    }

    @Test func everyTypeTheEngineDeclaresIsAModelNameThatIsRefused() {
        for (template, _) in Self.engine {
            for declaration in ClashCheck.declarations(
                in: BuiltInTemplates.embedded[template] ?? "")
            {
                #expect(
                    Identifier.reservedTypeNames.contains(declaration.name),
                    "\(template) declares \(declaration.name): add it to Identifier.reservedTypeNames"
                )
            }
        }
    }

    @Test func theSharedFilesAreTheEngine() {
        #expect(
            Set(Names.sharedFiles.map { $0 + ".tmpl" })
                == Set(Self.engine.map(\.template)))
    }
}

/// The sample data keeps the samples of the field types a module uses, and no other base type's.
@Suite struct SampleDataTests {
    static let text = BuiltInTemplates.embedded["SampleData.swift.tmpl"] ?? ""

    @Test func everyBaseTypeHasItsSampleInTheEngine() {
        for type in BaseType.allCases {
            #expect(
                Self.text.contains("\nnonisolated extension \(type.rawValue): SampleValue {\n"),
                "add a SampleValue conformance for \(type.rawValue) to SampleData.swift")
        }
    }

    @Test func onlyTheSamplesOfTheTypesUsedAreKept() {
        let kept = Renderer.samples(of: [.string, .uuid], in: Self.text)

        #expect(Renderer.samples(of: Set(BaseType.allCases), in: Self.text) == Self.text)
        for type in BaseType.allCases {
            let conformance = "extension \(type.rawValue): SampleValue {"
            #expect(kept.contains(conformance) == [.string, .uuid].contains(type), "\(type)")
        }
        // The generic conformances stay, and no block leaves two blank lines behind.
        #expect(kept.contains("extension Optional: SampleValue where Wrapped: SampleValue {"))
        #expect(kept.contains("where Self: CaseIterable {"))
        #expect(!kept.contains("\n\n\n"))
        #expect(kept.filter { $0 == "{" }.count == kept.filter { $0 == "}" }.count)
    }

    /// A module's models share one sample data file: it has the samples of all their types,
    /// whichever model renders it.
    @Test func theModulesModelsTogetherDecideTheSamples() throws {
        let note = try SpecParser.parse(modelName: "Note", fieldTokens: ["id:UUID", "title"])
        let tally = try SpecParser.parse(modelName: "Tally", fieldTokens: ["id:Int", "n:Double"])
        let into = Destination.into(packageDirectory: ".", target: "App")
        var requests = [note, tally].map { GenerateRequest(spec: $0, destination: into) }
        let shared = PackagePlanner.sharedFileSettings(
            in: "App", manifest: Manifest(), requests: requests)
        requests[0].sharedFiles = shared

        let sampleData = try #require(
            try Renderer.render(requests[0]).first { $0.path.hasSuffix("/SampleData.swift") })

        #expect(shared.fieldTypes == [.uuid, .string, .int, .double])
        #expect(sampleData.contents.contains("extension Double: SampleValue {"))
        #expect(!sampleData.contents.contains("extension Bool: SampleValue {"))
    }
}

extension SampleDataTests {
    /// Adding a model with a new field type gives the module's sample data that type's samples;
    /// destroying it says to regenerate, and then they are gone.
    @Test func aModelsFieldTypesComeAndGoWithIt() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try TestPaths.makeAppPackage(in: folder)
        let into = ["--into", ".", "--target", "AppCore"]
        let sampleData = folder.appendingPathComponent("Tests/AppCoreTests/SampleData.swift")
        _ = ScaffoldRepo.run(["Card", "id:Int", "front"] + into, currentDirectory: folder)
        let before = TestPaths.text(sampleData)

        let added = ScaffoldRepo.run(
            ["Reading", "id:Int", "at:Date"] + into, currentDirectory: folder)
        let withDate = TestPaths.text(sampleData)
        let destroy = ScaffoldRepo.run(["destroy", "Reading", "."], currentDirectory: folder)
        let regen = ScaffoldRepo.run(["regen", "."], currentDirectory: folder)

        #expect(before?.contains("extension Date: SampleValue {") == false)
        #expect(added.standardOutput.contains("update    Tests/AppCoreTests/SampleData.swift\n"))
        #expect(withDate?.contains("extension Date: SampleValue {") == true)
        #expect(
            destroy.standardOutput.hasSuffix(
                "Next: scaffold-repo regen . (the files Reading shared with the other models "
                    + "still have the samples of its field types)\n"))
        #expect(regen.exitCode == 0)
        #expect(TestPaths.text(sampleData) == before)
    }
}

extension SampleDataTests {
    /// A reference's samples are the referred model's samples' ids: it adds no samples of its
    /// own, whichever command renders the shared file, so generating again changes nothing.
    @Test func aReferenceAddsNoSamplesAndEveryCommandAgrees() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try TestPaths.makeAppPackage(in: folder)
        let into = ["--into", ".", "--target", "AppCore"]
        let run = { (arguments: [String]) in ScaffoldRepo.run(arguments, currentDirectory: folder) }
        _ = run(["Folder", "id:Int", "name"] + into + ["--storage", "sqlite"])
        _ = run(["Note", "id:Int", "folder:references(Folder)"] + into + ["--storage", "sqlite"])

        let again = run(["Folder", "id:Int", "name"] + into + ["--storage", "sqlite"])
        let check = run(["regen", ".", "--check"])

        let sampleData = TestPaths.text(
            folder.appendingPathComponent("Tests/AppCoreTests/SampleData.swift"))
        #expect(sampleData?.contains("extension UUID: SampleValue {") == false)
        #expect(again.standardOutput.contains("identical Tests/AppCoreTests/SampleData.swift\n"))
        #expect(check.exitCode == 0, "\(check.standardOutput)")
    }

    /// The sample data the person owns is reviewed when a new model's field type changes it,
    /// not silently left without the samples the new model's tests build.
    @Test func anOwnedSampleDataIsReviewedWhenANewModelBringsAType() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try TestPaths.makeAppPackage(in: folder)
        let into = ["--into", ".", "--target", "AppCore"]
        let run = { (arguments: [String]) in ScaffoldRepo.run(arguments, currentDirectory: folder) }
        _ = run(["Card", "id:Int", "front"] + into)
        let path = "Tests/AppCoreTests/SampleData.swift"
        let url = folder.appendingPathComponent(path)
        try Data(((TestPaths.text(url) ?? "") + "// Mine.\n").utf8).write(to: url)
        #expect(run(["own", path]).exitCode == 0)

        let added = run(["Reading", "id:Int", "at:Date"] + into)

        #expect(added.standardOutput.contains("review    \(path) (yours; what scaffold-repo"))
        #expect(added.standardOutput.contains("+nonisolated extension Date: SampleValue {"))
        #expect(TestPaths.text(url)?.hasSuffix("// Mine.\n") == true)
    }

    /// Destroying a module's only model, with an edited file kept, gives no advice to regen:
    /// there is no other model to render the shared files for.
    @Test func destroyingTheOnlyModelGivesNoRegenAdvice() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = ScaffoldRepo.run(["Tag", "id:Int", "name"], currentDirectory: folder)
        let model = folder.appendingPathComponent("TagStore/Sources/TagStore/Tag.swift")
        try Data(((TestPaths.text(model) ?? "") + "// Mine.\n").utf8).write(to: model)

        let destroy = ScaffoldRepo.run(["destroy", "Tag", "TagStore"], currentDirectory: folder)

        #expect(destroy.exitCode == 0)
        #expect(!destroy.standardOutput.contains("Next: scaffold-repo regen"))
    }
}
