import Foundation
import Testing

@testable import ScaffoldRepoCore

/// The whole command run in-process against temporary folders: statuses, exit codes, messages,
/// and what is (or is not) on disk afterwards.
@Suite struct CommandTests {
    private let question = ["Question", "id:String", "text:String"]

    /// Runs into one package started together (a CI job generating models in parallel) take
    /// turns: each reads the manifest the other wrote, so no model's record is lost (five of
    /// eleven were, and `regen --check` passed without them).
    @Test func runsIntoOnePackageStartedTogetherKeepEveryRecord() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(
            ScaffoldRepo.run(["Note", "id:Int", "--output", "P"], currentDirectory: folder).exitCode
                == 0)
        let names = (1...6).map { "Model\($0)" }

        DispatchQueue.concurrentPerform(iterations: names.count) { index in
            _ = ScaffoldRepo.run(
                [names[index], "id:Int", "--into", "P", "--target", "NoteStore"],
                currentDirectory: folder)
        }

        let manifest = try #require(try Manifest.load(root: folder.appendingPathComponent("P")))
        #expect(manifest.models.map(\.name).sorted() == (["Note"] + names).sorted())
    }

    /// A disk's refusal (exit 1) is JSON on stdout too, for a script that asked for JSON.
    @Test func aWriteThatFailsGivesJSONToo() throws {
        // A folder no one can create files in, root included (Linux's /proc).
        guard FileManager.default.fileExists(atPath: "/proc/self") else { return }
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }

        let result = ScaffoldRepo.run(
            question + ["--output", "/proc/scaffold-repo-json-test", "--json"],
            currentDirectory: folder)

        #expect(result.exitCode == 1)
        #expect(result.standardOutput.contains("\"exitCode\" : 1"), "\(result.standardOutput)")
        #expect(result.standardError.hasPrefix("error: "))
    }

    /// The next step is a command to paste: a folder with a space or a quote is quoted.
    @Test func theNextStepQuotesAFolderTheShellWouldSplit() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }

        let result = ScaffoldRepo.run(
            question + ["--output", "my store/ünï's"], currentDirectory: folder)

        #expect(result.exitCode == 0)
        #expect(result.standardOutput.hasSuffix("Next: cd 'my store/ünï'\\''s' && swift test\n"))
        #expect(DiskPaths.forShell("Stores/ünï-1.0") == "Stores/ünï-1.0")
        #expect(DiskPaths.forShell("-x y") == "'./-x y'")
    }

    @Test func generatesAStandalonePackage() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }

        let result = ScaffoldRepo.run(question, currentDirectory: folder)

        #expect(result.exitCode == 0)
        #expect(result.standardError == "")
        #expect(
            result.standardOutput.hasPrefix(
                "create    QuestionStore/.gitignore\ncreate    QuestionStore/Package.swift\n"))
        #expect(result.standardOutput.hasSuffix("Next: cd QuestionStore && swift test\n"))
        #expect(
            try TestPaths.files(below: folder.appendingPathComponent("QuestionStore")).count == 15)
        #expect(result.standardOutput.contains("create    QuestionStore/.scaffold/manifest.json\n"))
    }

    /// A new package inside a package it wrote into is refused (exit 2, nothing written), and
    /// the message points at that package, or at `--output` to make it all the same.
    @Test func aNewPackageInsideAPackageItWroteIntoIsPointedAtThatPackage() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try TestPaths.makeAppPackage(in: folder)
        let item = ["Item", "id:Int", "name"]
        #expect(
            ScaffoldRepo.run(
                item + ["--into", ".", "--target", "AppCore"], currentDirectory: folder
            )
            .exitCode == 0)

        let before = try TestPaths.files(below: folder)
        let nested = ScaffoldRepo.run(item, currentDirectory: folder)

        #expect(nested.exitCode == 2)
        #expect(
            nested.standardError
                == "error: the current folder is a package that scaffold-repo wrote into (it "
                + "records Item already): this run would make a new package inside it, ItemStore; "
                + "to generate into the current package, give --into . --target AppCore (or run "
                + "'scaffold-repo regen'); to make the new package there all the same, give "
                + "--output ItemStore\n")
        #expect(try TestPaths.files(below: folder) == before)
        // Asked for by name, it is made.
        let asked = ScaffoldRepo.run(item + ["--output", "ItemStore"], currentDirectory: folder)
        #expect(asked.exitCode == 0, "\(asked.standardError)")
        // Elsewhere, a new package is what the person asked for: nothing to say.
        let elsewhere = ScaffoldRepo.run(
            item, currentDirectory: folder.appendingPathComponent("Sources"))
        #expect(elsewhere.exitCode == 0)
        #expect(elsewhere.standardError.isEmpty)
    }

    /// A new package in a target's folder of another package (the trial's run in
    /// `Sources/AppCore`) would be compiled into that target and stop its build: refused, exit
    /// 2, nothing written, naming `--into` that package and target (found by an app trial: it
    /// was made, and the app, `regen` and every later `--into` stopped).
    @Test(arguments: ["Sources/AppCore", "Sources/AppCore/Models", "Tests/AppCoreTests"])
    func aNewPackageInsideATargetsFolderIsRefused(folderInside: String) throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try TestPaths.makeAppPackage(in: folder)
        let inside = folder.appendingPathComponent(folderInside, isDirectory: true)
        try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
        let before = try TestPaths.files(below: folder)

        let run = ScaffoldRepo.run(["Label", "id:UUID", "name"], currentDirectory: inside)

        let up = folderInside.split(separator: "/").map { _ in ".." }.joined(separator: "/")
        #expect(run.exitCode == 2)
        #expect(
            run.standardError
                == "error: \(folderInside)/LabelStore is inside the package at \(up): a package "
                + "made there would be compiled into its target "
                + "\(folderInside.split(separator: "/")[1]), and its build would stop; to add "
                + "Label to target AppCore, give --into \(up) --target AppCore; to make a package "
                + "of its own, give --output with a folder outside that package's Sources and "
                + "Tests\n")
        #expect(try TestPaths.files(below: folder) == before)
        let into = ScaffoldRepo.run(
            ["Label", "id:UUID", "name", "--into", up, "--target", "AppCore"],
            currentDirectory: inside)
        #expect(into.exitCode == 0, "\(into.standardError)")
    }

    /// The same folder reached otherwise: `--output .` in a target's folder that holds files,
    /// and `--output` by a link to it from outside the package (found by a review: both made
    /// the package, exit 0). A new folder of its own in `Sources` stays allowed.
    @Test func aTargetsFolderReachedByOutputOrByALinkIsRefused() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let package = folder.appendingPathComponent("App", isDirectory: true)
        try TestPaths.makeAppPackage(in: package)
        let target = package.appendingPathComponent("Sources/AppCore", isDirectory: true)
        try Data("struct A {}\n".utf8).write(to: target.appendingPathComponent("A.swift"))
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("linked"), withDestinationURL: target)
        let before = try TestPaths.files(below: package)
        let label = ["Label", "id:UUID", "name"]

        let here = ScaffoldRepo.run(label + ["--output", "."], currentDirectory: target)
        let linked = ScaffoldRepo.run(
            label + ["--output", "linked/LabelStore"], currentDirectory: folder)

        #expect(here.exitCode == 2)
        #expect(here.standardError.hasPrefix("error: Sources/AppCore is inside the package at"))
        #expect(linked.exitCode == 2)
        #expect(
            linked.standardError.hasPrefix(
                "error: Sources/AppCore/LabelStore is inside the package at App:"))
        #expect(try TestPaths.files(below: package) == before)
        let own = ScaffoldRepo.run(
            label + ["--output", "Sources/LabelStore"], currentDirectory: package)
        #expect(own.exitCode == 0, "\(own.standardError)")
    }

    /// In a package generated for one model, another model's run is pointed at `--into` the
    /// package's target, which works, not at `--output .`, which that package refuses.
    @Test func aNewModelInAPackageGeneratedForAnotherIsPointedAtItsTarget() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = ScaffoldRepo.run(question + ["--output", "."], currentDirectory: folder)

        let nested = ScaffoldRepo.run(["Item", "id:Int", "--dry-run"], currentDirectory: folder)

        #expect(
            nested.standardError.contains(
                "to generate into the current package, give --into . --target QuestionStore; "))
        // regen never adds a model: it is named only for one the package records.
        #expect(!nested.standardError.contains("regen"))
        let into = ScaffoldRepo.run(
            ["Item", "id:Int", "--into", ".", "--target", "QuestionStore"], currentDirectory: folder
        )
        #expect(into.exitCode == 0, "\(into.standardError)")
    }

    @Test func aSecondRunIsIdenticalAndWritesNothing() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = ScaffoldRepo.run(question, currentDirectory: folder)

        let second = ScaffoldRepo.run(question, currentDirectory: folder)

        #expect(second.exitCode == 0)
        let statuses = second.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("Next") }
        #expect(statuses.count == 15)
        #expect(statuses.allSatisfy { $0.hasPrefix("identical ") })
    }

    @Test func anEditedFileIsAConflictAndNothingIsWritten() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = ScaffoldRepo.run(question, currentDirectory: folder)
        let edited = folder.appendingPathComponent(
            "QuestionStore/Sources/QuestionStore/Question.swift")
        try Data("// mine\n".utf8).write(to: edited)

        let result = ScaffoldRepo.run(
            ["Question", "id:String", "text:String", "note:String?"], currentDirectory: folder)

        #expect(result.exitCode == 1)
        #expect(
            result.standardOutput.contains(
                "modified  QuestionStore/Sources/QuestionStore/Question.swift\n"))
        #expect(result.standardError.contains("nothing was written"))
        #expect(result.standardError.contains("--force"))
        #expect(result.standardError.contains("'scaffold-repo own PATH'"))
        #expect(TestPaths.text(edited) == "// mine\n")
        let repository = TestPaths.text(
            folder.appendingPathComponent(
                "QuestionStore/Sources/QuestionStore/QuestionRepository.swift"))
        #expect(repository?.contains("note") == false)

        let forced = ScaffoldRepo.run(
            ["Question", "id:String", "text:String", "--force"], currentDirectory: folder)
        #expect(forced.exitCode == 0)
        #expect(
            forced.standardOutput.contains(
                "force     QuestionStore/Sources/QuestionStore/Question.swift\n"))
        #expect(TestPaths.text(edited)?.contains("public nonisolated struct Question") == true)
    }

    @Test(arguments: [
        ["Question", "text:String"],
        ["Question", "id:Strng"],
        ["Question", "id:String", "--frce"],
        ["Question", "id:String", "--templates", "no-such-folder"],
        ["Question", "id:String", "--into", "no-such-package", "--target", "App"],
        ["Question", "id:String", "text:String", "text:Int"],
    ])
    func badInputExitsTwoWithAMessageAndWritesNothing(arguments: [String]) throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }

        let result = ScaffoldRepo.run(arguments, currentDirectory: folder)

        #expect(result.exitCode == 2)
        #expect(result.standardOutput == "")
        #expect(result.standardError.hasPrefix("error: "))
        #expect(try TestPaths.files(below: folder).isEmpty)
    }

    /// A file that scaffold-repo did not generate is a conflict that `own` cannot take: the
    /// message does not offer it.
    @Test func aStrangersFileIsAConflictWithoutTheOwnAdvice() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let mine = folder.appendingPathComponent(
            "QuestionStore/Sources/QuestionStore/Question.swift")
        try FileManager.default.createDirectory(
            at: mine.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("// mine\n".utf8).write(to: mine)

        let result = ScaffoldRepo.run(question, currentDirectory: folder)

        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("or move them away first."))
        #expect(!result.standardError.contains("own"))
    }

    /// The sqlite storage's C module is no target for Swift files: it is neither suggested nor
    /// taken.
    @Test func theSQLiteModuleIsNoTargetToGenerateInto() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let folderModel = ["Folder", "id:UUID", "name", "--storage", "sqlite", "--output", "Lib"]
        #expect(ScaffoldRepo.run(folderModel, currentDirectory: folder).exitCode == 0)
        let before = try TestPaths.files(below: folder)

        let second = ScaffoldRepo.run(
            ["Tag", "id:UUID", "--storage", "sqlite", "--output", "Lib"], currentDirectory: folder)
        let into = ScaffoldRepo.run(
            ["Tag", "id:UUID", "--into", "Lib", "--target", "CSQLite"], currentDirectory: folder)

        #expect(second.exitCode == 2)
        #expect(
            second.standardError.contains(
                "--into Lib --target FolderStore (its targets: FolderStore)"))
        #expect(into.exitCode == 2)
        #expect(
            into.standardError.contains(
                "--target 'CSQLite': Sources/CSQLite in 'Lib' is a C or system library (it has a "
                    + "module.modulemap), which cannot hold Swift files; give a Swift target (it "
                    + "has: FolderStore)"))
        #expect(try TestPaths.files(below: folder) == before)
    }

    /// The command plugin's `--target NAME` is `--into . --target NAME`: in the package
    /// generated for the model alone, that is the same package, not a target to move it into.
    @Test func intoAStandalonePackagesOwnTargetKeepsItStandalone() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(ScaffoldRepo.run(question, currentDirectory: folder).exitCode == 0)
        let manifest = folder.appendingPathComponent("QuestionStore/\(Manifest.path)")
        let before = TestPaths.text(manifest)

        let result = ScaffoldRepo.run(
            question + ["--into", "QuestionStore", "--target", "QuestionStore"],
            currentDirectory: folder)

        #expect(result.exitCode == 0)
        #expect(!result.standardError.contains("warning"), "\(result.standardError)")
        #expect(result.standardOutput.contains("identical QuestionStore/Package.swift\n"))
        #expect(TestPaths.text(manifest) == before)
    }

    @Test func renamingAFieldOfAModelNeverGeneratedIsRefused() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }

        let result = ScaffoldRepo.run(
            ["Zed", "id:UUID", "name", "--rename", "a=name"], currentDirectory: folder)

        #expect(result.exitCode == 2)
        #expect(
            result.standardError.contains(
                "--rename a=name: Zed was not generated here before, so no stored value has the "
                    + "name 'a'; drop --rename"))
        #expect(try TestPaths.files(below: folder).isEmpty)
    }

    @Test func outputThatIsAFileIsBadInput() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try Data().write(to: folder.appendingPathComponent("taken"))

        let result = ScaffoldRepo.run(question + ["--output", "taken"], currentDirectory: folder)

        #expect(result.exitCode == 2)
        #expect(
            result.standardError
                == "error: --output 'taken' is a file; give a folder (it is created if missing)\n")
    }

    @Test func outputInsideAFileIsBadInput() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try Data().write(to: folder.appendingPathComponent("taken"))

        let result = ScaffoldRepo.run(
            question + ["--output", "taken/store"], currentDirectory: folder)

        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("which is a file; give a folder"))
        #expect(try TestPaths.files(below: folder) == ["taken"])
    }

    @Test func intoAddsFilesToAnExistingPackageTarget() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("App/Sources/AppCore"),
            withIntermediateDirectories: true)
        try Data("// Package.swift without a test target\n".utf8).write(
            to: folder.appendingPathComponent("App/Package.swift"))
        // A preview gives the same advice about Package.swift, and writes nothing.
        let preview = ScaffoldRepo.run(
            ["Item", "id:Int", "name", "--into", "App", "--target", "AppCore", "--dry-run"],
            currentDirectory: folder)
        #expect(preview.standardOutput.contains(".testTarget(name: \"AppCoreTests\""))
        #expect(!preview.standardOutput.contains("Next:"))
        #expect(
            try TestPaths.files(below: folder.appendingPathComponent("App")) == ["Package.swift"])

        let result = ScaffoldRepo.run(
            ["Item", "id:Int", "name", "--into", "App", "--target", "AppCore"],
            currentDirectory: folder)

        #expect(result.exitCode == 0)
        #expect(
            try TestPaths.files(below: folder.appendingPathComponent("App")) == [
                ".scaffold/manifest.json", "Package.swift", "Sources/AppCore/Item.swift",
                "Sources/AppCore/ItemListViewModel.swift",
                "Sources/AppCore/ItemRepository+API.swift", "Sources/AppCore/ItemRepository.swift",
                "Sources/AppCore/JournalStore.swift", "Sources/AppCore/LiveList.swift",
                "Sources/AppCore/StoreFiles.swift", "Sources/AppCore/StoredValues.swift",
                "Tests/AppCoreTests/ItemRepositoryTests.swift",
                "Tests/AppCoreTests/ItemRepositoryXCTests.swift",
                "Tests/AppCoreTests/ItemTestSupport.swift", "Tests/AppCoreTests/SampleData.swift",
            ])
        #expect(result.standardOutput.contains("create    App/Sources/AppCore/Item.swift\n"))
        #expect(
            result.standardOutput.contains(
                ".testTarget(name: \"AppCoreTests\", dependencies: [\"AppCore\"])"))
        #expect(
            result.standardOutput.contains(
                "platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)]"
            ))
        // Without the test target, swift test would not run the generated tests; without any
        // platforms, an Apple platform's build stops at @Observable.
        #expect(
            result.standardOutput.hasSuffix(
                "Next: add the platforms line and the test target above to Package.swift, then "
                    + "cd App && swift test\n"))
        let tests = TestPaths.text(
            folder.appendingPathComponent("App/Tests/AppCoreTests/ItemRepositoryTests.swift"))
        #expect(tests?.contains("import AppCore\n") == true)
    }

    @Test(arguments: [("5.9", true), ("6.0", true), ("6.1", false), ("6.2", false)])
    func intoAPackageBelowTheMinimumToolsVersionIsToldToRaiseIt(
        version: String, toldToRaise: Bool
    ) throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try TestPaths.makeAppPackage(
            in: folder, manifest: "// swift-tools-version: \(version)\nimport PackageDescription\n")

        let result = ScaffoldRepo.run(
            ["Item", "id:Int", "--into", ".", "--target", "AppCore"], currentDirectory: folder)

        #expect(result.exitCode == 0)
        #expect(
            result.standardOutput.contains(
                "note: the generated code needs Swift 6.1 or later (it marks types nonisolated); "
                    + "Package.swift says \(version), so raise its first line to:\n"
                    + "    // swift-tools-version: 6.1\n") == toldToRaise)
    }

    /// A target with strict memory safety checking would get thousands of warnings from the
    /// engine's C calls: refused, through a variable of settings too, and nothing written. A
    /// setting in a comment, or a variable of another target's named like the label, is not it.
    @Test(arguments: [
        (".target(name: \"AppCore\", swiftSettings: [.strictMemorySafety()])", true),
        (
            "let hardened: [SwiftSetting] = [.strictMemorySafety()]\n"
                + ".target(name: \"AppCore\", swiftSettings: strict ? hardened : [])", true
        ),
        (
            "let checked: [SwiftSetting] = [\n    .strictMemorySafety(),\n]\n"
                + ".testTarget(name: \"AppCoreTests\", swiftSettings: checked)", true
        ),
        (
            ".target(name: \"AppCore\", swiftSettings: [ // .strictMemorySafety(), not now\n])",
            false
        ),
        (
            "let swiftSettings: [SwiftSetting] = [.strictMemorySafety()]\n"
                + ".target(name: \"Other\", swiftSettings: swiftSettings)\n"
                + ".target(name: \"AppCore\", swiftSettings: [.swiftLanguageMode(.v6)])", false
        ),
    ])
    func intoATargetWithStrictMemorySafetyIsRefused(declaration: String, refused: Bool) throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try TestPaths.makeAppPackage(
            in: folder,
            manifest: "// swift-tools-version: 6.2\nimport PackageDescription\n\(declaration)\n")
        let before = try TestPaths.files(below: folder)

        let result = ScaffoldRepo.run(
            ["Item", "id:Int", "--into", ".", "--target", "AppCore", "--dry-run"],
            currentDirectory: folder)

        #expect(result.exitCode == (refused ? 2 : 0), "\(result.standardError)")
        #expect(
            result.standardError.contains(".strictMemorySafety(), which the generated code")
                == refused)
        #expect(try TestPaths.files(below: folder) == before)
    }

    /// `--json` carries what the run tells besides its files: the advice for Package.swift and
    /// the next step (stdout otherwise), and warnings (stderr, where they still go too).
    @Test func theJSONReportCarriesTheRunsDiagnostics() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try TestPaths.makeAppPackage(in: folder)
        let templates = folder.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: templates.appendingPathComponent("Nothing.swift.tmpl"))

        let result = ScaffoldRepo.run(
            [
                "Item", "id:Int", "--into", ".", "--target", "AppCore", "--templates", "mine",
                "--json",
            ], currentDirectory: folder)

        #expect(result.exitCode == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
                as? [String: Any])
        let diagnostics = try #require(object["diagnostics"] as? [[String: String]])
        let severities = diagnostics.compactMap { $0["severity"] }
        #expect(severities.first == "warning")
        #expect(severities.last == "next")
        #expect(severities.contains("advice"))
        #expect(
            diagnostics.last?["message"]
                == "add the platforms line and the test target above to Package.swift, then "
                + "swift test")
        #expect(
            diagnostics.first?["message"]?.hasPrefix(
                "template file 'Nothing.swift.tmpl' matches no template") == true)
        #expect(result.standardError.hasPrefix("warning: template file 'Nothing.swift.tmpl'"))
    }

    @Test func aSQLiteModelIntoAPackageWithoutCSQLiteIsToldTheLinesAndNotToTestYet() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        // The library in a comment is not declared.
        let manifest =
            "// swift-tools-version: 6.1\nimport PackageDescription\n"
            + "platforms: [.macOS(.v14), .iOS(.v17)],\n"
            + "// .systemLibrary(name: \"CSQLite\", path: \"Sources/CSQLite\"),\n"
            + ".testTarget(name: \"AppCoreTests\", dependencies: [\"AppCore\"])\n"
        try TestPaths.makeAppPackage(in: folder, manifest: manifest)
        let arguments = [
            "Item", "id:Int", "--storage", "sqlite", "--into", ".", "--target", "AppCore",
        ]

        let result = ScaffoldRepo.run(arguments, currentDirectory: folder)

        #expect(result.exitCode == 0)
        #expect(
            result.standardOutput.contains(
                ".systemLibrary(name: \"CSQLite\", path: \"Sources/CSQLite\")"))
        #expect(result.standardOutput.contains("to the dependencies of AppCore and AppCoreTests"))
        #expect(
            result.standardOutput.hasSuffix(
                "Next: add the CSQLite lines above to Package.swift, then swift test\n"))
        #expect(
            FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("Sources/CSQLite/module.modulemap").path))
        // Generated again without --storage, it is still sqlite, and still told the lines.
        let later = ScaffoldRepo.run(
            ["Item", "id:Int", "--into", ".", "--target", "AppCore"],
            currentDirectory: folder)
        #expect(
            later.standardOutput.hasSuffix(
                "Next: add the CSQLite lines above to Package.swift, then swift test\n"))
        // A journal model of the same module: the module links SQLite all the same.
        let journal = ScaffoldRepo.run(
            ["Pen", "id:Int", "--into", ".", "--target", "AppCore"], currentDirectory: folder)
        #expect(
            journal.standardOutput.hasSuffix(
                "Next: add the CSQLite lines above to Package.swift, then swift test\n"))
        // Once Package.swift declares it, and the test target depends on it, the run says
        // nothing of it.
        let declared =
            manifest.replacingOccurrences(of: "[\"AppCore\"]", with: "[\"AppCore\", \"CSQLite\"]")
            + ".systemLibrary(name: \"CSQLite\")\n"
        try Data(declared.utf8).write(to: folder.appendingPathComponent("Package.swift"))
        let again = ScaffoldRepo.run(arguments, currentDirectory: folder)
        #expect(!again.standardOutput.contains("CSQLite lines"))
        #expect(again.standardOutput.hasSuffix("Next: swift test\n"))
    }

    /// A second target with a sqlite model, in a package whose CSQLite an earlier target
    /// already depends on: the run names the targets that do not, and does not say "swift test"
    /// alone ("no such module 'CSQLite'" otherwise).
    @Test func aSQLiteModelIntoATargetThatDoesNotDependOnCSQLiteIsToldTheDependency() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let manifest = """
            // swift-tools-version: 6.1
            import PackageDescription

            let sqlite: Target.Dependency = .target(name: "CSQLite", condition: .when(platforms: [.linux]))

            let package = Package(
                name: "App", platforms: [.macOS(.v14), .iOS(.v17)],
                targets: [
                    .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
                    .target(name: "AppCore", dependencies: [sqlite]),
                    .testTarget(name: "AppCoreTests", dependencies: [.target(name: "AppCore")]),
                ])

            """
        try TestPaths.makeAppPackage(in: folder, manifest: manifest)
        let arguments = [
            "Item", "id:Int", "--storage", "sqlite", "--into", ".", "--target", "AppCore",
        ]

        let result = ScaffoldRepo.run(arguments, currentDirectory: folder)

        #expect(result.exitCode == 0)
        #expect(
            result.standardOutput.contains(
                "Package.swift declares CSQLite, but AppCoreTests does not depend on it; add to its "
                    + "dependencies:\n    .target(name: \"CSQLite\", condition: .when(platforms: "
                    + "[.linux]))"))
        #expect(
            result.standardOutput.hasSuffix(
                "Next: add the CSQLite dependency above to Package.swift, then swift test\n"))
        try Data(
            manifest.replacingOccurrences(
                of: "[.target(name: \"AppCore\")]", with: "[\"AppCore\", sqlite]"
            ).utf8
        ).write(to: folder.appendingPathComponent("Package.swift"))
        let again = ScaffoldRepo.run(arguments, currentDirectory: folder)
        #expect(again.standardOutput.hasSuffix("Next: swift test\n"))
        #expect(
            DestinationResolver.dependsOnTheSQLiteLibrary(target: "Other", in: manifest) == nil)
        // A variable over several lines; the package's own declaration names it but is no
        // dependency.
        let spread = """
            let storeDependencies: [Target.Dependency] = [
                .target(name: "CSQLite", condition: .when(platforms: [.linux]))
            ]
            let package = Package(
                name: "App",
                targets: [
                    .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
                    .target(name: "App", dependencies: storeDependencies),
                    .testTarget(name: "AppTests", dependencies: ["App", package]),
                ])
            """
        #expect(DestinationResolver.dependsOnTheSQLiteLibrary(target: "App", in: spread) == true)
        let indented = """
            #if os(Linux)
                let sqlite: [Target.Dependency] = [.target(name: "CSQLite")]
            #else
                let sqlite: [Target.Dependency] = []
            #endif
            let package = Package(name: "App", targets: [.target(name: "App", dependencies: sqlite)])
            """
        #expect(DestinationResolver.dependsOnTheSQLiteLibrary(target: "App", in: indented) == true)
        #expect(
            DestinationResolver.dependsOnTheSQLiteLibrary(target: "AppTests", in: spread) == false)
    }

    /// A test target at a path of its own would not run the generated tests in
    /// Tests/<target>Tests: the run gives a test target for them, and its Next: step names it.
    @Test func aTestTargetWithAPathOfItsOwnIsToldATestTargetForTheGeneratedTests() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let manifest = """
            // swift-tools-version: 6.1
            import PackageDescription

            let package = Package(
                name: "App", platforms: [.macOS(.v14), .iOS(.v17)],
                targets: [
                    .target(name: "AppCore"),
                    .testTarget(name: "AppCoreTests", dependencies: ["AppCore"], path: "Tests/Unit"),
                ])

            """
        try TestPaths.makeAppPackage(in: folder, manifest: manifest)
        let arguments = ["Item", "id:Int", "--into", ".", "--target", "AppCore"]

        let result = ScaffoldRepo.run(arguments, currentDirectory: folder)

        let line =
            ".testTarget(name: \"AppCoreStoreTests\", dependencies: [\"AppCore\"], path: "
            + "\"Tests/AppCoreTests\")"
        #expect(result.exitCode == 0)
        #expect(
            result.standardOutput.contains(
                "Package.swift gives AppCoreTests the path Tests/Unit, so swift test would not run "
                    + "the generated tests in Tests/AppCoreTests; declare a test target for them:\n    "
                    + line))
        #expect(
            result.standardOutput.hasSuffix(
                "Next: add the test target above to Package.swift, then swift test\n"))
        try Data(manifest.replacingOccurrences(of: "    ])", with: "    \(line),\n    ])").utf8)
            .write(to: folder.appendingPathComponent("Package.swift"))
        let again = ScaffoldRepo.run(arguments, currentDirectory: folder)
        #expect(again.standardOutput.hasSuffix("Next: swift test\n"))
        // A path that holds Tests/AppCoreTests builds the generated tests already.
        for path in ["Tests", "./Tests/AppCoreTests"] {
            try Data(manifest.replacingOccurrences(of: "Tests/Unit", with: path).utf8)
                .write(to: folder.appendingPathComponent("Package.swift"))
            let holding = ScaffoldRepo.run(arguments, currentDirectory: folder)
            #expect(holding.standardOutput.hasSuffix("Next: swift test\n"), "\(path)")
        }
    }

    @Test func aModelThatChangesStorageImportsWhatTheFormerOneSavedAndNeverLeavesSQLite() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let run = { (arguments: [String]) in ScaffoldRepo.run(arguments, currentDirectory: folder) }
        #expect(run(["Other", "id:Int", "title"]).exitCode == 0)
        let kept = TestPaths.text(
            folder.appendingPathComponent("OtherStore/Sources/OtherStore/OtherRepository.swift"))
        #expect(run(["Note", "id:Int", "title", "--storage", "snapshot"]).exitCode == 0)

        // The snapshot storage, for teaching, imports nothing: a journal store's values would
        // be locked away.
        let toSnapshot = run(["Other", "id:Int", "title", "--storage", "snapshot"])
        let journal = run(["Note", "id:Int", "title", "--storage", "journal"])
        let sqlite = run(["Note", "id:Int", "title", "--storage", "sqlite"])

        #expect(toSnapshot.exitCode == 2)
        #expect(
            toSnapshot.standardError.contains(
                "--storage snapshot: Other keeps values in others.snapshot.json, others.journal, "
                    + "which the snapshot storage, for teaching, does not import, so they would be "
                    + "locked away. Keep --storage journal"),
            "\(toSnapshot.standardError)")
        #expect(
            TestPaths.text(
                folder.appendingPathComponent("OtherStore/Sources/OtherStore/OtherRepository.swift")
            )
                == kept)
        // On stdout before the next step: the app's code may have to change (the API).
        #expect(journal.exitCode == 0)
        #expect(
            journal.standardOutput.contains(
                "note: Note moves from --storage snapshot to --storage journal: the first time "
                    + "its repository opens a folder, it imports the values that earlier storages "
                    + "saved there (notes.json)"),
            "\(journal.standardOutput)")
        #expect(journal.standardOutput.contains("Recovery (recover(directory:) returns"))
        #expect(sqlite.exitCode == 0)
        #expect(sqlite.standardOutput.contains("(notes.json, notes.snapshot.json, notes.journal)"))
        // From the journal (its last storage): compact() goes.
        #expect(sqlite.standardOutput.contains("filter(by:); compact(), compactionFloor"))
        let lines = sqlite.standardOutput.split(separator: "\n")
        #expect(lines.last?.hasPrefix("Next: ") == true)
        #expect(lines.dropLast().last?.hasPrefix("note: Note moves") == true)
        let record = try Manifest.load(root: folder.appendingPathComponent("NoteStore"))?
            .model(named: "Note")
        #expect(record?.formerStorages == [.snapshot, .journal])
        // Both former engines are there, to read what they left; the repository imports from
        // both.
        let sources = "NoteStore/Sources/NoteStore/"
        let repository = TestPaths.text(
            folder.appendingPathComponent(sources + "NoteRepository.swift"))
        #expect(
            repository?.contains("JournalStore<Note, NoteRepositoryError>.importStore") == true)
        #expect(
            repository?.contains("SnapshotStore<Note, NoteRepositoryError>.importStore") == true)
        #expect(
            TestPaths.text(folder.appendingPathComponent(sources + "JournalStore.swift")) != nil)
        #expect(
            TestPaths.text(folder.appendingPathComponent(sources + "SnapshotStore.swift")) != nil)
        let again = run(["regen", "NoteStore", "--check"])
        #expect(again.exitCode == 0)
        #expect(!again.standardError.contains("moves from"))

        let back = run(["Note", "id:Int", "title", "--storage", "journal"])

        #expect(back.exitCode == 2)
        #expect(
            back.standardError.contains(
                "--storage journal: Note keeps its values in the table notes of NoteStore.sqlite, "
                    + "which a journal store does not read, so they would be locked away. Keep "
                    + "--storage sqlite"))
    }

    @Test func aModelGeneratedAgainWithoutStorageKeepsItsStorage() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let run = { (arguments: [String]) in ScaffoldRepo.run(arguments, currentDirectory: folder) }
        #expect(run(["Card", "id:UUID", "front", "--storage", "snapshot"]).exitCode == 0)
        #expect(run(["Folder", "id:UUID", "name", "--storage", "sqlite"]).exitCode == 0)

        let card = run(["Card", "id:UUID", "front", "back=x"])
        let folderRun = run(["Folder", "id:UUID", "name", "color=red"])

        #expect(card.exitCode == 0)
        #expect(!card.standardError.contains("moves from"))
        #expect(folderRun.exitCode == 0, "\(folderRun.standardError)")
        let cards = try Manifest.load(root: folder.appendingPathComponent("CardStore"))
        #expect(cards?.model(named: "Card")?.storage == .snapshot)
        #expect(cards?.model(named: "Card")?.formerStorages == nil)
        let folders = try Manifest.load(root: folder.appendingPathComponent("FolderStore"))
        #expect(folders?.model(named: "Folder")?.storage == .sqlite)
    }

    @Test func theToolsVersionIsReadFromTheManifestsFirstLine() {
        let read = { (text: String) in
            DestinationResolver.toolsVersion(of: text).map { "\($0.major).\($0.minor)" }
        }
        #expect(read("// swift-tools-version: 6.0\nimport PackageDescription") == "6.0")
        #expect(read("// swift-tools-version:5.9.2\n") == "5.9")
        #expect(read("// Swift-Tools-Version: 6.2;(experimentalFeatures)\n") == "6.2")
        #expect(read("import PackageDescription\n// swift-tools-version: 6.0") == nil)
        #expect(read("") == nil)
    }

    @Test func intoAMissingTargetIsBadInput() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try Data().write(to: folder.appendingPathComponent("Package.swift"))
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Sources/AppCore"), withIntermediateDirectories: true)

        let result = ScaffoldRepo.run(
            ["Item", "id:Int", "--into", ".", "--target", "Missing"], currentDirectory: folder)

        #expect(result.exitCode == 2)
        #expect(
            result.standardError.contains("there is no Sources/Missing in '.' (it has: AppCore)"))
        #expect(try TestPaths.files(below: folder) == ["Package.swift"])
    }

    /// A target that Package.swift builds from another folder would not build the files
    /// written to Sources/<target>: refused, nothing written, even beside a stray Sources/App
    /// (found by a trial: the run wrote there and printed Next: swift test). The standard path
    /// given explicitly is fine.
    @Test(arguments: [
        (#"path: "Code/App""#, "the path Code/App"),
        (#"path: "./Sources/App""#, nil),
        // A path scaffold-repo cannot read is not taken for Sources/App (found by a review).
        ("path: appPath", "the path appPath"),
        // Another target's path after a parenthesis in a string is not this one's.
        (#"exclude: ["notes(draft.txt"]), .target(name: "Lib", path: "Lib""#, nil),
        // A sources: list leaves the generated files out, unless it holds the folder itself.
        (#"sources: ["Mine.swift"]"#, #"the sources ["Mine.swift"], which would leave out"#),
        (#"path: "Sources/App", sources: [".", "Extra"]"#, nil),
    ])
    func intoATargetThatBuildsOtherFilesIsBadInput(arguments: String, refusal: String?) throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try Data(
            """
            // swift-tools-version: 6.2
            import PackageDescription
            let appPath = "Code/App"
            let package = Package(
                name: "P", platforms: [.macOS(.v14), .iOS(.v17)],
                targets: [.target(name: "App", \(arguments))])

            """.utf8
        ).write(to: folder.appendingPathComponent("Package.swift"))
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)

        let result = ScaffoldRepo.run(
            ["Item", "id:Int", "--into", ".", "--target", "App", "--dry-run"],
            currentDirectory: folder)

        if let refusal {
            #expect(result.exitCode == 2)
            #expect(
                result.standardError.contains("--target 'App': Package.swift gives App \(refusal)"),
                "\(result.standardError)")
        } else {
            #expect(result.exitCode == 0, "\(result.standardError)")
        }
        #expect(try TestPaths.files(below: folder) == ["Package.swift"])
    }

    @Test func aTemplateOverrideReplacesOneFileAndTheRestFallBack() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("custom"), withIntermediateDirectories: true)
        try Data("// {{model}} by the team\n".utf8).write(
            to: folder.appendingPathComponent("custom/Model.swift.tmpl"))

        let result = ScaffoldRepo.run(
            question + ["--templates", "custom"], currentDirectory: folder)

        #expect(result.exitCode == 0)
        let model = TestPaths.text(
            folder.appendingPathComponent("QuestionStore/Sources/QuestionStore/Question.swift"))
        #expect(model == "// Question by the team\n")
        let repository = TestPaths.text(
            folder.appendingPathComponent(
                "QuestionStore/Sources/QuestionStore/QuestionRepository.swift"))
        #expect(repository?.contains("public actor QuestionRepository") == true)
    }

    @Test func aTemplatesFileThatMatchesNoTemplateIsReported() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("custom"), withIntermediateDirectories: true)
        for name in ["Model.swift", "gitignore.tmpl", "Notes.tmpl"] {
            try Data("# {{model}}\n".utf8).write(
                to: folder.appendingPathComponent("custom/\(name)"))
        }

        let result = ScaffoldRepo.run(
            question + ["--templates", "custom"], currentDirectory: folder)

        #expect(result.exitCode == 0)
        #expect(
            result.standardError.contains(
                "warning: template file 'Model.swift' matches no template and was not used; did "
                    + "you mean Model.swift.tmpl?"))
        #expect(
            result.standardError.contains(
                "warning: template file 'Notes.tmpl' matches no template"))
    }

    @Test func aTemplatesFolderWithoutTemplatesIsRefusedNamingTheLikelyFix() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("custom"), withIntermediateDirectories: true)
        try Data("// {{model}}\n".utf8).write(
            to: folder.appendingPathComponent("custom/Model.swift"))

        let result = ScaffoldRepo.run(
            question + ["--templates", "custom"], currentDirectory: folder)

        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("holds no .tmpl files"))
        #expect(result.standardError.contains("Rename Model.swift to Model.swift.tmpl?"))
        #expect(try TestPaths.files(below: folder) == ["custom/Model.swift"])
    }

    @Test func aBrokenTemplateOverrideIsBadInputNamingTheFileAndLine() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("custom"), withIntermediateDirectories: true)
        try Data("line one\n{{#each fields}}\n".utf8).write(
            to: folder.appendingPathComponent("custom/Model.swift.tmpl"))

        let result = ScaffoldRepo.run(
            question + ["--templates", "custom"], currentDirectory: folder)

        #expect(result.exitCode == 2)
        #expect(
            result.standardError.contains("custom/Model.swift.tmpl:2: '{{#each}}' is never closed"))
        #expect(try TestPaths.files(below: folder) == ["custom/Model.swift.tmpl"])
    }

    @Test func helpAndVersion() {
        let help = ScaffoldRepo.run(["--help"], currentDirectory: URL(fileURLWithPath: "/"))
        #expect(help.exitCode == 0)
        #expect(help.standardOutput.contains("scaffold-repo Question id:String text:String"))

        let version = ScaffoldRepo.run(["--version"], currentDirectory: URL(fileURLWithPath: "/"))
        #expect(version.standardOutput == "scaffold-repo \(ScaffoldRepo.version)\n")
    }
}

