import Foundation
import Testing

@testable import ScaffoldRepoCore

/// One command line and the exact tree it must produce.
struct GoldenCase: Sendable, CustomStringConvertible {
    /// The expected tree, relative to the repository root.
    let root: String
    let arguments: [String]

    var description: String { root }

    /// `Examples/QuestionStore` (the README's first command) and every `Tests/Goldens/<case>/`,
    /// whose `command` file holds the arguments and whose `expected/` folder holds the tree.
    static let all: [GoldenCase] = {
        let goldens = TestPaths.repositoryRoot.appendingPathComponent("Tests/Goldens")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: goldens.path)) ?? []
        let cases = names.sorted().compactMap { name -> GoldenCase? in
            guard let command = TestPaths.text(goldens.appendingPathComponent("\(name)/command"))
            else {
                return nil
            }
            let arguments = command.split(whereSeparator: \.isWhitespace).map(String.init)
            return GoldenCase(root: "Tests/Goldens/\(name)/expected", arguments: arguments)
        }
        return [
            GoldenCase(
                root: "Examples/QuestionStore", arguments: ["Question", "id:String", "text:String"])
        ]
            + cases
    }()
}

/// Renders each golden case and compares it with its expected tree, byte for byte, file set
/// too. `UPDATE_GOLDENS=1 swift test` rewrites the trees (and still fails, to be reviewed).
@Suite struct GoldenTests {
    /// The numbers of tests per framework that the generated-code page gives for each storage,
    /// with and without defaults, are those the templates write.
    @Test func theGeneratedCodePageGivesTheTestCountsTheTemplatesWrite() throws {
        let page = try #require(
            TestPaths.text(
                TestPaths.repositoryRoot.appendingPathComponent("Documentation/generated-code.md")))
        let text = page.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        func count(_ arguments: [String]) throws -> Int {
            guard case .generate(let request, _) = try InvocationParser.parse(arguments) else {
                return -1
            }
            let suite = try Renderer.render(request).first { $0.path.hasSuffix("XCTests.swift") }
            return (suite?.contents.components(separatedBy: "func test").count ?? 0) - 1
        }
        let plain = ["Q", "id:Int", "title"]
        let defaulted = plain + ["count:Int=0"]
        let (journal, journalWithDefaults) = (try count(plain), try count(defaulted))
        let snapshot = try count(plain + ["--storage", "snapshot"])
        let snapshotWithDefaults = try count(defaulted + ["--storage", "snapshot"])
        let sqlite = try count(plain + ["--storage", "sqlite"])
        let sqliteWithDefaults = try count(defaulted + ["--storage", "sqlite"])

