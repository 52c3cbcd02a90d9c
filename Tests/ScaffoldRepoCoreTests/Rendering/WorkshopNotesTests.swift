import Foundation
import Testing

@testable import ScaffoldRepoCore

/// The workshop's notes (`// Workshop:` comments) are in every file of a package generated with
/// `--annotate`, the engine's included, and in no file of one generated without it.
@Suite struct WorkshopNotesTests {
    @Test func aNoteAndItsContinuationLinesAreTakenOutAndNothingElse() {
        let text = """
            import Foundation

            // Workshop: why this exists,
            // and more of why.
            /// The doc comment stays.
            struct A {
                // A plain comment stays.
                let a = 1

                // Workshop: a note between blank lines.

                let b = 2
                    // Workshop: an indented note
                    // that goes on.
                let c = 3
            }
            """

        #expect(
            Renderer.withoutWorkshopNotes(text) == """
                import Foundation

                /// The doc comment stays.
                struct A {
                    // A plain comment stays.
                    let a = 1

                    let b = 2
                    let c = 3
                }
                """)
    }

    /// The packages under Examples/ generated with `--annotate`, and the Swift files their
    /// manifests record (a hand-written file of step 3 is not the generator's).
    static let annotatedFiles: [String] = RegenerationTests.examples.flatMap { example in
        let folder = TestPaths.repositoryRoot.appendingPathComponent(example)
        guard
            let data = try? Data(contentsOf: folder.appendingPathComponent(Manifest.path)),
            let manifest = try? JSONDecoder().decode(Manifest.self, from: data),
            manifest.models.contains(where: { $0.annotate == true })
        else { return [String]() }
        let recorded = Set(manifest.models.flatMap { $0.files.keys })
        return recorded.filter { $0.hasSuffix(".swift") }.sorted().map { "\(example)/\($0)" }
    }

    @Test func everyFileOfAnAnnotatedPackageExplainsItself() {
        #expect(Self.annotatedFiles.count > 40)
        for file in Self.annotatedFiles {
            let text = TestPaths.text(TestPaths.repositoryRoot.appendingPathComponent(file))
            #expect(text?.contains("// Workshop: ") == true, "\(file) has no // Workshop: note")
        }
    }

    @Test func aPackageGeneratedWithoutAnnotateHasNoNote() throws {
        let folder = TestPaths.repositoryRoot.appendingPathComponent("Examples/QuestionStore")
        let files = try TestPaths.files(below: folder).filter { $0.hasSuffix(".swift") }

        #expect(!files.isEmpty)
        for file in files {
            let text = TestPaths.text(folder.appendingPathComponent(file)) ?? ""
            #expect(!text.contains("Workshop:"), "Examples/QuestionStore/\(file)")
        }
    }

    /// The engine's files are one copy per module: they keep their notes when any model of the
    /// module has them, whichever model is generated or regenerated last.
    @Test func theFilesAModuleSharesHaveTheNotesWhenAnyOfItsModelsHas() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try TestPaths.makeAppPackage(in: folder)
        let into = ["--into", ".", "--target", "AppCore"]

        let annotated = ScaffoldRepo.run(
            ["Deck", "id:Int"] + into + ["--annotate"], currentDirectory: folder)
        let plain = ScaffoldRepo.run(["Card", "id:Int"] + into, currentDirectory: folder)
        let check = ScaffoldRepo.run(["regen", ".", "--check"], currentDirectory: folder)

        #expect(annotated.exitCode == 0 && plain.exitCode == 0)
        #expect(check.exitCode == 0, "\(check.standardOutput)\(check.standardError)")
        let sources = folder.appendingPathComponent("Sources/AppCore")
        let storeFiles = TestPaths.text(sources.appendingPathComponent("StoreFiles.swift"))
        let card = TestPaths.text(sources.appendingPathComponent("CardRepository.swift"))
        #expect(storeFiles?.contains("// Workshop: ") == true)
        #expect(card?.contains("// Workshop: ") == false)
    }

    /// Destroying the module's only annotated model leaves the shared files with its notes;
    /// the run says to regenerate, and then they have none.
    @Test func destroyingTheAnnotatedModelSaysToRegenerateTheSharedFiles() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try TestPaths.makeAppPackage(in: folder)
        let into = ["--into", ".", "--target", "AppCore"]
        _ = ScaffoldRepo.run(["Deck", "id:Int"] + into + ["--annotate"], currentDirectory: folder)
        _ = ScaffoldRepo.run(["Card", "id:Int"] + into, currentDirectory: folder)

        let destroy = ScaffoldRepo.run(["destroy", "Deck", "."], currentDirectory: folder)
        let regen = ScaffoldRepo.run(["regen", "."], currentDirectory: folder)
        let check = ScaffoldRepo.run(["regen", ".", "--check"], currentDirectory: folder)

        #expect(destroy.exitCode == 0)
        #expect(
            destroy.standardOutput.hasSuffix(
                "Next: scaffold-repo regen . (the files Deck "
                    + "shared with the other models still have its workshop notes)\n"))
        #expect(regen.exitCode == 0 && check.exitCode == 0)
        let storeFiles = TestPaths.text(
            folder.appendingPathComponent("Sources/AppCore/StoreFiles.swift"))
        #expect(storeFiles?.contains("// Workshop: ") == false)
    }

    /// Every rendered file ends lines with LF, keeps no trailing spaces or tabs, and ends with
    /// exactly one newline; a `\r` inside a line, and non-ASCII text, stay as they are.
    @Test func renderedTextIsNormalizedByteForByte() {
        #expect(Renderer.normalized("a \t\r\nb\rc\t\n\n  \nCafé  \n\n\n") == "a\nb\rc\n\n\nCafé\n")
        #expect(Renderer.normalized("") == "\n")
        #expect(Renderer.normalized("x  ") == "x\n")
        #expect(ContentHash.of("") == "cbf29ce484222325")
        #expect(ContentHash.of("a") == "af63dc4c8601ec8c")
        #expect(ContentHash.of("Café") == ContentHash.of(Data("Café".utf8)))
    }
}