extension CommandTests {
    /// A `Data` field's bytes are not compared in SQL, so the sqlite storage cannot index them:
    /// refused, naming the token and the fix, with nothing written (the package would not
    /// compile). The journal indexes it in memory.
    @Test func aSQLiteIndexOnBytesIsRefusedAndTheJournalTakesIt() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }

        let sqlite = ScaffoldRepo.run(
            ["Blob", "id:Int", "raw:Data?:unique", "--storage", "sqlite"],
            currentDirectory: folder)
        let journal = ScaffoldRepo.run(
            ["Blob", "id:Int", "raw:Data?:unique"], currentDirectory: folder)

        #expect(sqlite.exitCode == 2)
        #expect(
            sqlite.standardError.hasPrefix(
                "error: 'raw:Data?:unique': with --storage sqlite a Data field cannot be :unique"))
        #expect(sqlite.standardError.contains("drop the modifier"))
        #expect(journal.exitCode == 0)
    }

    /// The snapshot storage, for teaching, keeps no index and one schema version: `:unique`,
    /// `:index` and `--migrate` are refused, naming the token and `--storage journal`, with
    /// nothing written; so is a record of an earlier release that has them, at regen, and its
    /// files stay as they were until the model moves to the journal, which imports its file.
    @Test func theSnapshotStorageRefusesIndexesAndMigrationsNamingTheJournal() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let run = { (arguments: [String]) in ScaffoldRepo.run(arguments, currentDirectory: folder) }
        let card = ["Card", "id:UUID", "--storage", "snapshot", "--output", "Cards"]

        let unique = run(card + ["code:String:unique"])
        let index = run(card + ["level:Int:index"])
        #expect(try TestPaths.files(below: folder).isEmpty)
        #expect(run(card + ["title:String"]).exitCode == 0)
        let before = try TestPaths.files(below: folder)
        let migrate = run(card + ["title:Int", "--migrate"])

        for refused in [unique, index, migrate] {
            #expect(refused.exitCode == 2)
            #expect(refused.standardError.contains("the snapshot storage, for teaching"))
            #expect(refused.standardError.contains("add --storage journal"))
        }
        #expect(unique.standardError.hasPrefix("error: 'code:String:unique': "))
        #expect(index.standardError.contains("drop :index"))
        #expect(migrate.standardError.hasPrefix("error: --migrate: Card has 2 schema versions"))
        #expect(try TestPaths.files(below: folder) == before)

        // A record written by an earlier release, whose snapshot store had an index.
        let url = folder.appendingPathComponent("Cards/\(Manifest.path)")
        let text = try #require(TestPaths.text(url))
        let edited = TestPaths.withoutChecksums(text).replacingOccurrences(
            of: #""name" : "title","#, with: #""index" : "unique", "name" : "title","#)
        #expect(edited != text)
        try Data(edited.utf8).write(to: url)
        let regen = run(["regen", "Cards"])
        let journal = run(
            ["Card", "id:UUID", "title:String:unique", "--storage", "journal", "--output", "Cards"])

        #expect(regen.exitCode == 2)
        #expect(regen.standardError.contains("'title:String:unique'"))
        #expect(journal.exitCode == 0, "\(journal.standardError)")
        #expect(journal.standardOutput.contains("imports the values that earlier storages saved"))
    }

    /// A manifest's record is held to what its storage can do, as a command line is: a sqlite
    /// record edited to index bytes is refused by regen, with nothing written.
    @Test func aRecordThatItsStorageCannotServeIsRefusedByRegen() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = ScaffoldRepo.run(
            ["Blob", "id:Int", "name", "--storage", "sqlite"], currentDirectory: folder)
        let url = folder.appendingPathComponent("BlobStore/\(Manifest.path)")
        let text = try #require(TestPaths.text(url))
        // Its checksum removed, as a person keeping the edit would (or an earlier release's).
        let edited = TestPaths.withoutChecksums(text).replacingOccurrences(
            of: #""name" : "name","#, with: #""index" : "index", "name" : "name","#
        )
        .replacingOccurrences(of: #""type" : "String""#, with: #""type" : "Data""#)
        #expect(edited != text)
        try Data(edited.utf8).write(to: url)
        let before = try TestPaths.files(below: folder)

        let regen = ScaffoldRepo.run(["regen", "BlobStore"], currentDirectory: folder)
        let afterRegen = try TestPaths.files(below: folder)
        let sibling = ScaffoldRepo.run(
            [
                "Tag", "id:Int", "--into", "BlobStore", "--target", "BlobStore", "--storage",
                "sqlite",
            ],
            currentDirectory: folder)
        let fixed = ScaffoldRepo.run(
            ["Blob", "id:Int", "name:Data", "--storage", "sqlite", "--output", "BlobStore"],
            currentDirectory: folder)

        #expect(regen.exitCode == 2)
        #expect(regen.standardError.contains("a Data field cannot be :index"))
        #expect(afterRegen == before)
        // Another model beside it still gets the samples the record's fields need.
        #expect(sibling.exitCode == 0, "\(sibling.standardError)")
        let sampleData = TestPaths.text(
            folder.appendingPathComponent("BlobStore/Tests/BlobStoreTests/SampleData.swift"))
        #expect(sampleData?.contains("extension Data: SampleValue {") == true)
        // Generating the model again without the modifier, as the message says, fixes it.
        #expect(fixed.exitCode == 0, "\(fixed.standardError)")
    }
}

extension CommandTests {
    /// The command-line page shows a mistyped type's message as the generator prints it, its
    /// list of types included.
    @Test func theCommandsPageShowsTheUnknownTypeMessageAsPrinted() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let page = TestPaths.text(
            TestPaths.repositoryRoot.appendingPathComponent("Documentation/commands.md"))

        let result = ScaffoldRepo.run(["Question", "id:Strng"], currentDirectory: folder)

        try GeneratedDocs.expectLine(
            of: "Documentation/commands.md", startingWith: "error: unknown type 'Strng'",
            toBe: String(result.standardError.dropLast()))
        #expect(page?.contains("$ scaffold-repo Question id:Strng\nerror: unknown type") == true)
    }
}
