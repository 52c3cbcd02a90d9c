import Foundation
import Testing

@testable import ScaffoldRepoCore

/// Running again and again: the manifest, --dry-run, --check, --json, regen, destroy, and
/// template overrides, against temporary folders.
@Suite struct RegenerationTests {
    private let question = ["Question", "id:String", "text:String"]

    private func run(_ arguments: [String], in folder: URL) -> RunResult {
        ScaffoldRepo.run(arguments, currentDirectory: folder)
    }

    private func text(_ folder: URL, _ path: String) -> String? {
        TestPaths.text(folder.appendingPathComponent(path))
    }

    /// Makes the generated `path` look like the output of older templates: new bytes, and the
    /// manifest's hash for it changed to match.
    private func makeStale(_ path: String, package: URL) throws {
        let stale = "// written by older templates\n"
        try Data(stale.utf8).write(to: package.appendingPathComponent(path))
        var manifest = try #require(try Manifest.load(root: package))
        for index in manifest.models.indices where manifest.models[index].files[path] != nil {
            manifest.models[index].files[path] = ContentHash.of(stale)
        }
        try Data(try manifest.file().contents.utf8).write(
            to: package.appendingPathComponent(Manifest.path))
    }

    @Test func theManifestRecordsTheNormalizedModelAndHashesWithoutPaths() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }

        _ = run(
            [
                "question", "id:string", "text", "level:enum(low,high)=low", "--plural", "quizzes",
                "--output", "\(folder.path)/Out",
            ],
            in: folder)

        let manifest = try #require(text(folder, "Out/.scaffold/manifest.json"))
        #expect(!manifest.contains(folder.path))
        #expect(!manifest.contains("--"), "options are recorded as values, not as a command line")
        let decoded = try #require(try Manifest.load(root: folder.appendingPathComponent("Out")))
        #expect(decoded.manifestVersion == 2)
        let model = try #require(decoded.models.first)
        #expect(
            model.fields == [
                .init(name: "id", type: "String"), .init(name: "text", type: "String"),
                .init(name: "level", type: "enum(low,high)", default: "low"),
            ])
        #expect(model.storage == .journal)
        #expect(model.plural == "quizzes")
        #expect(model.annotate == nil)
        #expect(
            decoded.models[0].files["Sources/QuestionStore/Question.swift"]
                == ContentHash.of(text(folder, "Out/Sources/QuestionStore/Question.swift") ?? ""))
    }

    /// A manifest that version 1 wrote (each model's command line) still loads: regen upgrades
    /// it to records and changes nothing else. The fixture is that manifest alone: regen first
    /// writes the package it records, then is given the version 1 manifest again over it.
    @Test func aVersion1ManifestLoadsAndRegenUpgradesOnlyTheManifest() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let package = folder.appendingPathComponent("Recipes")
        let manifestURL = package.appendingPathComponent(Manifest.path)
        let v1 = TestPaths.repositoryRoot.appendingPathComponent(
            "Tests/Fixtures/ModelChange-manifest-v1.json")
        let v1Text = try #require(TestPaths.text(v1))
        #expect(v1Text.contains(#""manifestVersion" : 1"#))
        try FileManager.default.createDirectory(
            at: manifestURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(v1Text.utf8).write(to: manifestURL)
        #expect(run(["regen", "Recipes"], in: folder).exitCode == 0)
        let upgraded = try #require(text(package, Manifest.path))
        try Data(v1Text.utf8).write(to: manifestURL)

        let check = run(["regen", "Recipes", "--check"], in: folder)

        let differing = check.standardOutput.split(separator: "\n").filter {
            !$0.hasPrefix("identical") && !$0.hasPrefix("owned") && !$0.hasPrefix(" ")
                && !$0.hasPrefix("-") && !$0.hasPrefix("+") && !$0.hasPrefix("@")
        }
        #expect(differing == ["update    Recipes/.scaffold/manifest.json"])
        #expect(check.standardError.contains("is in the format of an earlier scaffold-repo"))
        #expect(run(["regen", "Recipes"], in: folder).exitCode == 0)
        #expect(text(package, Manifest.path) == upgraded)
        // What the command line said, as records: the rename, the options, the versions.
        let model = try #require(try Manifest.load(root: package)?.models.first)
        #expect(
            model.fields == [
                .init(name: "id", type: "UUID"),
                .init(name: "name", type: "String", formerName: "title"),
                .init(name: "servings", type: "Int"), .init(name: "minutes", type: "Int"),
                .init(name: "level", type: "enum(easy,hard)", default: "easy"),
            ])
        #expect(model.storage == .journal)
        #expect(model.annotate == true)
        #expect(model.schemaVersion == 3)
        #expect(
            model.previousVersions?.map { $0.fields.map(\.name) } == [
                ["id", "title", "servings", "level"], ["id", "title", "servings", "level"],
            ])
        #expect(model.previousVersions?.first?.fields[2].type == "Int?")
        #expect(model.plural == nil && model.target == nil)
        // The hashes are of the files on disk: the ones regen wrote and found identical.
        for (path, hash) in model.files {
            #expect(text(package, path).map(ContentHash.of) == hash, "\(path)")
        }
        #expect(model.files["Sources/RecipeStore/RecipeMigration2.swift"] != nil)
    }

    /// A record that an earlier release wrote with an `Int` default beyond 32 bits (which the
    /// command line now refuses) still regenerates, and the model can be generated again with
    /// the field made `Int64`.
    @Test func aRecordedDefaultThatACommandLineNowRefusesStillRegenerates() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Q", "id:Int", "big:Int64=3000000000"], in: folder).exitCode == 0)
        let url = folder.appendingPathComponent("QStore/\(Manifest.path)")
        let text = try #require(TestPaths.text(url))
        let earlier = TestPaths.withoutChecksums(text).replacingOccurrences(
            of: #""type" : "Int64""#, with: #""type" : "Int""#)
        #expect(earlier != text)
        try Data(earlier.utf8).write(to: url)

        let regen = run(["regen", "QStore", "--force"], in: folder)
        let again = run(
            ["Q", "id:Int", "big:Int64=3000000000", "--output", "QStore", "--migrate"], in: folder)

        #expect(regen.exitCode == 0, "\(regen.standardError)")
        #expect(again.exitCode == 0, "\(again.standardError)")
        let model = try #require(
            try Manifest.load(
                root: url.deletingLastPathComponent()
                    .deletingLastPathComponent())?.models.first)
        #expect(model.fields.last == .init(name: "big", type: "Int64", default: "3000000000"))
        #expect(model.previousVersions?.first?.fields.last?.type == "Int")
    }

    /// A version-1 manifest's recorded command line is read as it was written then: a default
    /// beyond 32 bits still loads, where a command line's is refused.
    @Test func aVersion1CommandLineWithAWideIntDefaultStillLoads() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent(".scaffold"), withIntermediateDirectories: true)
        try Data(
            #"{"manifestVersion":1,"models":[{"name":"Q","arguments":["Q","id:Int","n:Int=3000000000"],"files":{}}]}"#
                .utf8
        ).write(to: folder.appendingPathComponent(Manifest.path))

        let result = run(["regen"], in: folder)

        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(text(folder, "Sources/QStore/Q.swift")?.contains("3000000000") == true)
    }

    /// A former name in the manifest is checked as `--rename` checks one: a hand edit that is
    /// not a field name is refused, not written into a CodingKey that does not compile.
    @Test func aManifestsFormerNameThatIsNoFieldNameIsRefused() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = run(["Q", "id:Int", "title"], in: folder)
        let url = folder.appendingPathComponent("QStore/\(Manifest.path)")
        let text = try #require(TestPaths.text(url))
        let edited = text.replacingOccurrences(
            of: #""name" : "title","#, with: #""formerName" : "old name", "name" : "title","#)
        #expect(edited != text)
        try Data(edited.utf8).write(to: url)

        let result = run(["regen", "QStore"], in: folder)

        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("'old name=title' is not OLD=NEW"))
    }

    @Test func dryRunPrintsThePlanWithDiffsAndWritesNothing() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }

        let result = run(question + ["--dry-run"], in: folder)

        #expect(result.exitCode == 0)
        #expect(result.standardOutput.contains("create    QuestionStore/Package.swift\n"))
        #expect(
            result.standardOutput.contains("--- /dev/null\n+++ b/QuestionStore/Package.swift\n"))
        #expect(try TestPaths.files(below: folder).isEmpty)
    }

    @Test func checkIsCleanWhenUpToDateAndFailsWithADiffWhenNot() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = run(question, in: folder)

        let clean = run(question + ["--check"], in: folder)
        #expect(clean.exitCode == 0)
        #expect(clean.standardError == "")

        let model = "QuestionStore/Sources/QuestionStore/Question.swift"
        try Data("// mine\n".utf8).write(to: folder.appendingPathComponent(model))
        let dirty = run(question + ["--check"], in: folder)
        #expect(dirty.exitCode == 1)
        #expect(dirty.standardOutput.contains("modified  \(model)\n"))
        #expect(dirty.standardOutput.contains("-// mine\n"))
        #expect(dirty.standardError.contains("1 edited or unknown"))
        // The error says what to do about it (found by a trial: it named no fix).
        #expect(
            dirty.standardError.contains(
                "To fix: keep an edited file as yours with 'scaffold-repo own PATH', move the "
                    + "edit into a template (templates eject), or overwrite it with --force "
                    + "(modified)."))
        #expect(text(folder, model) == "// mine\n")
        try FileManager.default.removeItem(at: folder.appendingPathComponent(model))
        #expect(
            run(question + ["--check"], in: folder).standardError.contains(
                "To fix: run it without --check and commit what it writes (update, create)."))
    }

    /// A file that scaffold-repo did not write, where it would write one, is moved away or
    /// overwritten: `own` takes only files it wrote, so the fix does not name it (found by a
    /// review); the templates' own check names what an edited override is.
    @Test func checkNamesTheFixForAFileItDidNotWriteAndForATemplate() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = run(question, in: folder)
        let mine = folder.appendingPathComponent("QuestionStore/Sources/QuestionStore/Tag.swift")
        try Data("// mine\n".utf8).write(to: mine)

        let tag = run(
            ["Tag", "id:Int", "--into", "QuestionStore", "--target", "QuestionStore", "--check"],
            in: folder)

        #expect(tag.exitCode == 1)
        #expect(
            tag.standardError.contains(
                "To fix: move a file that scaffold-repo did not write out of the way, or "
                    + "overwrite it with --force (conflict); run it without --check"))
        #expect(!tag.standardError.contains("own PATH"))
        _ = run(["templates", "eject", "QuestionStore"], in: folder)
        let template = folder.appendingPathComponent(
            "QuestionStore/.scaffold/templates/Model.swift.tmpl")
        let edited = try #require(TestPaths.text(template)) + "// mine\n"
        try Data(edited.utf8).write(to: template)
        #expect(
            run(["templates", "eject", "QuestionStore", "--check"], in: folder).standardError
                .contains("To fix: an edited template is your override"))
    }

    @Test func jsonGivesFilesStatusesAndDiffs() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }

        let result = run(question + ["--dry-run", "--json"], in: folder)

        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
                as? [String: Any])
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(object["exitCode"] as? Int == 0)
        #expect(files.count == 15)
        #expect(files.allSatisfy { $0["status"] as? String == "create" && $0["diff"] is String })
        #expect(try TestPaths.files(below: folder).isEmpty)
    }

    @Test func generatingAgainWithAnotherSpecUpdatesUneditedFilesWithoutForce() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = run(question, in: folder)

        let result = run(question + ["note:String?"], in: folder)

        #expect(result.exitCode == 0)
        #expect(
            result.standardOutput.contains(
                "update    QuestionStore/Sources/QuestionStore/Question.swift\n"))
        #expect(
            text(folder, "QuestionStore/Sources/QuestionStore/Question.swift")?.contains("note")
                == true)
    }

    @Test func regenUpdatesStaleFilesAndKeepsEditedOnes() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = run(question, in: folder)
        let package = folder.appendingPathComponent("QuestionStore")
        let repository = "Sources/QuestionStore/QuestionRepository.swift"
        let model = "Sources/QuestionStore/Question.swift"
        try makeStale(repository, package: package)
        try Data("// edited by hand\n".utf8).write(to: package.appendingPathComponent(model))

        let result = run(["regen", "QuestionStore"], in: folder)

        #expect(result.exitCode == 0)
        #expect(result.standardOutput.contains("update    QuestionStore/\(repository)\n"))
        #expect(result.standardOutput.contains("modified  QuestionStore/\(model)\n"))
        #expect(result.standardError.contains("1 edited file(s) kept"))
        #expect(text(package, repository)?.contains("public actor QuestionRepository") == true)
        #expect(text(package, model) == "// edited by hand\n")
        // Still known as edited on the next run, and --force overwrites it.
        #expect(
            run(["regen", "QuestionStore"], in: folder).standardOutput.contains(
                "modified  QuestionStore/\(model)\n"))
        let forced = run(["regen", "QuestionStore", "--force"], in: folder)
        #expect(forced.standardOutput.contains("force     QuestionStore/\(model)\n"))
        #expect(text(package, model)?.contains("public nonisolated struct Question") == true)
    }

    @Test func regenCheckTellsEditedFilesFromStaleOnesAndWritesNothing() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = run(question, in: folder)
        let package = folder.appendingPathComponent("QuestionStore")
        try makeStale("Sources/QuestionStore/QuestionRepository.swift", package: package)
        try Data("// edited\n".utf8).write(
            to: package.appendingPathComponent("Sources/QuestionStore/Question.swift"))

        let result = run(["regen", "QuestionStore", "--check"], in: folder)

        #expect(result.exitCode == 1)
        #expect(
            result.standardOutput.contains(
                "update    QuestionStore/Sources/QuestionStore/QuestionRepository.swift\n"))
        #expect(
            result.standardOutput.contains(
                "modified  QuestionStore/Sources/QuestionStore/Question.swift\n"))
        #expect(result.standardError.contains("2 to create or update, 1 edited or unknown"))
        #expect(
            text(package, "Sources/QuestionStore/QuestionRepository.swift")
                == "// written by older templates\n")
    }

    /// A package with the targets Old and New, for a model to move between them.
    private func makePackageWithTargetsOldAndNew(in folder: URL) throws {
        for target in ["Old", "New"] {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("Sources/\(target)"),
                withIntermediateDirectories: true)
        }
        try Data("// App\n".utf8).write(to: folder.appendingPathComponent("Package.swift"))
    }

    @Test func aFileNoLongerGeneratedIsReportedAndStaysRecorded() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try makePackageWithTargetsOldAndNew(in: folder)
        _ = run(["Item", "id:Int", "--into", ".", "--target", "Old"], in: folder)
        let second = run(["Item", "id:Int", "--into", ".", "--target", "New"], in: folder)
        // A second Item beside the first is refused: the manifest keeps one model of a name.
        #expect(second.exitCode == 2)
        #expect(
            second.standardError.contains(
                "Item is generated in Old already (Sources/Old/Item.swift): a package keeps one "
                    + "model of a name"))
        #expect(
            !FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("Sources/New/Item.swift").path))
        // Once the type's file is gone, the model moves.
        try FileManager.default.removeItem(
            at: folder.appendingPathComponent("Sources/Old/Item.swift"))

        let moved = run(["Item", "id:Int", "--into", ".", "--target", "New"], in: folder)

        #expect(moved.exitCode == 0)
        #expect(
            moved.standardError.contains(
                "warning: Sources/Old/ItemRepository.swift was generated for Item before but is "
                    + "not any more"))
        #expect(
            try Manifest.load(root: folder)?.model(named: "Item")?.files[
                "Sources/Old/ItemRepository.swift"] != nil)
        #expect(
            run(["destroy", "Item"], in: folder).standardOutput.contains(
                "delete    Sources/Old/ItemRepository.swift\n"))
    }

    /// A sqlite model's values are in its module's database: it never moves to another target.
    @Test func aSQLiteModelStaysInItsTarget() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try makePackageWithTargetsOldAndNew(in: folder)
        _ = run(
            ["Item", "id:Int", "--storage", "sqlite", "--into", ".", "--target", "Old"], in: folder)
        try FileManager.default.removeItem(
            at: folder.appendingPathComponent("Sources/Old/Item.swift"))

        let moved = run(["Item", "id:Int", "--into", ".", "--target", "New"], in: folder)

        #expect(moved.exitCode == 2)
        #expect(
            moved.standardError.contains(
                "Item is a sqlite model of Old, whose values are in Old.sqlite"))
        #expect(
            !FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("Sources/New/Item.swift").path))
        // Destroyed (keeping an edited file, so that the record stays), it is a new model
        // wherever it is generated again: another id type is no change to stored values.
        let api = folder.appendingPathComponent("Sources/Old/ItemRepository+API.swift")
        try Data("// mine\n".utf8).write(to: api)
        #expect(run(["destroy", "Item", "."], in: folder).exitCode == 0)
        #expect(try Manifest.load(root: folder)?.model(named: "Item")?.destroyed == true)
        let again = run(["Item", "id:UUID", "--into", ".", "--target", "New"], in: folder)
        #expect(again.exitCode == 0, "\(again.standardError)")
        #expect(
            again.standardError.contains(
                "Item was destroyed in Old; the files it kept there are yours now, and no longer "
                    + "recorded: Sources/Old/ItemRepository+API.swift"))
        #expect(try Manifest.load(root: folder)?.model(named: "Item")?.target == "New")
    }

    @Test func regenWithoutAManifestIsBadInput() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }

        let result = run(["regen"], in: folder)

        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("has no .scaffold/manifest.json"))
    }

    @Test(arguments: [
        (#"{"manifestVersion":99,"models":[]}"#, "written by a newer scaffold-repo"),
        (#"{"manifestVersion":1,"models":[]}"#, "records no models"),
        (#"{"manifestVersion":2,"models":[]}"#, "records no models"),
        (
            #"{"manifestVersion":1,"models":[{"name":"Q","arguments":["Q","id:Nope"],"files":{}}]}"#,
            "the command line that .scaffold/manifest.json records for Q does not parse"
        ),
        (
            #"{"manifestVersion":2,"models":[{"name":"Q","fields":[{"name":"id","type":"Nope"}],"storage":"journal","files":{}}]}"#,
            "the record of Q in .scaffold/manifest.json cannot be used"
        ),
        ("not json", "is not a scaffold-repo manifest"),
        (
            #"{"manifestVersion":2,"models":[{"name":"Q","fields":[],"storage":"disk","files":{}}]}"#,
            "is not a scaffold-repo manifest (models[0].storage: storage 'disk' is not one of "
                + "journal, snapshot, sqlite); correct that, restore the file from version control"
        ),
        (
            #"{"manifestVersion":2,"models":[{"name":"Q","fields":[],"files":{}}]}"#,
            "(models[0].storage is missing)"
        ),
    ])
    func aManifestThatCannotBeUsedIsBadInput(manifest: String, message: String) throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent(".scaffold"), withIntermediateDirectories: true)
        try Data(manifest.utf8).write(to: folder.appendingPathComponent(Manifest.path))

        let result = run(["regen"], in: folder)

        #expect(result.exitCode == 2)
        #expect(result.standardError.contains(message))
    }

    /// A record changed by hand (a new plural, a field removed, another type) would reach the
    /// code without the command line's checks, and stored values would be left under the
    /// former name or stop decoding: regen and generate refuse it, naming the way out; without
    /// its checksum (an earlier release's record, or an edit a person keeps) it is used as it is.
    @Test(arguments: [
        (#""plural" : "memos""#, #""plural" : "jottings""#),
        (#""type" : "String""#, #""type" : "Int""#),
        (#""storage" : "journal""#, #""storage" : "snapshot""#),
    ])
    func aRecordEditedByHandIsRefused(recorded: String, edited: String) throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Note", "id:UUID", "title", "--plural", "memos"], in: folder).exitCode == 0)
        let url = folder.appendingPathComponent("NoteStore/\(Manifest.path)")
        let text = try #require(TestPaths.text(url))
        #expect(text.contains(recorded))
        try Data(text.replacingOccurrences(of: recorded, with: edited).utf8).write(to: url)
        let before = try TestPaths.files(below: folder)

        for command in [
            ["regen", "NoteStore"], ["Note", "id:UUID", "title", "--output", "NoteStore"],
        ] {
            let result = run(command, in: folder)
            #expect(result.exitCode == 2)
            #expect(
                result.standardError.contains(
                    "the record of Note in .scaffold/manifest.json was changed by hand since "
                        + "scaffold-repo wrote it"))
        }
        #expect(try TestPaths.files(below: folder) == before)
        try Data(
            TestPaths.withoutChecksums(text.replacingOccurrences(of: recorded, with: edited)).utf8
        ).write(to: url)
        #expect(run(["regen", "NoteStore"], in: folder).exitCode == 0)
        #expect(try #require(TestPaths.text(url)).contains(#""checksum" : "#))
    }

    /// A manifest copied from elsewhere or made by hand cannot make `destroy` delete, or `regen`
    /// write, a file outside the package: its hash matching is not enough.
    @Test(arguments: ["../outside.txt", "/tmp/outside.txt", "Sources/./x.swift", "a//b.swift"])
    func aRecordedPathOutsideThePackageIsRefused(path: String) throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let outside = folder.appendingPathComponent("outside.txt")
        try Data("a person's file\n".utf8).write(to: outside)
        #expect(run(["Note", "id:UUID"], in: folder).exitCode == 0)
        let manifestURL = folder.appendingPathComponent("NoteStore/\(Manifest.path)")
        var manifest = try #require(
            try Manifest.load(root: folder.appendingPathComponent("NoteStore")))
        manifest.models[0].files[path] = ContentHash.of("a person's file\n")
        try Data(try manifest.file().contents.utf8).write(to: manifestURL)

        for command in [["destroy", "Note", "NoteStore"], ["regen", "NoteStore"]] {
            let result = run(command, in: folder)
            #expect(result.exitCode == 2)
            #expect(
                result.standardError.contains(
                    "records '\(path)' for Note, which is not a path inside the package"))
        }
        #expect(TestPaths.text(outside) == "a person's file\n")
        #expect(
            FileManager.default.fileExists(
                atPath: folder.appendingPathComponent(
                    "NoteStore/Sources/NoteStore/Note.swift"
                ).path))
    }

    @Test func destroyRemovesUneditedFilesKeepsEditedOnesAndUpdatesTheManifest() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
        try Data("// App\n".utf8).write(to: folder.appendingPathComponent("Package.swift"))
        _ = run(["Item", "id:Int", "--into", ".", "--target", "App"], in: folder)
        _ = run(["Tag", "id:String", "--into", ".", "--target", "App"], in: folder)
        try Data("// mine\n".utf8).write(
            to: folder.appendingPathComponent("Sources/App/Item.swift"))

        let result = run(["destroy", "item"], in: folder)

        #expect(result.exitCode == 0)
        #expect(result.standardOutput.contains("delete    Sources/App/ItemRepository.swift\n"))
        #expect(result.standardOutput.contains("modified  Sources/App/Item.swift (kept"))
        #expect(result.standardOutput.contains("update    .scaffold/manifest.json\n"))
        #expect(
            try TestPaths.files(below: folder.appendingPathComponent("Sources/App")) == [
                "Item.swift", "JournalStore.swift", "LiveList.swift", "StoreFiles.swift",
                "StoredValues.swift", "Tag.swift", "TagListViewModel.swift",
                "TagRepository+API.swift", "TagRepository.swift",
            ])
        // The edited file stays recorded, so destroy --force can still remove it.
        #expect(try Manifest.load(root: folder)?.models.map(\.name) == ["Item", "Tag"])
        let forced = run(["destroy", "Item", "--force"], in: folder)
        #expect(
            forced.standardOutput.contains(
                "delete    Sources/App/Item.swift (edited since it was generated)\n"))
        #expect(try Manifest.load(root: folder)?.models.map(\.name) == ["Tag"])
    }

    @Test func modelsInOneTargetShareOneStoreFilesUntilTheLastIsDestroyed() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
        try Data("// App\n".utf8).write(to: folder.appendingPathComponent("Package.swift"))
        let shared = "Sources/App/StoreFiles.swift"
        let first = run(["Item", "id:Int", "--into", ".", "--target", "App"], in: folder)
        #expect(first.standardOutput.contains("create    \(shared)\n"))

        // The second model finds the file the first one wrote: known, not a stranger's file.
        let second = run(["Tag", "id:String", "--into", ".", "--target", "App"], in: folder)

        #expect(second.exitCode == 0, "\(second.standardError)")
        #expect(second.standardOutput.contains("identical \(shared)\n"))
        // The engine of a storage comes with the first model that uses it.
        #expect(second.standardOutput.contains("identical Sources/App/StoredValues.swift\n"))
        #expect(second.standardOutput.contains("identical Sources/App/JournalStore.swift\n"))
        let manifest = try #require(try Manifest.load(root: folder))
        #expect(manifest.models.map { $0.files[shared] != nil } == [true, true])
        // regen renders it for both models and plans it once.
        let regen = run(["regen", "--dry-run"], in: folder)
        #expect(regen.standardOutput.components(separatedBy: shared).count == 2)
        // An edit is seen as an edit, for either model.
        try Data("// mine\n".utf8).write(to: folder.appendingPathComponent(shared))
        #expect(
            run(["regen", "--check"], in: folder).standardOutput.contains("modified  \(shared)"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent(shared))
        #expect(run(["regen"], in: folder).exitCode == 0)

        let destroyItem = run(["destroy", "Item"], in: folder)
        #expect(
            destroyItem.standardOutput.contains("shared    \(shared) (kept: Tag uses it too)\n"))
        // The journal engine goes with the last journal model; Tag uses it too.
        #expect(
            destroyItem.standardOutput.contains(
                "shared    Sources/App/JournalStore.swift (kept: Tag uses it too)\n"))
        #expect(
            destroyItem.standardOutput.contains(
                "shared    Sources/App/StoredValues.swift (kept: Tag uses it too)\n"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(shared).path))
        let destroyTag = run(["destroy", "Tag"], in: folder)
        #expect(destroyTag.standardOutput.contains("delete    \(shared)\n"))
        #expect(try TestPaths.files(below: folder) == ["Package.swift"])
    }

    @Test func aModelNamedTaskMustBeTheOnlyOneInItsTarget() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
        try Data("// App\n".utf8).write(to: folder.appendingPathComponent("Package.swift"))
        #expect(
            run(["Tag", "id:String", "--into", ".", "--target", "App"], in: folder).exitCode == 0)
        let before = try TestPaths.files(below: folder)

        // Either order: Task after another model, or another model after Task.
        let task = run(["Task", "id:String", "--into", ".", "--target", "App"], in: folder)

        #expect(task.exitCode == 2)
        #expect(task.standardError.contains("'Task' hides Swift's Task in module App"))
        #expect(task.standardError.contains("Tag"))
        #expect(try TestPaths.files(below: folder) == before)
        // In a target of its own, it is fine.
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Sources/Jobs"), withIntermediateDirectories: true)
        let own = run(["Task", "id:String", "--into", ".", "--target", "Jobs"], in: folder)
        #expect(own.exitCode == 0, "\(own.standardError)")
        let alone = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(alone) }
        #expect(run(["Task", "id:String", "--output", "."], in: alone).exitCode == 0)
        let beside = run(["Note", "id:String", "--into", ".", "--target", "TaskStore"], in: alone)
        #expect(beside.exitCode == 2)
        #expect(beside.standardError.contains("which the code of Note uses"))
    }

    @Test func aSharedFileStaysWhileAKeptFileOfADestroyedModelNeedsIt() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
        try Data("// App\n".utf8).write(to: folder.appendingPathComponent("Package.swift"))
        _ = run(["Item", "id:Int", "--into", ".", "--target", "App"], in: folder)
        _ = run(["Tag", "id:String", "--into", ".", "--target", "App"], in: folder)
        let shared = "Sources/App/StoredValues.swift"
        try Data("// mine\n".utf8).write(
            to: folder.appendingPathComponent("Sources/App/Item.swift"))

        // Item goes first, keeping its edited file; Tag uses the shared file too.
        #expect(run(["destroy", "Item"], in: folder).exitCode == 0)
        let record = try #require(try Manifest.load(root: folder)?.model(named: "Item"))
        #expect(record.files[shared] != nil)

        // Tag goes next: the kept Item.swift still needs the shared file.
        let destroyTag = run(["destroy", "Tag"], in: folder)
        #expect(
            destroyTag.standardOutput.contains("shared    \(shared) (kept: Item uses it too)\n"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(shared).path))

        // Once the kept file goes too, so does the shared one.
        #expect(run(["destroy", "Item", "--force"], in: folder).exitCode == 0)
        #expect(try TestPaths.files(below: folder) == ["Package.swift"])
    }

    @Test func destroyReportsThroughThePlanDryRunAndJSON() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = run(question, in: folder)
        let model = "QuestionStore/Sources/QuestionStore/Question.swift"
        try Data("// mine\n".utf8).write(to: folder.appendingPathComponent(model))
        let before = try TestPaths.files(below: folder)

        let dryRun = run(["destroy", "Question", "QuestionStore", "--dry-run"], in: folder)

        #expect(dryRun.exitCode == 0)
        #expect(dryRun.standardOutput.contains("modified  \(model) (kept: edited since"))
        // A deleted file shows no diff (its whole text: a workshop's screens of it); one that
        // --force deletes although it was edited says so.
        #expect(!dryRun.standardOutput.contains("+++ /dev/null"))
        #expect(try TestPaths.files(below: folder) == before)
        let forced = run(
            ["destroy", "Question", "QuestionStore", "--dry-run", "--force"], in: folder)
        #expect(
            forced.standardOutput.contains("delete    \(model) (edited since it was generated)\n"))
        #expect(!forced.standardOutput.contains("+++ /dev/null"))

        let json = run(["destroy", "Question", "QuestionStore", "--dry-run", "--json"], in: folder)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8))
                as? [String: Any])
        let files = try #require(object["files"] as? [[String: Any]])
        let statuses = Dictionary(
            uniqueKeysWithValues: files.map { ($0["path"] as? String ?? "", $0) })
        #expect(statuses[model]?["status"] as? String == "modified")
        #expect(statuses[model]?["reason"] as? String == "kept: edited since it was generated")
        #expect(statuses["QuestionStore/.scaffold/manifest.json"]?["status"] as? String == "update")
        // Everything but the edited model file, the shared engine files beside it and the
        // package's Package.swift and .gitignore (the tests' shared SampleData.swift goes: no
        // kept file of the test target needs it).
        #expect(files.filter { $0["status"] as? String == "delete" }.count == 7)
        #expect(
            statuses["QuestionStore/Package.swift"]?["reason"] as? String
                == "kept: the package of the kept files of Question")
        #expect(
            statuses["QuestionStore/Tests/QuestionStoreTests/SampleData.swift"]?["status"]
                as? String == "delete")
        #expect(
            statuses["QuestionStore/Sources/QuestionStore/StoreFiles.swift"]?["status"] as? String
                == "shared")
        #expect(try TestPaths.files(below: folder) == before)
    }

    @Test func destroyThatCannotRemoveAFileRemovesNothing() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = run(question, in: folder)
        // The last file in the plan cannot be moved aside: a folder holds its staging name.
        let tests = folder.appendingPathComponent("QuestionStore/Tests/QuestionStoreTests")
        let blocker = tests.appendingPathComponent(
            ".QuestionTestSupport.swift.scaffold-repo-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: blocker.appendingPathComponent("x"))
        let before = try TestPaths.files(below: folder)
        let contents = try before.map { try Data(contentsOf: folder.appendingPathComponent($0)) }

        let result = run(["destroy", "Question", "QuestionStore"], in: folder)

        #expect(result.exitCode == 1)
        #expect(result.standardError.contains("Nothing was removed"))
        #expect(try TestPaths.files(below: folder) == before)
        #expect(
            try before.map { try Data(contentsOf: folder.appendingPathComponent($0)) } == contents)
    }

    @Test func regenSaysWhichDestroyedModelsItLeavesOutBesideTheOthers() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try TestPaths.makeAppPackage(in: folder)
        let into = ["--into", ".", "--target", "AppCore"]
        #expect(run(["Item", "id:Int", "name"] + into, in: folder).exitCode == 0)
        #expect(run(["Pen", "id:Int", "ink"] + into, in: folder).exitCode == 0)
        try Data("// mine\n".utf8).write(
            to: folder.appendingPathComponent("Sources/AppCore/Item.swift"))
        #expect(run(["destroy", "Item"], in: folder).exitCode == 0)

        let regen = run(["regen", "--check"], in: folder)

        #expect(regen.exitCode == 0, "\(regen.standardError)")
        #expect(
            regen.standardError.contains(
                "note: Item was destroyed and is left out; only files a person edited or owns are "
                    + "kept, and generating it again takes it back"))
        #expect(!regen.standardOutput.contains("Item.swift"))
        // A typo in the model's name is answered with the likely one.
        let typo = run(["destroy", "Pne"], in: folder)
        #expect(typo.exitCode == 2)
        #expect(
            typo.standardError.contains(
                "no model Pne in .scaffold/manifest.json; did you mean Pen? it records: Item, Pen"))
    }

    @Test func aDestroyedModelWithKeptFilesIsNotRegeneratedAndKeepsItsStoreFiles() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = run(question, in: folder)
        let repository = "QuestionStore/Sources/QuestionStore/QuestionRepository.swift"
        let shared = "QuestionStore/Sources/QuestionStore/StoreFiles.swift"
        try Data("// mine\n".utf8).write(to: folder.appendingPathComponent(repository))

        let destroy = run(["destroy", "Question", "QuestionStore"], in: folder)

        // The kept repository still uses the shared engine files, so they stay too.
        #expect(destroy.standardOutput.contains("modified  \(repository) (kept: edited"))
        #expect(destroy.standardOutput.contains("shared    \(shared) (kept: beside the kept files"))
        let record = try #require(
            try Manifest.load(root: folder.appendingPathComponent("QuestionStore"))?
                .model(named: "Question"))
        #expect(record.destroyed == true)
        #expect(
            Set(record.files.keys) == [
                ".gitignore", "Package.swift", "Sources/QuestionStore/QuestionRepository.swift",
                "Sources/QuestionStore/JournalStore.swift", "Sources/QuestionStore/LiveList.swift",
                "Sources/QuestionStore/StoreFiles.swift",
                "Sources/QuestionStore/StoredValues.swift",
            ])
        // regen does not bring the model back, and CI's --check passes.
        let check = run(["regen", "QuestionStore", "--check"], in: folder)
        #expect(check.exitCode == 0, "\(check.standardOutput)")
        #expect(
            check.standardError.contains(
                "nothing to regenerate: Question was destroyed, and only files a person edited or "
                    + "owns are kept; 'scaffold-repo destroy MODEL QuestionStore --force' "
                    + "(Question) removes the edited ones"))
        #expect(text(folder, "QuestionStore/Sources/QuestionStore/Question.swift") == nil)
        // Destroying again changes nothing in the manifest; --force removes the rest.
        let again = run(["destroy", "Question", "QuestionStore"], in: folder)
        #expect(again.standardOutput.contains("identical QuestionStore/.scaffold/manifest.json"))
        #expect(run(["destroy", "Question", "QuestionStore", "--force"], in: folder).exitCode == 0)
        #expect(try TestPaths.files(below: folder).isEmpty)
    }

    @Test func ownedSharedStoreFilesIsYoursForEveryModel() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
        try Data("// App\n".utf8).write(to: folder.appendingPathComponent("Package.swift"))
        _ = run(["Item", "id:Int", "--into", ".", "--target", "App"], in: folder)
        _ = run(["Tag", "id:Int", "--into", ".", "--target", "App"], in: folder)
        let shared = "Sources/App/StoreFiles.swift"
        try Data("// mine\n".utf8).write(to: folder.appendingPathComponent(shared))

        #expect(run(["own", shared], in: folder).exitCode == 0)
        let added = run(
            ["Tag", "id:Int", "note:String?", "--into", ".", "--target", "App"], in: folder)

        #expect(added.exitCode == 0, "\(added.standardOutput)\(added.standardError)")
        #expect(added.standardOutput.contains("owned     \(shared)"))
        #expect(text(folder, shared) == "// mine\n")
        // A model added after `own` records the file as the person's too.
        #expect(run(["Box", "id:Int", "--into", ".", "--target", "App"], in: folder).exitCode == 0)
        let models = try #require(try Manifest.load(root: folder)).models
        #expect(models.map(\.name) == ["Box", "Item", "Tag"])
        #expect(models.allSatisfy { $0.owned == [shared] })
    }

    @Test func aHandEditedRecordIsCheckedAsTheCommandLineWouldBe() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = run(question, in: folder)
        let url = folder.appendingPathComponent("QuestionStore/\(Manifest.path)")
        var manifest = try #require(
            try Manifest.load(root: url.deletingLastPathComponent().deletingLastPathComponent()))
        manifest.models[0].plural = "my-things"
        try Data(try manifest.file().contents.utf8).write(to: url)

        let result = run(["regen", "QuestionStore", "--check"], in: folder)

        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("the record of Question"))
        #expect(result.standardError.contains("my-things"))
    }

    @Test func destroyAfterIntoKeepsTheTargetsFolders() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
        try Data("// App\n".utf8).write(to: folder.appendingPathComponent("Package.swift"))
        _ = run(["Item", "id:Int", "--into", ".", "--target", "App"], in: folder)

        #expect(run(["destroy", "Item"], in: folder).exitCode == 0)

        #expect(try TestPaths.files(below: folder) == ["Package.swift"])
        for kept in ["Sources/App", "Tests/AppTests"] {
            #expect(
                FileManager.default.fileExists(atPath: folder.appendingPathComponent(kept).path))
        }
        #expect(
            !FileManager.default.fileExists(atPath: folder.appendingPathComponent(".scaffold").path)
        )
    }

    @Test func aDryRunShowsWhatABlockedRunWouldSkip() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = run(question, in: folder)
        try Data("// mine\n".utf8).write(
            to: folder.appendingPathComponent("QuestionStore/Sources/QuestionStore/Question.swift"))

        let result = run(question + ["note:String?", "--dry-run"], in: folder)

        #expect(result.exitCode == 0)
        #expect(
            result.standardOutput.contains(
                "modified  QuestionStore/Sources/QuestionStore/Question.swift\n"))
        #expect(
            result.standardOutput.contains(
                "skip      QuestionStore/Tests/QuestionStoreTests/QuestionTestSupport.swift\n"))
    }

    @Test func destroyingTheLastModelRemovesTheManifestAndEmptyFolders() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = run(question, in: folder)

        let result = run(["destroy", "Question", "QuestionStore"], in: folder)

        #expect(result.exitCode == 0)
        #expect(try TestPaths.files(below: folder).isEmpty)
        // The package folder that generating created goes too.
        #expect(
            !FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("QuestionStore").path))
    }

    @Test func ejectedTemplatesOverrideAndReportDrift() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = run(question, in: folder)
        let package = folder.appendingPathComponent("QuestionStore")

        let eject = run(["templates", "eject"], in: package)
        #expect(eject.exitCode == 0)
        #expect(eject.standardOutput.contains("create    .scaffold/templates/Model.swift.tmpl\n"))
        #expect(
            run(["templates", "list"], in: package).standardOutput.contains(
                "unedited  Model.swift.tmpl\n"))
        // Ejected and unchanged: regenerating changes nothing.
        #expect(run(["regen", "--check"], in: package).exitCode == 0)

        let template = package.appendingPathComponent(".scaffold/templates/Model.swift.tmpl")
        let ejected = try #require(TestPaths.text(template))
        try Data((ejected + "// Customized by the team.\n").utf8).write(to: template)
        #expect(
            run(["templates", "list"], in: package).standardOutput.contains(
                "edited    Model.swift.tmpl\n"))
        let regen = run(["regen"], in: package)
        #expect(regen.standardOutput.contains("update    Sources/QuestionStore/Question.swift\n"))
        #expect(
            text(package, "Sources/QuestionStore/Question.swift")?.hasSuffix(
                "// Customized by the team.\n") == true)

        // The built-in it came from has since changed: the header's hash no longer matches.
        let drifted = ejected.replacingOccurrences(
            of: #"fnv1a64 [0-9a-f]{16}"#, with: "fnv1a64 0000000000000000",
            options: .regularExpression)
        try Data(drifted.utf8).write(to: template)
        #expect(
            run(["templates", "list"], in: package).standardOutput.contains(
                "drifted   Model.swift.tmpl\n"))
        #expect(
            run(["regen"], in: package).standardError.contains(
                "warning: .scaffold/templates/Model.swift.tmpl was ejected from an older built-in "
                    + "Model.swift.tmpl"))
    }

    @Test func templatesListReadsAFolderOfTemplatesAsWellAsAPackage() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = run(["templates", "eject", "mine"], in: folder)
        try Data("// ours\n".utf8).write(
            to: folder.appendingPathComponent("mine/.scaffold/templates/Model.swift.tmpl"))

        let package = run(["templates", "list", "mine"], in: folder)
        let templates = run(["templates", "list", "mine/.scaffold/templates"], in: folder)

        #expect(package.standardOutput.contains("edited    Model.swift.tmpl\n"))
        #expect(templates.standardOutput == package.standardOutput)
    }

    @Test func ejectDoesNotOverwriteCustomizedTemplatesWithoutForce() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        _ = run(["templates", "eject", "mine"], in: folder)
        try Data("// ours\n".utf8).write(
            to: folder.appendingPathComponent("mine/.scaffold/templates/Model.swift.tmpl"))

        let again = run(["templates", "eject", "mine"], in: folder)

        #expect(again.exitCode == 1)
        #expect(
            again.standardOutput.contains("conflict  mine/.scaffold/templates/Model.swift.tmpl\n"))
        #expect(
            TestPaths.text(
                folder.appendingPathComponent("mine/.scaffold/templates/Model.swift.tmpl"))
                == "// ours\n")
    }

    /// Every package with a manifest under Examples/ (the README's first store and the
    /// workshop's steps) and under Tests/HostSettings/ (the host settings matrix), relative to
    /// the repository's root.
    static let examples: [String] =
        ["Examples", "Tests/HostSettings"].flatMap { parent in
            let folder = TestPaths.repositoryRoot.appendingPathComponent(parent)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.sorted().filter {
                FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent("\($0)/\(Manifest.path)").path)
            }
            .map { "\(parent)/\($0)" }
        }
        // Generated by several commands, so no golden's one `command` makes them.
        + ["Tests/Goldens/bench-sqlite/expected", "Tests/Goldens/related-models/expected"]

    @Test(arguments: examples)
    func theExamplesAreUpToDateByRegenCheck(example: String) throws {
        let folder = TestPaths.repositoryRoot.appendingPathComponent(example)

        let result = ScaffoldRepo.run(
            ["regen", folder.path, "--check"], currentDirectory: TestPaths.repositoryRoot)

        #expect(
            result.exitCode == 0,
            "\(example) is stale; run scaffold-repo regen \(example):\n\(result.standardOutput)\(result.standardError)"
        )
    }

    @Test func theWorkshopHasItsThreeSteps() {
        let steps = Self.examples.filter {
            $0.hasPrefix("Examples/") && $0.dropFirst("Examples/".count).first?.isNumber == true
        }
        #expect(steps.count >= 3)
    }
}