        let journalAndSnapshot =
            "That is \(journal) tests per framework for the journal store "
            + "(\(journalWithDefaults) with defaults), \(snapshot) for the snapshot store "
            + "(\(snapshotWithDefaults))."
        let sqliteCounts =
            "That is \(sqlite) tests per framework (\(sqliteWithDefaults) with defaults)."
        #expect(
            text.contains(journalAndSnapshot), "generated-code.md should say: \(journalAndSnapshot)"
        )
        #expect(text.contains(sqliteCounts), "generated-code.md should say: \(sqliteCounts)")
    }

    /// Every case of the journal's and the snapshot's error enum is on the generated-code page.
    @Test func theGeneratedCodePageNamesEveryErrorCase() throws {
        let root = TestPaths.repositoryRoot
        let page = try #require(
            TestPaths.text(root.appendingPathComponent("Documentation/generated-code.md")))
        let errors = try #require(
            TestPaths.text(
                root.appendingPathComponent("Templates/FileRepositoryError.partial.tmpl")))
        let cases = errors.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("    case ") else { return nil }
            return String(line.dropFirst("    case ".count).prefix { $0.isLetter })
        }

        #expect(cases.count >= 9)
        for name in cases {
            #expect(page.contains("`.\(name)"), "generated-code.md does not name .\(name)")
        }
    }

    /// Every field type is in one golden of a journal store (`all-field-types`) and one of a
    /// sqlite store (`sqlite-storage`), so the generated code of each (its sample values; for
    /// sqlite, its queries too) is compiled and its tests run. With `UPDATE_GOLDENS=1`
    /// (`.ci/update-generated`, which runs this first), a type that one lacks gets a field in it,
    /// so a new type needs no golden's command changed by hand.
    @Test(arguments: [false, true])
    func everyFieldTypeIsInAGoldenOfEachKindOfStore(sqlite: Bool) throws {
        let golden = sqlite ? "sqlite-storage" : "all-field-types"
        let file = TestPaths.repositoryRoot.appendingPathComponent(
            "Tests/Goldens/\(golden)/command")
        let command = try #require(TestPaths.text(file))
        let arguments = command.split(whereSeparator: \.isWhitespace).map(String.init)
        guard case .generate(let request, _) = try InvocationParser.parse(arguments) else {
            Issue.record("\(golden)/command is not a generate command")
            return
        }
        #expect((request.storage == .sqlite) == sqlite)
        let used = request.spec.fields.flatMap(\.type.allTypes)
        let missing = BaseType.allCases.filter { !used.contains(.base($0)) }
        guard !missing.isEmpty else { return }

        // Before the options, after the fields: `sampleInt32:Int32`.
        let fields = missing.map { " sample\($0.rawValue):\($0.rawValue)" }.joined()
        let options = command.range(of: " --")?.lowerBound ?? command.endIndex
        let trimmed = command[..<options].trimmingCharacters(in: .whitespacesAndNewlines)
        let rest = command[options...].trimmingCharacters(in: .newlines)
        let updated = trimmed + fields + rest + "\n"
        guard GeneratedDocs.isUpdating else {
            let types = missing.map(\.rawValue).joined(separator: ", ")
            Issue.record(
                "\(golden) has no field of \(types); .ci/update-generated adds one to its command")
            return
        }
        try Data(updated.utf8).write(to: file, options: .atomic)
        Issue.record("Added \(fields) to \(golden)/command. Review it with git diff.")
    }

    @Test(arguments: GoldenCase.all)
    func generatedTreeMatchesTheGolden(golden: GoldenCase) throws {
        guard case .generate(let request, _) = try InvocationParser.parse(golden.arguments) else {
            Issue.record("\(golden.arguments) is not a generate command")
            return
        }
        let generated = try PackagePlanner.freshFiles(for: request)
        let root = TestPaths.repositoryRoot.appendingPathComponent(golden.root)

        if ProcessInfo.processInfo.environment["UPDATE_GOLDENS"] == "1" {
            try update(root: root, with: generated, golden: golden)
            return
        }

        let expectedPaths = try TestPaths.files(below: root)
        let generatedPaths = generated.map(\.path)
        let updateHint =
            "To accept the new output: UPDATE_GOLDENS=1 swift test --filter GoldenTests, then review git diff."
        #expect(
            expectedPaths == generatedPaths,
            "files differ in \(golden.root): missing \(Set(generatedPaths).subtracting(expectedPaths).sorted()), extra \(Set(expectedPaths).subtracting(generatedPaths).sorted()). \(updateHint)"
        )
        for file in generated {
            let expected = TestPaths.text(root.appendingPathComponent(file.path)) ?? ""
            guard expected != file.contents else { continue }
            let diff = UnifiedDiff.make(
                old: expected, new: file.contents, oldName: "\(golden.root)/\(file.path)",
                newName: "generated/\(file.path)")
            Issue.record("\(golden.root)/\(file.path) is stale:\n\(diff)\n\(updateHint)")
        }
    }

    @Test(arguments: GoldenCase.all)
    func goldenSourcesAreCompiledAndTestedByTheIntegrationPackage(golden: GoldenCase) throws {
        guard case .generate(let request, _) = try InvocationParser.parse(golden.arguments) else {
            return
        }
        let module: String
        switch request.destination {
        case .standalone: module = Names(typeName: request.spec.typeName).storePackage
        case .into(_, let target): module = target
        }
        let manifest =
            TestPaths.text(TestPaths.integrationPackage.appendingPathComponent("Package.swift"))
            ?? ""
        // A sqlite golden links the integration package's CSQLite on Linux.
        let declaration =
            "golden(\"\(module)\", root: \"\(golden.root)\""
            + (request.storage == .sqlite ? ", sqlite: true)" : ")")

        #expect(
            manifest.contains(declaration),
            "declare it in Tests/Integration/Package.swift: + \(declaration)")
    }

    @Test func theReadmeShowsTheExampleCommandAndWhatItPrints() throws {
        let readme =
            TestPaths.text(TestPaths.repositoryRoot.appendingPathComponent("README.md")) ?? ""
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }

        let result = ScaffoldRepo.run(
            ["Question", "id:String", "text:String"], currentDirectory: folder)

        #expect(readme.contains("swift run scaffold-repo Question id:String text:String"))
        #expect(
            readme.contains("```\n" + result.standardOutput + "```\n"),
            "README's quick start output is stale")
        // The numbers of tests it promises are those the example package's two suites declare.
        let xctest = testDeclarations(in: "QuestionRepositoryXCTests.swift", marker: "")
        let swiftTesting = testDeclarations(in: "QuestionRepositoryTests.swift", marker: "@Test ")
        #expect(
            xctest > 0 && xctest == swiftTesting, "\(xctest) XCTest, \(swiftTesting) Swift Testing")
        #expect(readme.contains("its \(xctest) XCTest + \(swiftTesting) Swift Testing tests"))
    }

    /// The lines of `Examples/QuestionStore`'s test `file` that declare a `test…` method and
    /// start with `marker` (Swift Testing's tests need `@Test`; XCTest's, nothing).
    private func testDeclarations(in file: String, marker: String) -> Int {
        let text =
            TestPaths.text(
                TestPaths.repositoryRoot.appendingPathComponent(
                    "Examples/QuestionStore/Tests/QuestionStoreTests/" + file)) ?? ""
        return text.split(separator: "\n").filter { line in
            let code = line.drop { $0 == " " }
            return code.hasPrefix(marker) && code.contains("func test")
        }.count
    }

    private func update(root: URL, with generated: [GeneratedFile], golden: GoldenCase) throws {
        guard ProcessInfo.processInfo.environment["CI"] == nil else {
            Issue.record(
                "UPDATE_GOLDENS is refused when CI is set: goldens are updated by a person, then reviewed"
            )
            return
        }
        var changed = false
        for stale in try Set(TestPaths.files(below: root)).subtracting(generated.map(\.path)) {
            try FileManager.default.removeItem(at: root.appendingPathComponent(stale))
            changed = true
        }
        for file in generated
        where TestPaths.text(root.appendingPathComponent(file.path)) != file.contents {
            let url = root.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.contents.utf8).write(to: url, options: .atomic)
            changed = true
        }
        guard changed else { return }
        Issue.record(
            "Updated \(golden.root). Review it with git diff, then run swift test without UPDATE_GOLDENS."
        )
    }
}
