import Foundation
import Testing

@testable import ScaffoldRepoCore

/// Generating into a target whose own code declares what the generated code declares.
@Suite struct ClashCheckTests {
    let folder: URL

    init() throws {
        folder = try TestPaths.makeTemporaryFolder()
        try write(
            "Package.swift",
            """
            // swift-tools-version: 6.1
            import PackageDescription

            let package = Package(
                name: "App", platforms: [.macOS(.v14), .iOS(.v17)],
                targets: [
                    .target(name: "App"), .testTarget(name: "AppTests", dependencies: ["App"]),
                ])

            """)
        try write("Sources/App/App.swift", "public enum App {}\n")
        try write("Tests/AppTests/AppTests.swift", "import Testing\n")
    }

    func write(_ path: String, _ text: String) throws {
        let file = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    func generate(_ model: String) -> RunResult {
        ScaffoldRepo.run(
            [model, "id:UUID", "title:String", "--into", ".", "--target", "App"],
            currentDirectory: folder)
    }

    /// Refused with exit 2 and `message` on stderr, and nothing written.
    func expectRefused(_ model: String, _ message: String) throws {
        let before = try TestPaths.files(below: folder)
        let result = generate(model)
        #expect(result.exitCode == 2)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        #expect(try TestPaths.files(below: folder) == before)
    }

    /// A file of the target where the model's file goes is kept, and the run says that --force
    /// would replace it whole, code of the person's included (an app trial followed "Re-run with
    /// --force" and lost its `Priority` and `Item`); --force is still the person's to give (a
    /// package whose manifest was lost holds generated files that differ so).
    @Test func aFileOfThePersonsWhereTheModelsFileGoesIsKeptAndForceIsExplained() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        let own = "public struct Money {}\npublic enum Priority { case low }\n"
        try write("Sources/App/Money.swift", own)
        let arguments = ["Money", "id:UUID", "title:String", "--into", ".", "--target", "App"]
        let before = try TestPaths.files(below: folder)

        let kept = ScaffoldRepo.run(arguments, currentDirectory: folder)

        #expect(kept.exitCode == 1)
        #expect(
            kept.standardError.hasSuffix(
                "scaffold-repo did not write Sources/App/Money.swift: --force would replace it with "
                    + "the generated file, any code of yours in it included; move such code to a "
                    + "file of another name first.\nRe-run with --force to overwrite them, or move "
                    + "them away first.\n"),
            "\(kept.standardError)")
        #expect(try TestPaths.files(below: folder) == before)
        let text = try String(
            contentsOf: folder.appendingPathComponent("Sources/App/Money.swift"), encoding: .utf8)
        #expect(text == own)
        #expect(ScaffoldRepo.run(arguments + ["--force"], currentDirectory: folder).exitCode == 0)
    }

    @Test func aTypeOfTheTargetWithTheModelsNameIsRefusedByFileAndLine() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        try write(
            "Sources/App/Models.swift", "import Foundation\n\n/// Ours.\npublic struct Note {}\n")

        try expectRefused(
            "Note",
            "Sources/App/Models.swift:4 declares struct Note, and so does the generated "
                + "Sources/App/Note.swift: the target would not compile ('Note' is ambiguous or "
                + "declared twice). Rename yours, give the model another name, or generate it "
                + "into another target (--target)")
    }

    @Test func aFileAnywhereInTheTargetWithAGeneratedFilesNameIsRefused() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        try write("Sources/App/Models/Folder.swift", "struct FolderRow {}\n")

        try expectRefused(
            "Folder",
            "Sources/App/Models/Folder.swift has the name of the generated Sources/App/Folder.swift: "
                + "a target cannot build two files of one name (\"multiple producers\")")
    }

    @Test func aSampleDataOfTheTestTargetIsRefused() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        try write("Tests/AppTests/Fixtures.swift", "enum SampleData {\n    static let a = 1\n}\n")

        try expectRefused(
            "Note",
            "Tests/AppTests/Fixtures.swift:1 declares enum SampleData, and so does the generated "
                + "Tests/AppTests/SampleData.swift: the target would not compile ('SampleData' is "
                + "ambiguous or declared twice). Rename yours: the generated one serves every model "
                + "of the target")
    }

    @Test func aPublicTypeOfTheTargetThatAGeneratedTestTypeWouldHideIsRefused() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        try write("Sources/App/Fixtures.swift", "public enum SampleData {}\n")

        try expectRefused(
            "Note",
            "Sources/App/Fixtures.swift:1 declares enum SampleData, and so does the generated "
                + "Tests/AppTests/SampleData.swift")
    }

    @Test func aTestTypeNamedLikeAnInternalEngineTypeIsNoClash() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        // The generated tests import the module without @testable: they never see these.
        try write("Tests/AppTests/Helpers.swift", "struct Revised {}\nenum StoreFiles {}\n")
        try write("Sources/App/Internal.swift", "enum SampleValue {}\n")

        #expect(generate("Note").exitCode == 0)
    }

    @Test func theGeneratedFilesOfEveryModelAndTheTargetsOtherTypesAreNoClash() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        try write("Sources/App/Models.swift", "extension String {}\nstruct Notebook {}\n")

        #expect(generate("Note").exitCode == 0)
        #expect(generate("Folder").exitCode == 0)
        #expect(generate("Note").exitCode == 0)
        let regen = ScaffoldRepo.run(["regen", ".", "--check"], currentDirectory: folder)
        #expect(regen.exitCode == 0, "\(regen.standardError)")
    }

    /// The sqlite engine adds `argument` and `checksumBytes` to `String`, `Int` and `UUID`: a
    /// target that adds a property of one of those names declares it twice, a `private` one too.
    @Test func aPropertyTheTargetAddsToAStandardTypeLikeTheEngineIsRefused() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        try write(
            "Sources/App/Strings.swift",
            """
            import Foundation

            public extension Swift.String {
                /// Ours.
                var argument: String { "--" + self }
                func keyArgument() -> String { self }
            }
            private extension UUID {
                var checksumBytes: Data { Data() }
            }
            enum Order { struct Item {} }
            extension Order.Item {
                static let samples: [Order.Item] = []
            }
            extension Optional where Wrapped == Order.Item {
                var queryArgument: String { "" }
            }

            """)
        let sqlite = ["Item", "id:UUID", "title:String", "--storage", "sqlite"]
        let before = try TestPaths.files(below: folder)

        let refused = ScaffoldRepo.run(
            sqlite + ["--into", ".", "--target", "App"], currentDirectory: folder)

        #expect(refused.exitCode == 2)
        #expect(
            refused.standardError.contains(
                "Sources/App/Strings.swift:5 adds var argument to String, and so does the generated "
                    + "Sources/App/SQLiteStore.swift: the target would not compile (invalid "
                    + "redeclaration). Rename yours, or generate the model into another target "
                    + "(--target)"), "\(refused.standardError)")
        #expect(refused.standardError.contains("Strings.swift:9 adds var checksumBytes to UUID"))
        // A function, a nested type named like the model, and an extension with a where clause
        // are no clash (each compiles beside the generated files).
        #expect(!refused.standardError.contains("Strings.swift:6"))
        #expect(!refused.standardError.contains("Strings.swift:13"))
        #expect(!refused.standardError.contains("Strings.swift:16"))
        #expect(try TestPaths.files(below: folder) == before)
        // The journal engine adds no such property.
        #expect(generate("Note").exitCode == 0)
    }

    @Test func extensionPropertiesAreReadWithTheTypeTheyExtend() {
        let text = """
            extension String: Sendable {
                static var columnType: String { "" }
                @MainActor public lazy var shown = 1
                func argument() {}
                struct Inner { var deeper = 0 }
            }
            var notInAnExtension = 0
            fileprivate extension Foundation.UUID {
                let tag = 0
            }
            extension Array where Element == Int {
                var total: Int { 0 }
            }
            extension Set<Int> {
                var total: Int { 0 }
            }
            """

        #expect(
            ClashCheck.extensionProperties(in: text) == [
                .init(type: "String", property: "static var columnType", line: 2),
                .init(type: "String", property: "var shown", line: 3),
                .init(type: "UUID", property: "var tag", line: 9),
            ])
    }

    @Test func aModelNamedLikeATypeAnotherModelsFilesDeclareIsRefused() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(generate("Note").exitCode == 0)

        try expectRefused(
            "NoteRepositoryError",
            "Sources/App/NoteRepository.swift:")
        try expectRefused(
            "NoteRepositoryError",
            "(generated for the model Note) declares enum NoteRepositoryError, and so does the "
                + "generated Sources/App/NoteRepositoryError.swift: the target would not compile "
                + "('NoteRepositoryError' is ambiguous or declared twice). Give this model another "
                + "name, or generate it into another target (--target)")
        // A public model type that the tests' own NoteTestSupport would hide from them.
        try expectRefused("NoteTestSupport", "declares enum NoteTestSupport")
    }

    /// Two models whose stores have one name would read and write one store: `Leave` beside
    /// `Leaf` (both `leaves`), a plural given in another letter case, one sqlite table, and a
    /// model of another target (an App Group's folder holds every module's files).
    @Test func aModelWhoseStoreWouldHaveAnotherModelsNameIsRefused() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(generate("Leaf").exitCode == 0)
        let message =
            "Leave: Leave would keep its values in the files leaves.*, where Leaf keeps its own; "
            + "the two models would read and write each other's values. Give Leave a plural of "
            + "its own, for example --plural leaveItems"
        try expectRefused("Leave", message)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Sources/Other"), withIntermediateDirectories: true)
        let before = try TestPaths.files(below: folder)
        for arguments in [
            ["Human", "id:UUID", "--plural", "leaVes", "--into", ".", "--target", "App"],
            ["Leave", "id:UUID", "--into", ".", "--target", "Other"],
        ] {
            let result = ScaffoldRepo.run(arguments, currentDirectory: folder)
            #expect(result.exitCode == 2)
            #expect(result.standardError.contains("where Leaf keeps its own"))
            #expect(try TestPaths.files(below: folder) == before)
        }
        // sqlite: a table of the module's database, so another target's is another database.
        let sqlite = ["id:UUID", "--storage", "sqlite", "--into", ".", "--target"]
        #expect(
            ScaffoldRepo.run(["Tree"] + sqlite + ["App"], currentDirectory: folder).exitCode == 0)
        let table = ScaffoldRepo.run(
            ["Oak", "id:UUID", "--plural", "trees"] + sqlite.dropFirst() + ["App"],
            currentDirectory: folder)
        #expect(table.exitCode == 2)
        #expect(table.standardError.contains("the table 'trees' of App.sqlite, where Tree keeps"))
        let other = ScaffoldRepo.run(
            ["Grove", "id:UUID", "--plural", "trees"] + sqlite.dropFirst() + ["Other"],
            currentDirectory: folder)
        #expect(other.exitCode == 0, "\(other.standardError)")
        // A model generated again keeps its store, and one with a plural of its own is fine.
        #expect(generate("Leaf").exitCode == 0)
        let own = ScaffoldRepo.run(
            ["Leave", "id:UUID", "--plural", "leaveItems", "--into", ".", "--target", "App"],
            currentDirectory: folder)
        #expect(own.exitCode == 0, "\(own.standardError)")
    }

    /// A sqlite model that a journal store moved to imports the files of its plural at every
    /// open: a journal model with that plural would have its values taken there.
    @Test func aModelNamedLikeTheFilesAMovedModelImportsIsRefused() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(generate("Leaf").exitCode == 0)
        let moved = ScaffoldRepo.run(
            [
                "Leaf", "id:UUID", "title:String", "--storage", "sqlite", "--into", ".", "--target",
                "App",
            ],
            currentDirectory: folder)
        #expect(moved.exitCode == 0, "\(moved.standardError)")

        try expectRefused("Leave", "Leave would keep its values in the files leaves.*, where Leaf")
    }

    /// A type of the target's own named like a type of Swift, Foundation or a test framework
    /// that the generated code uses bare hides it there: refused, by file and line. A public one
    /// in the sources hides it in the generated tests too; a file-private one only in its file.
    @Test func aTypeOfTheTargetThatHidesANameTheGeneratedCodeUsesIsRefused() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        try write("Sources/App/Cache.swift", "private struct URL {}\nstruct FileManager {}\n")
        try expectRefused(
            "Note",
            "Sources/App/Cache.swift:2 declares struct FileManager, which hides the FileManager of "
                + "Swift, Foundation or a test framework that the generated ")
        try write("Sources/App/Cache.swift", "public struct JSONDecoder {}\n")
        try expectRefused("Note", "Sources/App/Cache.swift:1 declares struct JSONDecoder")
        try write("Sources/App/Cache.swift", "enum Cache {}\n")
        try write("Tests/AppTests/Fixtures.swift", "struct UUID {}\n")
        try expectRefused(
            "Note", "Tests/AppTests/Fixtures.swift:1 declares struct UUID, which hides the UUID")
        // An attribute or a macro is not hidden by a type: the view-model's @Observable.
        try write("Tests/AppTests/Fixtures.swift", "final class Observable {}\n")
        #expect(generate("Note").exitCode == 0)
    }

    /// A to-do app's own `Task` would hide Swift's from the view-model and the tests: the
    /// generated code then writes `_Concurrency.Task`, as for a model named Task.
    @Test func aTargetsOwnTaskMakesTheGeneratedCodeWriteConcurrencyTask() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        try write("Sources/App/Task.swift", "public struct Task: Sendable { var title = \"\" }\n")

        #expect(generate("Note").exitCode == 0)

        for path in ["Sources/App/NoteListViewModel.swift", "Tests/AppTests/NoteTestSupport.swift"]
        {
            let text = try #require(TestPaths.text(folder.appendingPathComponent(path)))
            #expect(text.contains("_Concurrency.Task"))
            #expect(!ClashCheck.bareCapitalizedNames(in: text).contains("Task"), "\(path)")
        }
        #expect(
            ClashCheck.bareCapitalizedNames(
                in: "let a = Task { } // Data\n@Observable x.Date \"URL\" /* UUID */ [Set<Int>]")
                == ["Task", "Set", "Int"])
    }

    /// A Task the target gets after a model was generated: the next model's run writes
    /// `_Concurrency.Task`, says that the earlier model's files need regen, and its next step
    /// is regen (the module does not build until then).
    @Test func aTaskAddedLaterSendsTheNextRunToRegenFirst() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(generate("Item").exitCode == 0)
        try write("Sources/App/Task.swift", "public struct Task: Sendable { var title = \"\" }\n")

        let note = generate("Note")

        #expect(note.exitCode == 0)
        #expect(
            note.standardError.contains(
                "warning: the files generated for Item in App do not fit the target's own code "
                    + "as it is now"))
        #expect(note.standardOutput.contains("Next: scaffold-repo regen, then "))
        #expect(ScaffoldRepo.run(["regen"], currentDirectory: folder).exitCode == 0)
        let again = generate("Note")
        #expect(!again.standardError.contains("do not fit the target's own code"))
        #expect(!again.standardOutput.contains("regen"))
    }

    /// A migration file is the person's, and regen never rewrites it: when the target's imports
    /// change level, the next run says to change its imports, not to regen.
    @Test func aMigrationWhoseImportsNoLongerFitIsThePersonsToFix() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        let item = ["Item", "id:Int", "--into", ".", "--target", "App"]
        #expect(ScaffoldRepo.run(item + ["n:Int"], currentDirectory: folder).exitCode == 0)
        let migrated = ScaffoldRepo.run(item + ["n:Double", "--migrate"], currentDirectory: folder)
        #expect(migrated.exitCode == 0, "\(migrated.standardError)")
        #expect(ScaffoldRepo.run(["regen"], currentDirectory: folder).exitCode == 0)
        try write("Sources/App/Util.swift", "internal import Foundation\n")

        let note = generate("Note")

        #expect(
            note.standardError.contains(
                "warning: Sources/App/ItemMigration1.swift is yours (written once) and imports at "
                    + "another access level"))
        #expect(
            note.standardOutput.contains(
                "make the imports of Sources/App/ItemMigration1.swift as the target's files' are"))
        // Its other files are regen's to fit.
        #expect(note.standardError.contains("the files generated for Item in App do not fit"))
        // regen fits Item's other files, not its migration, and says so.
        let regen = ScaffoldRepo.run(["regen"], currentDirectory: folder)
        #expect(regen.exitCode == 0)
        #expect(
            regen.standardError.contains(
                "warning: Sources/App/ItemMigration1.swift is yours (written once)"))
        // Generating Item itself again names its migration too.
        let again = ScaffoldRepo.run(item + ["n:Double", "m:Int?"], currentDirectory: folder)
        #expect(
            again.standardError.contains(
                "warning: Sources/App/ItemMigration1.swift is yours (written once)"))
    }

    /// A model's own file and another model's shared engine file whose paths differ only in
    /// letter case are one file on macOS's disk: refused, whichever model came first.
    @Test(arguments: [true, false])
    func aModelsFileAndASharedFileInAnotherLetterCaseAreRefused(sharedFirst: Bool) throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        let journal = ["--into", ".", "--target", "App"]
        let model = ["Journalstore", "id:Int", "--storage", "sqlite"] + journal
        let other = ["Other", "id:Int"] + journal
        let first = ScaffoldRepo.run(sharedFirst ? other : model, currentDirectory: folder)
        #expect(first.exitCode == 0, "\(first.standardError)")
        let before = try TestPaths.files(below: folder)

        let second = ScaffoldRepo.run(sharedFirst ? model : other, currentDirectory: folder)

        #expect(second.exitCode == 2)
        #expect(
            second.standardError.contains("are one file on a disk that ignores letter case"),
            "\(second.standardError)")
        #expect(second.standardError.contains("Sources/App/JournalStore.swift"))
        #expect(try TestPaths.files(below: folder) == before)
    }

    @Test func aModelWhoseFileIsAnotherModelsFileIsRefusedEvenWithForce() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(generate("Note").exitCode == 0)
        let repository = try String(
            contentsOf: folder.appendingPathComponent("Sources/App/NoteRepository.swift"),
            encoding: .utf8)

        try expectRefused(
            "NoteRepository",
            "Sources/App/NoteRepository.swift is a file that scaffold-repo generated for the "
                + "model Note already: give this model another name")
        let forced = ScaffoldRepo.run(
            ["NoteRepository", "id:UUID", "--into", ".", "--target", "App", "--force"],
            currentDirectory: folder)
        #expect(forced.exitCode == 2)
        #expect(
            try String(
                contentsOf: folder.appendingPathComponent("Sources/App/NoteRepository.swift"),
                encoding: .utf8) == repository)
    }

    /// On a case-insensitive disk (macOS's default) `Noterepository.swift` is Note's
    /// `NoteRepository.swift`: refused here too, where the disk tells them apart.
    @Test func aModelWhoseFileDiffersFromAnotherModelsOnlyInLetterCaseIsRefused() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(generate("Note").exitCode == 0)

        try expectRefused(
            "Noterepository",
            "Sources/App/Noterepository.swift is a file that scaffold-repo generated for the "
                + "model Note already")
    }

    @Test func aModelWhoseFileIsAnEngineFileInAnotherLetterCaseIsRefused() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        try expectRefused(
            "Storefiles",
            "Sources/App/Storefiles.swift and the generated Sources/App/StoreFiles.swift are one "
                + "file on a disk that ignores letter case (macOS's default): give the model "
                + "another name")
    }

    @Test func aFileOfTheTargetNamedLikeAGeneratedOneInAnotherLetterCaseIsRefused() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        try write("Sources/App/Models/note.swift", "struct Row {}\n")

        try expectRefused(
            "Note",
            "Sources/App/Models/note.swift has the name of the generated Sources/App/Note.swift")
    }

    /// Another model's file, once edited, is the person's code: a type added to it that a
    /// shared file new to the target declares is a clash (not skipped as generated code).
    @Test func anEditedFileOfAnotherModelIsReadAsThePersons() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(generate("Folder").exitCode == 0)
        let file = folder.appendingPathComponent("Sources/App/FolderRepository+API.swift")
        let text = try String(contentsOf: file, encoding: .utf8)
        try Data((text + "\npublic enum DeleteRule { case keep }\n").utf8).write(to: file)
        let before = try TestPaths.files(below: folder)

        let result = ScaffoldRepo.run(
            [
                "Widget", "id:UUID", "title", "--storage", "sqlite", "--into", ".", "--target",
                "App",
            ],
            currentDirectory: folder)

        #expect(result.exitCode == 2)
        #expect(
            result.standardError.contains("declares enum DeleteRule, and so does the generated"))
        #expect(result.standardError.contains("Rename yours"))
        #expect(try TestPaths.files(below: folder) == before)
    }

    @Test func aFileWithWindowsLineEndingsIsReadLineByLine() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        try write("Sources/App/Models.swift", "// Ours.\r\npublic struct Note {}\r\n")

        try expectRefused("Note", "Sources/App/Models.swift:2 declares struct Note")
    }

    /// Templates that give every model's file the same `private` helper type: each file sees
    /// only its own, so the models are no clash, and regen goes on working.
    @Test func aPrivateTypeInEveryModelsFileIsNoClash() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(
            ScaffoldRepo.run(["templates", "eject", "."], currentDirectory: folder).exitCode == 0)
        let template = folder.appendingPathComponent(".scaffold/templates/Model.swift.tmpl")
        let text = try String(contentsOf: template, encoding: .utf8)
        try Data((text + "\nprivate enum Helper {}\n").utf8).write(to: template)

        #expect(generate("Note").exitCode == 0)
        let item = generate("Item")
        #expect(item.exitCode == 0, "\(item.standardError)")
        let regen = ScaffoldRepo.run(["regen", "."], currentDirectory: folder)
        #expect(regen.exitCode == 0, "\(regen.standardError)")
    }

    @Test func onlyTopLevelTypesOutsideCommentsAndStringsAreDeclarations() {
        let text = #"""
            import Foundation
            // struct Commented {}
            /* enum Blocked {
               } */
            let text = "struct Quoted {"
            let more = """
                class InString {}
                """
            @MainActor public final class Shown {
                struct Nested {}
            }
            #if DEBUG
                nonisolated enum Conditional: String { case a }
            #endif
            typealias Alias = Int
            extension Shown {}
            struct Other {}; public struct Item {}
            let Fish = 3
            func Make() {}
            distributed actor `Remote` {}
            public final
            class
              Split {}
            """#

        #expect(
            ClashCheck.declarations(in: text).map { "\($0.kind) \($0.name) \($0.line)" } == [
                "let text 5", "let more 6", "class Shown 9", "enum Conditional 13",
                "typealias Alias 15", "struct Other 17", "struct Item 17", "let Fish 18",
                "func Make 19", "actor Remote 20", "class Split 21",
            ])
    }

    /// Each printed "Next: swift test" on a target that did not build: a second declaration
    /// on a line, a top-level constant, a name in backticks.
    @Test(arguments: [
        (
            "struct Other {}; public struct Note { var a = 0 }",
            "Sources/App/Mine.swift:1 declares struct Note"
        ),
        ("let Note = 3", "Sources/App/Mine.swift:1 declares let Note"),
        ("public func Note() -> Int { 1 }", "Sources/App/Mine.swift:1 declares func Note"),
        ("let URL = 5", "Sources/App/Mine.swift:1 declares let URL, which hides the URL"),
        ("class `Note` {}", "Sources/App/Mine.swift:1 declares class Note"),
        ("struct\nNote {}", "Sources/App/Mine.swift:1 declares struct Note"),
        ("enum\n  Note {}", "Sources/App/Mine.swift:1 declares enum Note"),
        ("let x = 1; typealias\nNote = Int", "Sources/App/Mine.swift:1 declares typealias Note"),
        // The view-model is `@MainActor`, which a type of that name breaks.
        ("struct MainActor {}", "Sources/App/Mine.swift:1 declares struct MainActor, which hides"),
    ])
    func aTopLevelNameOfTheModelInAnyFormIsAClash(code: String, message: String) throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        try write("Sources/App/Mine.swift", code + "\n")

        try expectRefused("Note", message)
    }

    /// The engine names `Swift.Duration` and `Swift.ContinuousClock` (a workout app's own
    /// `Duration` broke `Duration.seconds(5)`; found by a trial): no clash.
    @Test func aTypeNamedDurationIsNoClash() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        try write("Sources/App/Mine.swift", "struct Duration { var minutes = 0 }\n")

        #expect(generate("Note").exitCode == 0)
        let engine = try #require(
            TestPaths.text(folder.appendingPathComponent("Sources/App/StoreFiles.swift")))
        #expect(!engine.contains(" Duration.") && !engine.contains(" ContinuousClock."))
    }

    /// A function named like a type the generated code uses is an overload beside its
    /// initializers, which the generated code still finds: no clash.
    @Test func aFunctionNamedLikeASystemTypeIsNoClash() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        try write(
            "Sources/App/Mine.swift",
            "import Foundation\nfunc URL(_ s: String) -> URL { Foundation.URL(fileURLWithPath: s) }\n"
        )

        #expect(generate("Note").exitCode == 0)
    }

    /// Code lines are read byte by byte: comments (nested ones too) and the contents of strings
    /// are gone, a line keeps its number, and `\r\n` ends one line.
    @Test func codeLinesKeepCodeAndLineNumbersOnly() {
        let text =
            "let a = \"x // \\\" y\" // note\r\n/* outer /* inner */ still */ struct B {}\n"
            + "let c = \"\"\"\nstruct InString {}\n\"\"\" + d\nCafé é"

        #expect(
            ClashCheck.codeLines(text) == [
                #"let a = "" "#, " struct B {}", "let c = ", "", " + d", "Café é",
            ])
    }
}
