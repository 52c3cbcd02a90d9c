import Foundation
import Testing

@testable import ScaffoldRepoCore

/// Generating a model again with changes, as Documentation/changing-a-model.md describes.
@Suite struct ChangingAModelTests {
    let folder: URL

    init() throws {
        folder = try TestPaths.makeTemporaryFolder()
    }

    func run(_ arguments: [String]) -> RunResult {
        ScaffoldRepo.run(arguments, currentDirectory: folder)
    }

    func text(_ path: String) -> String? {
        TestPaths.text(folder.appendingPathComponent(path))
    }

    /// A store's files and table are named by the model's plural: a run that leaves out
    /// `--plural` keeps the one given before, and another one is refused with nothing written.
    @Test func thePluralAModelWasGeneratedWithIsKeptAndAnotherIsRefused() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        let sheep = ["Sheep", "id:UUID", "name", "--storage", "sqlite"]
        #expect(run(sheep + ["--plural", "flock"]).exitCode == 0)
        let repository = "SheepStore/Sources/SheepStore/SheepRepository.swift"
        #expect(text(repository)?.contains("tableName = \"flock\"") == true)

        #expect(run(sheep + ["age:Int?"]).exitCode == 0)

        #expect(text(repository)?.contains("tableName = \"flock\"") == true)
        #expect(
            text("SheepStore/.scaffold/manifest.json")?.contains("\"plural\" : \"flock\"") == true)
        let before = try TestPaths.files(below: folder).map { ($0, text($0)) }
        let renamed = run(sheep + ["age:Int?", "--plural", "herd"])
        #expect(renamed.exitCode == 2)
        #expect(
            renamed.standardError.contains(
                "--plural herd: Sheep keeps its values under the name 'flock'"))
        #expect(renamed.standardError.contains("Leave out --plural, or give --plural flock"))
        #expect(
            try TestPaths.files(below: folder).map { ($0, text($0)) }.elementsEqual(before) {
                $0 == $1
            })
        #expect(run(sheep + ["age:Int?", "--plural", "flock"]).exitCode == 0)
    }

    /// A plural names the view-model's property and the journal's files: a capitalized one
    /// (`public var Notes`, `Notes.snapshot.json`) is refused, naming the spelling to give.
    @Test func aPluralThatIsNotAVariableNameIsRefusedWithNothingWritten() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }

        let refused = run(["Note", "id:UUID", "title", "--plural", "Notes"])

        #expect(refused.exitCode == 2)
        #expect(refused.standardError.contains("--plural 'Notes' names a property"))
        #expect(refused.standardError.contains("for example --plural notes"))
        #expect(try TestPaths.files(below: folder).isEmpty)
    }

    @Test func aCompatibleChangeIsDescribedBeforeTheStatuses() {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title", "rating:Int?"]).exitCode == 0)

        let result = run(
            ["Book", "id:UUID", "title", "pages:Int?", "shelf=main", "--drop", "rating"])

        #expect(result.exitCode == 0)
        #expect(
            result.standardOutput.hasPrefix(
                "Book changed since it was last generated:\n"
                    + "  note     added pages:Int?: stored values load with pages = nil\n"
                    + "  note     added shelf:String=\"main\": stored values load with the default\n"
                    + "  drop     removed rating (--drop): its stored values are dropped when the "
                    + "store next rewrites them\n"))
        #expect(result.standardError.isEmpty)
        #expect(
            result.standardOutput.contains("update    BookStore/Sources/BookStore/Book.swift\n"))
    }

    @Test func aRemovedFieldIsRefusedUntilDroppedOrRenamed() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title", "rating:Int?"]).exitCode == 0)
        let before = try TestPaths.files(below: folder).map { ($0, text($0)) }

        let removed = run(["Book", "id:UUID", "title", "score:Int?"])

        #expect(removed.exitCode == 2)
        #expect(removed.standardOutput.isEmpty)
        #expect(
            removed.standardError.contains(
                "Book cannot change this way: apps that saved data with the Book generated before "
                    + "would lose some of it. Nothing was written."))
        #expect(removed.standardError.contains("--rename rating=score"))
        #expect(
            removed.standardError.contains(
                "Or drop the removed field's stored values on purpose: add --drop rating"))
        #expect(
            try TestPaths.files(below: folder).map { ($0, text($0)) }.elementsEqual(before) {
                $0 == $1
            })
        #expect(
            run(["Book", "id:UUID", "title", "score:Int?", "--rename", "rating=score"]).exitCode
                == 0)
    }

    /// A field renamed and then dropped: values saved before the rename hold its former name,
    /// which is recorded as dropped too.
    @Test func aDroppedFieldsFormerNameIsDroppedToo() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title", "rating:Int=0"]).exitCode == 0)
        #expect(
            run(["Book", "id:UUID", "title", "score:Int=0", "--rename", "rating=score"]).exitCode
                == 0)
        #expect(run(["Book", "id:UUID", "title", "--drop", "score"]).exitCode == 0)

        let back = run(["Book", "id:UUID", "title", "rating:Int=0"])

        #expect(back.exitCode == 2)
        #expect(back.standardError.contains("a field rating was dropped before"))
    }

    /// The same in one run: dropping `score`, which was `rating`, while adding a new `rating`.
    @Test func aFieldDroppedAndItsFormerNameAddedInOneRunIsRefused() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title", "rating:Int=0"]).exitCode == 0)
        #expect(
            run(["Book", "id:UUID", "title", "score:Int=0", "--rename", "rating=score"]).exitCode
                == 0)

        let back = run(["Book", "id:UUID", "title", "rating:Int=0", "--drop", "score"])

        #expect(back.exitCode == 2)
        #expect(back.standardError.contains("a field rating was dropped before"))
        let migrated = run([
            "Book", "id:UUID", "title", "rating:Int=0", "--drop", "score", "--migrate",
        ])
        #expect(migrated.exitCode == 0, "\(migrated.standardError)")
        #expect(run(["regen", "BookStore"]).exitCode == 0)
    }

    /// Values saved after a `--drop` may still hold the dropped key (sqlite rows until each is
    /// saved again, the journal and snapshot stores until their next snapshot). A field of that
    /// name again, added or renamed to, would load them, or stop the store opening: it is
    /// refused with nothing written until `--migrate` freezes the version that holds them.
    /// A renamed field's former name, given to a new field, would take the values stored before
    /// the rename from it: refused, or with --migrate the frozen version reads the former key.
    @Test func aRenamedFieldsFormerNameComesBackOnlyWithAMigration() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Card", "id:Int", "title"]).exitCode == 0)
        #expect(run(["Card", "id:Int", "headline", "--rename", "title=headline"]).exitCode == 0)
        let before = try TestPaths.files(below: folder).map { ($0, text($0)) }

        let back = run(["Card", "id:Int", "headline", "title=none"])

        #expect(back.exitCode == 2)
        #expect(
            back.standardError.contains(
                "Card.title: title was renamed to headline before (--rename), and values stored "
                    + "before the rename hold headline's values under the key title"))
        #expect(
            try TestPaths.files(below: folder).map { ($0, text($0)) }.elementsEqual(before) {
                $0 == $1
            })
        let migrated = run(["Card", "id:Int", "headline", "title=none", "--migrate"])
        #expect(migrated.exitCode == 0, "\(migrated.standardError)")
        // The frozen version reads the former key into headline.
        #expect(
            text("CardStore/Sources/CardStore/CardVersions.swift")?.contains(
                "former.decode(String.self, forKey: .title)") == true)
    }

    @Test func aDroppedFieldsNameComesBackOnlyWithAMigration() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        let manifest = "BookStore/.scaffold/manifest.json"
        #expect(run(["Book", "id:UUID", "title", "rating:String?"]).exitCode == 0)
        #expect(run(["Book", "id:UUID", "title", "--drop", "rating"]).exitCode == 0)
        #expect(text(manifest)?.contains("\"droppedFields\" : [\n        \"rating\"") == true)
        #expect(run(["regen", "BookStore"]).exitCode == 0)
        #expect(text(manifest)?.contains("droppedFields") == true)
        // The store knows the key, so it lets it go: it is no newer build's field to keep.
        let api = "BookStore/Sources/BookStore/BookRepository+API.swift"
        #expect(text(api)?.contains(#"        "rating","#) == true)
        let before = try TestPaths.files(below: folder).map { ($0, text($0)) }

        for fields in [
            ["rating:Int=0"], ["rating:String?"], ["rating", "--rename", "title=rating"],
        ] {
            let back = run(["Book", "id:UUID"] + fields)

            #expect(back.exitCode == 2, "\(fields)")
            #expect(back.standardOutput.isEmpty)
            #expect(
                back.standardError.contains(
                    "Book.rating: a field rating was dropped before (--drop, under this name or "
                        + "a later one), and stored values may still hold its former values under "
                        + "that key"),
                "\(fields)")
            #expect(back.standardError.contains("Give the field another name, or add --migrate"))
            #expect(
                try TestPaths.files(below: folder).map { ($0, text($0)) }.elementsEqual(before) {
                    $0 == $1
                })
        }

        let migrated = run(["Book", "id:UUID", "title", "rating:Int=0", "--migrate"])

        #expect(migrated.exitCode == 0, "\(migrated.standardError)")
        #expect(text(manifest)?.contains("droppedFields") == false)
        #expect(text(manifest)?.contains("\"schemaVersion\" : 2") == true)
        // The frozen version 1 has no rating: a stored value's old key is not read.
        #expect(text("BookStore/Sources/BookStore/BookVersions.swift")?.contains("rating") == false)
        #expect(
            text("BookStore/Sources/BookStore/BookMigration1.swift")?.contains("rating: 0") == true)
    }

    @Test(arguments: [
        (
            ["--drop", "ratng"],
            "--drop ratng: the Book generated before has no field 'ratng'. Did you mean rating?"
        ),
        (["--drop", "title"], "--drop title: title is still a field of Book"),
        (
            ["--drop", "rating", "--rename", "rating=score"],
            "give --rename rating=score or --drop rating, not both"
        ),
        (["--drop", "id"], "--drop id: the id field cannot be dropped"),
        (["--drop", "rating,rating"], "--drop rating: each field is dropped once"),
        (["--drop", "rating="], "--drop 'rating=' is not a field name"),
    ])
    func aDropThatNamesNoRemovedFieldIsRefused(options: [String], message: String) throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title", "rating:Int?"]).exitCode == 0)

        let result = run(["Book", "id:UUID", "title", "score:Int?"] + options)

        #expect(result.exitCode == 2)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    @Test func aFieldRenamedAgainNeedsAMigrationThatKeepsReadingItsFirstName() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title"]).exitCode == 0)
        #expect(run(["Book", "id:UUID", "headline", "--rename", "title=headline"]).exitCode == 0)

        let again = run(["Book", "id:UUID", "heading", "--rename", "headline=heading"])
        let migrated = run([
            "Book", "id:UUID", "heading", "--rename", "headline=heading", "--migrate",
        ])

        #expect(again.exitCode == 2)
        #expect(
            again.standardError.contains(
                "headline was renamed from title before, and stores that no release opened since "
                    + "may still hold title"))
        #expect(migrated.exitCode == 0, "\(migrated.standardError)")
        // The frozen version reads both names; the migration copies the value over.
        let versions = text("BookStore/Sources/BookStore/BookVersions.swift") ?? ""
        #expect(versions.contains("forKey: .headline") && versions.contains("forKey: .title"))
        #expect(
            text("BookStore/Sources/BookStore/BookMigration1.swift")?.contains(
                "heading: self.headline") == true)
    }

    @Test func typosInARenameOrAnOwnedPathGetTheNameMeant() {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title"]).exitCode == 0)

        let rename = run(["Book", "id:UUID", "headline", "--rename", "titel=headline"])
        let own = run(["own", "BookStore/Sources/BookStore/BookRepositry.swift"])

        #expect(rename.exitCode == 2)
        #expect(rename.standardError.contains("no field 'titel'. Did you mean title?"))
        #expect(own.exitCode == 2)
        #expect(
            own.standardError.contains(
                "Did you mean BookStore/Sources/BookStore/BookRepository.swift?"))
    }

    @Test func aDropForAModelNeverGeneratedIsRefused() {
        defer { TestPaths.removeTemporaryFolder(folder) }

        let result = run(["Book", "id:UUID", "title", "--drop", "rating"])

        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("Book was not generated here before"))
        #expect((try? TestPaths.files(below: folder))?.isEmpty == true)
    }

    @Test func aBreakingChangeIsRefusedAndNothingIsWritten() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title", "rating:Int?"]).exitCode == 0)
        let before = try TestPaths.files(below: folder).map { ($0, text($0)) }

        let result = run(["Book", "id:UUID", "title", "rating:String?", "pages:Int"])

        #expect(result.exitCode == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("Book cannot change this way"))
        #expect(result.standardError.contains("rating changes type from Int? to String?"))
        #expect(result.standardError.contains("pages:Int is a new required field"))
        #expect(
            try TestPaths.files(below: folder).map { ($0, text($0)) }.elementsEqual(before) {
                $0 == $1
            })
    }

    @Test func aRenameIsRecordedKeptByLaterRunsAndReproducedByRegen() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title"]).exitCode == 0)

        let renamed = run(["Book", "id:UUID", "headline", "--rename", "title=headline"])
        let later = run(["Book", "id:UUID", "headline", "pages:Int?"])

        #expect(renamed.exitCode == 0)
        #expect(renamed.standardOutput.contains("note     renamed title to headline"))
        #expect(later.exitCode == 0)
        let book = try Manifest.load(root: folder.appendingPathComponent("BookStore"))?
            .model(named: "Book")
        #expect(book?.fields.first { $0.name == "headline" }?.formerName == "title")
        #expect(text("BookStore/Sources/BookStore/Book.swift")?.contains("case title") == true)
        #expect(run(["regen", "BookStore", "--check"]).exitCode == 0)
    }

    /// Each run that changes a model's fields (a delete rule included) makes a later revision,
    /// which a sqlite repository records, so that an older build of the app leaves the newer
    /// one's rules; a run that changes nothing, and `regen`, keep it.
    @Test func eachChangeOfAModelIsALaterRevisionAndRegenKeepsIt() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        func revision() throws -> Int? {
            try Manifest.load(root: folder.appendingPathComponent("LibraryStore"))?
                .model(named: "Book")?.revision
        }
        func schema() -> String? {
            text("LibraryStore/Sources/ShelfStore/BookRepository.swift")?
                .components(separatedBy: "revision: ").dropFirst().first?.prefix(2).description
        }
        let shelf = ["Shelf", "id:UUID", "name", "--storage", "sqlite", "--output", "LibraryStore"]
        let book = [
            "Book", "id:UUID", "title", "--storage", "sqlite", "--into", "LibraryStore",
            "--target", "ShelfStore",
        ]
        #expect(run(shelf).exitCode == 0)
        #expect(run(book + ["shelf:references(Shelf,cascade)"]).exitCode == 0)
        #expect(try revision() == nil)
        #expect(schema() == "1)")

        #expect(run(book + ["shelf:references(Shelf,cascade)"]).exitCode == 0)
        #expect(try revision() == nil)
        #expect(run(book + ["shelf:references(Shelf,restrict)"]).exitCode == 0)
        #expect(try revision() == 2)
        #expect(run(book + ["shelf:references(Shelf,restrict)", "pages:Int=0"]).exitCode == 0)
        #expect(try revision() == 3)
        #expect(schema() == "3)")

        #expect(run(["regen", "LibraryStore"]).exitCode == 0)
        #expect(try revision() == 3)
        #expect(run(["regen", "LibraryStore", "--check"]).exitCode == 0)
    }

    /// A reference's field is its token's name plus ID: a rename may name the fields as the
    /// tokens do (`folder=parent`), or as the model does (`folderID=parentID`).
    @Test(arguments: ["folder=parent", "folderID=parentID"])
    func aReferenceIsRenamedByItsTokensName(_ rename: String) throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        let into = ["--storage", "sqlite", "--into", "FolderStore", "--target", "FolderStore"]
        #expect(run(["Folder", "id:UUID", "name", "--storage", "sqlite"]).exitCode == 0)
        #expect(run(["Note", "id:UUID", "folder:references(Folder,cascade)"] + into).exitCode == 0)

        let renamed = run(
            ["Note", "id:UUID", "parent:references(Folder,cascade)", "--rename", rename] + into)

        #expect(renamed.exitCode == 0, "\(renamed.standardError)")
        #expect(renamed.standardOutput.contains("note     renamed folderID to parentID"))
        let note = try Manifest.load(root: folder.appendingPathComponent("FolderStore"))?
            .model(named: "Note")
        #expect(note?.fields.first { $0.name == "parentID" }?.formerName == "folderID")
    }

    @Test func anEditedPackageSwiftIsOwnedAndNeverBlocksAddingAField() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title"]).exitCode == 0)
        let manifest = folder.appendingPathComponent("BookStore/Package.swift")
        let edited = (text("BookStore/Package.swift") ?? "") + "// an app target of mine\n"
        try Data(edited.utf8).write(to: manifest)

        let result = run(["Book", "id:UUID", "title", "pages:Int?"])
        let check = run(["regen", "BookStore", "--check"])

        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("owned     BookStore/Package.swift\n"))
        #expect(
            result.standardOutput.contains("update    BookStore/Sources/BookStore/Book.swift\n"))
        #expect(text("BookStore/Package.swift") == edited)
        #expect(check.exitCode == 0, "\(check.standardOutput)")
        #expect(check.standardOutput.contains("owned     BookStore/Package.swift\n"))
    }

    /// A stray word after the fields (a folder meant for --output) becomes a String field: a new
    /// field whose name starts with a capital letter is warned about, once, when it is added.
    @Test func aNewFieldWithACapitalIsWarnedAboutWhenItIsAdded() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }

        let added = run(["Book", "id:UUID", "title", "BookStore"])

        #expect(added.exitCode == 0)
        #expect(
            added.standardError.contains(
                "warning: Book.BookStore is a field of type String whose name starts with a "
                    + "capital letter; a property's starts in lower case (bookStore). If "
                    + "'BookStore' was meant as a folder, give it with --output or --into"))
        #expect(run(["Book", "id:UUID", "title", "BookStore"]).standardError.isEmpty)
    }

    /// A field named like a type is refused on the command line, but a manifest record that an
    /// earlier release wrote with one still loads, so that the field can be renamed away.
    @Test func aRecordedFieldNamedLikeATypeStillLoadsAndIsRenamedAway() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title", "issue:Int"]).exitCode == 0)
        let path = folder.appendingPathComponent("BookStore/.scaffold/manifest.json")
        let recorded = try String(contentsOf: path, encoding: .utf8)
        try Data(
            TestPaths.withoutChecksums(recorded).replacingOccurrences(
                of: "\"name\" : \"issue\"", with: "\"name\" : \"Issue\""
            ).utf8
        ).write(to: path)

        #expect(run(["Book", "id:UUID", "title", "Issue:Int"]).exitCode == 2)
        #expect(run(["regen", "BookStore"]).exitCode == 0)
        let renamed = run(["Book", "id:UUID", "title", "issue:Int", "--rename", "Issue=issue"])

        #expect(renamed.exitCode == 0, "\(renamed.standardError)")
    }

    /// A run that an edited file blocks says to re-run with --force; it names the edited
    /// Package.swift that --force would overwrite too, which the blocked run listed as owned.
    @Test func theAdviceToForceNamesTheEditedPackageSwiftItWouldOverwrite() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title"]).exitCode == 0)
        for path in ["BookStore/Package.swift", "BookStore/Sources/BookStore/Book.swift"] {
            let edited = (text(path) ?? "") + "// mine\n"
            try Data(edited.utf8).write(to: folder.appendingPathComponent(path))
        }

        let blocked = run(["Book", "id:UUID", "title"])

        #expect(blocked.exitCode == 1)
        #expect(
            blocked.standardError.contains(
                "Re-run with --force to overwrite them (--force also overwrites your edited "
                    + "BookStore/Package.swift), or move them away first"))
        // Taken over with `own`, --force keeps it: it is not named.
        #expect(run(["own", "Package.swift", "--into", "BookStore"]).exitCode == 0)
        let owned = run(["Book", "id:UUID", "title"])
        #expect(owned.exitCode == 1)
        #expect(owned.standardError.contains("Re-run with --force to overwrite them, or move"))
    }

    /// An edited Package.swift is kept when the model moves to sqlite, so it lacks the system
    /// library: the run prints the lines to add, and the next step says to add them first (it
    /// said "swift test", on a package that did not build).
    @Test func anEditedPackageSwiftKeptOnAMoveToSQLiteIsToldTheLinesToAdd() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title"]).exitCode == 0)
        let edited = (text("BookStore/Package.swift") ?? "") + "// an app target of mine\n"
        try Data(edited.utf8).write(to: folder.appendingPathComponent("BookStore/Package.swift"))

        let moved = run(["Book", "id:UUID", "title", "--storage", "sqlite"])

        #expect(moved.exitCode == 0, "\(moved.standardError)")
        #expect(text("BookStore/Package.swift") == edited)
        #expect(
            moved.standardOutput.contains(
                ".systemLibrary(name: \"CSQLite\", path: \"Sources/CSQLite\"),\n"
                    + "and to the dependencies of BookStore and BookStoreTests:"))
        #expect(
            moved.standardOutput.hasSuffix(
                "Next: add the CSQLite lines above to Package.swift, then cd BookStore && swift "
                    + "test\n"))
        // Unedited, it is rewritten with them, and the next step is the tests.
        #expect(run(["Shelf", "id:UUID", "name"]).exitCode == 0)
        let unedited = run(["Shelf", "id:UUID", "name", "--storage", "sqlite"])
        #expect(unedited.standardOutput.contains("update    ShelfStore/Package.swift\n"))
        #expect(unedited.standardOutput.hasSuffix("Next: cd ShelfStore && swift test\n"))
    }
}

/// `--migrate`: a breaking change goes through with a new schema version and a migration.
extension ChangingAModelTests {
    /// A conversion exact for every value but some says which, and that those keep the store
    /// closed until decided; the migration names the stored value it did not convert.
    @Test func aConversionExactForMostValuesSaysWhichItDoesNotConvert() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title", "count:Int"]).exitCode == 0)

        let toDouble = run(["Book", "id:UUID", "title", "count:Double", "--migrate"])

        #expect(
            toDouble.standardOutput.contains(
                "  migrate  count changes type from Int to Double: the migration converts every "
                    + "stored value that converts exactly; a whole number past 2^53 that a "
                    + "Double cannot hold exactly does not, and keeps the store closed "
                    + "(.notMigrated, naming the field and the value) until you decide it in the "
                    + "migration\n"), "\(toDouble.standardOutput)")
        #expect(
            text("BookStore/Sources/BookStore/BookMigration1.swift")?.contains(
                #"try lossless(Double(exactly: self.count), "count", from: self.count)"#) == true)

        // Any other migrated change still says what becomes of the values.
        #expect(run(["Book", "id:UUID", "title", "count:Double", "stars:Int?=3"]).exitCode == 0)
        let lostDefault = run([
            "Book", "id:UUID", "title", "count:Double", "stars:Int?", "--migrate",
        ])
        #expect(lostDefault.exitCode == 0, "\(lostDefault.standardError)")
        #expect(
            lostDefault.standardOutput.contains(
                "stars loses its default: the migration converts every stored value, losing "
                    + "nothing\n"), "\(lostDefault.standardOutput)")
    }

    @Test func aRefusalNamesMigrateAndMigrateMakesVersionTwoWithAMigrationFile() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title", "rating:Int?"]).exitCode == 0)
        let breaking = ["Book", "id:UUID", "title", "rating:String?"]

        let refused = run(breaking)
        let migrated = run(breaking + ["--migrate"])

        #expect(refused.exitCode == 2)
        #expect(refused.standardError.contains("add --migrate"))
        #expect(migrated.exitCode == 0, "\(migrated.standardError)")
        #expect(
            migrated.standardOutput.contains(
                "  migrate  rating changes type from Int? to String?: the migration converts every "
                    + "stored value, losing nothing\n"))
        #expect(
            migrated.standardOutput.contains(
                "create    BookStore/Sources/BookStore/BookMigration1.swift\n"))
        #expect(
            text("BookStore/Sources/BookStore/BookRepository.swift")?.contains("schemaVersion = 2")
                == true)
        #expect(
            text("BookStore/Sources/BookStore/BookVersions.swift")?.contains("public struct V1:")
                == true)
        // The repository's API calls what only the versions file declares: a build that lacks
        // that file (not added to an app's target) fails, rather than take StoredValue's
        // default and read version 1's values as the current model.
        let declaration = "static func decodeVersion(_ version: Int, from decoder: any Decoder)"
        #expect(
            text("BookStore/Sources/BookStore/BookVersions.swift")?.contains(declaration) == true)
        #expect(
            text("BookStore/Sources/BookStore/BookRepository+API.swift")?.contains(
                "        try decodeVersion(version, from: decoder)\n") == true)
        let elsewhere = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("BookStore/Sources/BookStore").path
        ).filter { $0 != "BookVersions.swift" }
        for file in elsewhere {
            #expect(
                text("BookStore/Sources/BookStore/\(file)")?.contains("func decodeVersion")
                    == false,
                "\(file)")
        }
        #expect(
            text("BookStore/Sources/BookStore/BookMigration1.swift")?.contains(
                "            rating: self.rating.map { String($0) }\n") == true)
        #expect(
            text("BookStore/Sources/BookStore/BookMigration1.swift")?.contains("// Decide:")
                == false)
        let book = try Manifest.load(root: folder.appendingPathComponent("BookStore"))?
            .model(named: "Book")
        #expect(book?.schemaVersion == 2)
        #expect(
            book?.previousVersions?.first?.fields.contains {
                $0.name == "rating" && $0.type == "Int?"
            }
                == true)
        #expect(run(["regen", "BookStore", "--check"]).exitCode == 0)
    }

    @Test func aMigrationFileIsNeverOverwrittenAndAChainGrowsOneStepAtATime() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title", "rating:Int?"]).exitCode == 0)
        #expect(run(["Book", "id:UUID", "title", "rating:String?", "--migrate"]).exitCode == 0)
        let edited = "// my migration\n"
        let migration = folder.appendingPathComponent(
            "BookStore/Sources/BookStore/BookMigration1.swift")
        try Data(edited.utf8).write(to: migration)

        let third = run(["Book", "id:UUID", "title", "rating:String?", "pages:Int", "--migrate"])
        let forced = run(["regen", "BookStore", "--force"])

        #expect(third.exitCode == 0, "\(third.standardError)")
        #expect(
            third.standardOutput.contains(
                "owned     BookStore/Sources/BookStore/BookMigration1.swift\n"))
        #expect(
            third.standardOutput.contains(
                "create    BookStore/Sources/BookStore/BookMigration2.swift\n"))
        #expect(
            forced.standardOutput.contains(
                "owned     BookStore/Sources/BookStore/BookMigration1.swift\n"))
        #expect(TestPaths.text(migration) == edited)
        let versions = text("BookStore/Sources/BookStore/BookVersions.swift") ?? ""
        #expect(
            versions.contains(
                "case 1:\n            try [V1](from: decoder).migrated().migrated()\n"))
        #expect(versions.contains("case 2:\n            try [V2](from: decoder).migrated()\n"))
        #expect(versions.contains("public typealias V3 = Book"))
    }

    @Test func aRenameBeforeAMigrationStaysInTheFrozenVersion() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title", "rating:Int?"]).exitCode == 0)
        #expect(
            run(["Book", "id:UUID", "headline", "rating:Int?", "--rename", "title=headline"])
                .exitCode == 0)

        let migrated = run(["Book", "id:UUID", "headline", "rating:String?", "--migrate"])
        let check = run(["regen", "BookStore", "--check"])

        #expect(migrated.exitCode == 0, "\(migrated.standardError)")
        #expect(check.exitCode == 0, "\(check.standardOutput)")
        // Version 1 read title as headline; its frozen type still does.
        let versions = text("BookStore/Sources/BookStore/BookVersions.swift") ?? ""
        #expect(versions.contains("?? former.decode(String.self, forKey: .title)"))
        let book = try Manifest.load(root: folder.appendingPathComponent("BookStore"))?
            .model(named: "Book")
        let frozen = book?.previousVersions?.first?.fields ?? []
        #expect(frozen.first { $0.name == "headline" }?.formerName == "title")
    }

    @Test func migrateWithoutABreakingChangeIsRefused() {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title"]).exitCode == 0)

        let result = run(["Book", "id:UUID", "title", "pages:Int?", "--migrate"])

        #expect(result.exitCode == 2)
        #expect(result.standardError.contains("there is nothing to migrate; drop --migrate"))
    }

    /// The command that made the current schema version, run again (a workshop trial followed
    /// step 4's history twice and was refused): every file comes out identical, and no version
    /// is added. The same --migrate on a model of one version is still refused.
    @Test func theMigrateThatMadeTheCurrentVersionRunAgainChangesNothing() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title", "pages:Int?"]).exitCode == 0)
        let migrate = [
            "Book", "id:UUID", "headline:String", "pages:Int", "--rename", "title=headline",
        ]
        #expect(run(migrate + ["--migrate"]).exitCode == 0)
        let manifest = folder.appendingPathComponent("BookStore/.scaffold/manifest.json")
        let before = try Data(contentsOf: manifest)

        let again = run(migrate + ["--migrate"])

        #expect(again.exitCode == 0, "\(again.standardError)")
        #expect(
            again.standardOutput.hasPrefix(
                "  note     Book is schema version 2 already, with these fields: nothing to migrate "
                    + "again\n"),
            "\(again.standardOutput)")
        #expect(!again.standardOutput.contains("create"))
        #expect(!again.standardOutput.contains("update"))
        #expect(try Data(contentsOf: manifest) == before)
        // So too one that dropped a field, which the current version no longer has.
        let dropping = ["Book", "id:UUID", "headline:Int=0", "--drop", "pages", "--migrate"]
        #expect(run(dropping).exitCode == 0)
        let dropped = try Data(contentsOf: manifest)
        #expect(run(dropping).exitCode == 0)
        #expect(try Data(contentsOf: manifest) == dropped)
    }

    @Test func migrateNeedsAModelGeneratedBeforeAndTheIDTypeStays() {
        defer { TestPaths.removeTemporaryFolder(folder) }

        let first = run(["Book", "id:UUID", "title", "--migrate"])
        #expect(run(["Book", "id:UUID", "title"]).exitCode == 0)
        let idChange = run(["Book", "id:Int", "title", "--migrate"])

        #expect(first.exitCode == 2)
        #expect(first.standardError.contains("there is no stored version to migrate from"))
        #expect(idChange.exitCode == 2)
        #expect(idChange.standardError.contains("not even with --migrate"))
    }
}

/// `scaffold-repo own`: a person takes over a generated file.
@Suite struct OwningAFileTests {
    @Test func anOwnedFileIsLeftAloneByEveryLaterRunAndKeptByDestroy() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let run = { (arguments: [String]) in
            ScaffoldRepo.run(arguments, currentDirectory: folder)
        }
        let path = "Sources/BookStore/BookListViewModel.swift"
        #expect(run(["Book", "id:UUID", "title"]).exitCode == 0)
        let file = folder.appendingPathComponent("BookStore/" + path)
        let edited = (TestPaths.text(file) ?? "") + "// my own list logic\n"
        try Data(edited.utf8).write(to: file)

        // The path as the status lines print it, relative to the current folder.
        let own = run(["own", "BookStore/" + path])
        let again = run(["Book", "id:UUID", "title", "pages:Int?"])
        let check = run(["regen", "BookStore", "--check"])
        let unknown = run(["own", "Sources/Nope.swift", "--into", "BookStore"])
        let destroy = run(["destroy", "Book", "BookStore"])

        #expect(own.exitCode == 0)
        #expect(
            own.standardOutput
                == "owned     BookStore/\(path)\nupdate    BookStore/.scaffold/manifest.json\n")
        #expect(again.exitCode == 0, "\(again.standardError)")
        #expect(again.standardOutput.contains("owned     BookStore/\(path)\n"))
        #expect(check.exitCode == 0)
        #expect(unknown.exitCode == 2)
        #expect(
            unknown.standardError.contains(
                "'Sources/Nope.swift' is not a file scaffold-repo generated"))
        #expect(destroy.standardOutput.contains("owned     BookStore/\(path) (kept: yours)\n"))
        #expect(TestPaths.text(file) == edited)
    }

    /// Every path is checked before any manifest is written: a typo in the second leaves the
    /// first not owned either.
    @Test func ownWithOneBadPathOwnsNoneOfThem() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let run = { (arguments: [String]) in
            ScaffoldRepo.run(arguments, currentDirectory: folder)
        }
        #expect(run(["Book", "id:UUID", "title"]).exitCode == 0)
        let manifest = folder.appendingPathComponent("BookStore/\(Manifest.path)")
        let before = TestPaths.text(manifest)

        let result = run([
            "own", "BookStore/Sources/BookStore/Book.swift",
            "BookStore/Sources/BookStore/Bok.swift",
        ])

        #expect(result.exitCode == 2)
        #expect(
            result.standardError.contains("'BookStore/Sources/BookStore/Bok.swift' is not a file"))
        #expect(result.standardOutput.isEmpty)
        #expect(TestPaths.text(manifest) == before)
        let both = run([
            "own", "BookStore/Sources/BookStore/Book.swift",
            "BookStore/Sources/BookStore/BookListViewModel.swift",
        ])
        #expect(both.exitCode == 0)
        #expect(
            try Manifest.load(root: folder.appendingPathComponent("BookStore"))?.models.first?
                .owned == [
                    "Sources/BookStore/Book.swift", "Sources/BookStore/BookListViewModel.swift",
                ])
    }
}

/// What a migration does with a field whose type changes: a conversion that loses nothing is
/// written for the person; one that can fail is left to them, and throws until they decide.
extension ChangingAModelTests {
    @Test func aLosslessTypeChangeIsConvertedWithoutADecision() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(
            run(["Gauge", "id:UUID", "count:Int", "ratio:Float", "kind:enum(a,b)", "tags:[Int]"])
                .exitCode == 0)

        let migrated = run([
            "Gauge", "id:UUID", "count:Int64", "ratio:Double", "kind:String", "tags:[Int64]",
            "--migrate",
        ])

        #expect(migrated.exitCode == 0, "\(migrated.standardError)")
        #expect(!migrated.standardOutput.contains("decide"))
        #expect(!migrated.standardError.contains("decide"))
        let migration = text("GaugeStore/Sources/GaugeStore/GaugeMigration1.swift") ?? ""
        for line in [
            "count: Int64(self.count),", "ratio: Double(String(self.ratio)) ?? Double(self.ratio),",
            "kind: self.kind.rawValue,",
            "tags: self.tags.map { Int64($0) }\n",
        ] {
            #expect(migration.contains("            " + line), "\(line)")
        }
        #expect(!migration.contains("// Decide:"))
        #expect(!migration.contains("try undecided("))
    }

    /// A change that every value survives, but in a way that is the person's to choose (a
    /// `Bool` as 1 or 0), or that no conversion is written for (a `Date` as an `Int`), says so:
    /// "some stored values may not convert" was wrong for the first (an app trial).
    @Test func aConversionThePersonChoosesSaysWhyItIsTheirs() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Gauge", "id:UUID", "done:Bool", "seen:Date", "note:String"]).exitCode == 0)

        let migrated = run(["Gauge", "id:UUID", "done:Int", "seen:Int", "note:Int?", "--migrate"])

        #expect(migrated.exitCode == 0, "\(migrated.standardError)")
        let decisions: [String] = [
            "done was Bool, is Int now: every stored value converts, in a way that is yours to "
                + "choose (for example self.done ? 1 : 0)",
            "seen was Date, is Int now: no conversion is written for it; decide what each stored "
                + "value becomes",
            "note was String, is Int? now: some stored values may not convert (for example "
                + "Int(self.note))",
        ]
        for decision in decisions {
            let line = "  decide   GaugeMigration1.swift: " + decision + "\n"
            #expect(migrated.standardOutput.contains(line), "\(migrated.standardOutput)")
        }
    }

    @Test func aConversionThatCanFailIsLeftUndecidedAndListedByTheRun() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Gauge", "id:UUID", "reading:String", "count:Int"]).exitCode == 0)

        let migrated = run(["Gauge", "id:UUID", "reading:Int", "count:Int64", "--migrate"])

        #expect(migrated.exitCode == 0, "\(migrated.standardError)")
        #expect(
            migrated.standardOutput.contains(
                "  decide   GaugeMigration1.swift: reading was String, is Int now: some stored "
                    + "values may not convert (for example Int(self.reading) ?? 0)\n"))
        #expect(
            migrated.standardError.contains(
                "warning: Gauge: 1 stored value(s) to decide in GaugeMigration1.swift"))
        #expect(
            migrated.standardOutput.hasSuffix(
                "Next: replace each `try undecided(…)` in "
                    + "GaugeStore/Sources/GaugeStore/GaugeMigration1.swift with the value you "
                    + "decide, then cd GaugeStore && swift test\n"))
        let migration = text("GaugeStore/Sources/GaugeStore/GaugeMigration1.swift") ?? ""
        #expect(
            migration.contains(
                """
                            // Decide: reading was String, is Int now: some stored values may not convert.
                            // For example: Int(self.reading) ?? 0
                            reading: try undecided("reading"),
                            count: Int64(self.count)

                """))
        #expect(migration.contains("public func migrated() throws -> Gauge.V2 {"))
        #expect(migration.components(separatedBy: "undecided(").count == 2)
        // Run again before the value is decided, the next step is still to decide it (it said
        // "swift test", whose version tests fail until then).
        let again = run(["Gauge", "id:UUID", "reading:Int", "count:Int64"])
        #expect(
            again.standardOutput.hasSuffix(
                "Next: replace each `try undecided(…)` in "
                    + "GaugeStore/Sources/GaugeStore/GaugeMigration1.swift with the value you "
                    + "decide, then cd GaugeStore && swift test\n"),
            "\(again.standardOutput)")
    }

    @Test func aRefusedNewFieldNamesTheRenameFirst() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Note", "id:UUID", "body:String", "size:Int"]).exitCode == 0)

        let refused = run(["Note", "id:UUID", "content:String", "size:Int"])
        let renamed = run([
            "Note", "id:UUID", "content:String", "size:Int", "--rename", "body=content",
        ])

        #expect(refused.exitCode == 2)
        #expect(
            refused.standardError.contains(
                "so they would not open. If content is body renamed, say so and keep every stored "
                    + "body: --rename body=content. Otherwise give it a default (content:String=\"\") "
                    + "or make it optional (content:String?)"))
        #expect(renamed.exitCode == 0, "\(renamed.standardError)")
    }
}

/// An owned file whose generated version changes: the rest may rely on the change, so the run
/// never ends with "Next:" as if the package built.
extension OwningAFileTests {
    @Test func anOwnedModelThatMissesANewFieldIsToReviewWithItsDiffAndNoNextStep() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let run = { (arguments: [String]) in
            ScaffoldRepo.run(arguments, currentDirectory: folder)
        }
        let path = "PStore/Sources/PinStore/Pin.swift"
        let withColor = ["Pin", "id:UUID", "name:String", "color:String?", "--output", "PStore"]
        #expect(run(["Pin", "id:UUID", "name:String", "--output", "PStore"]).exitCode == 0)
        #expect(run(["own", path]).exitCode == 0)
        let owned = TestPaths.text(folder.appendingPathComponent(path))

        let check = run(withColor + ["--check"])
        let added = run(withColor)
        let again = run(withColor)

        #expect(check.exitCode == 1)
        #expect(check.standardOutput.contains("review    \(path) (yours;"))
        #expect(added.exitCode == 0)
        #expect(added.standardOutput.contains("review    \(path) (yours;"))
        #expect(added.standardOutput.contains("+    public var color: String?\n"))
        #expect(!added.standardOutput.contains("Next:"))
        #expect(
            added.standardError.contains(
                "warning: \(path) is yours (owned), and what scaffold-repo generates for it changed"
            ))
        #expect(
            added.standardOutput.contains(
                "update    PStore/Tests/PinStoreTests/PinTestSupport.swift\n"))
        #expect(TestPaths.text(folder.appendingPathComponent(path)) == owned)
        #expect(!again.standardOutput.contains("Next:"))
        // Counted as what it is, not as a file to update.
        #expect(
            run(["regen", "PStore", "--check"]).standardError.contains(
                "error: 1 file(s) differ from what would be generated: 0 to create or update, 0 "
                    + "edited or unknown (modified/conflict), 1 of yours to review (review). To "
                    + "fix: make the change the diff shows in your file, and for a file taken with "
                    + "own, run 'scaffold-repo own PATH' again (review)."))

        // The person makes the change and says so: the file is owned, and the run is clean.
        guard case .generate(let request, _) = try InvocationParser.parse(withColor) else {
            Issue.record("not a generate command")
            return
        }
        let applied = try #require(
            try Renderer.render(request).first { $0.path == "Sources/PinStore/Pin.swift" }
        ).contents
        try Data(applied.utf8).write(to: folder.appendingPathComponent(path))
        #expect(run(["own", path]).exitCode == 0)
        let done = run(withColor)
        #expect(done.standardOutput.contains("owned     \(path)\n"))
        #expect(done.standardOutput.contains("Next: cd PStore && swift test"))
        #expect(run(["regen", "PStore", "--check"]).exitCode == 0)
    }
}

extension OwningAFileTests {
    @Test func aRenameAfterAMigrationPutsTheNewestMigrationUpForReview() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let run = { (arguments: [String]) in
            ScaffoldRepo.run(arguments, currentDirectory: folder)
        }
        #expect(run(["Book", "id:UUID", "title:String", "rating:Int?"]).exitCode == 0)
        #expect(run(["Book", "id:UUID", "title:String", "rating:Int", "--migrate"]).exitCode == 0)

        let renamed = run([
            "Book", "id:UUID", "headline:String", "rating:Int", "--rename", "title=headline",
        ])

        #expect(renamed.exitCode == 0)
        #expect(
            renamed.standardOutput.contains(
                "review    BookStore/Sources/BookStore/BookMigration1.swift (yours; it builds the "
                    + "current Book, which no longer has title, so it does not compile: change its "
                    + "arguments as the diff below does)\n"))
        #expect(
            renamed.standardOutput.contains(
                "-            title: self.title,\n+            headline: self.title,\n"))
        #expect(!renamed.standardOutput.contains("Next:"))
        // Until the migration is changed, every later run, and regen --check, still says so.
        let added = run(["Book", "id:UUID", "headline:String", "rating:Int", "pages:Int?"])
        #expect(
            added.standardOutput.contains(
                "review    BookStore/Sources/BookStore/BookMigration1.swift"))
        #expect(!added.standardOutput.contains("Next:"))
        #expect(run(["regen", "BookStore", "--check"]).exitCode == 1)
        // Changed as the diff said, it is the person's and the package builds again.
        let file = folder.appendingPathComponent("BookStore/Sources/BookStore/BookMigration1.swift")
        let migration = try String(contentsOf: file, encoding: .utf8)
        try Data(
            migration.replacingOccurrences(of: "title: self.title", with: "headline: self.title")
                .utf8
        ).write(to: file)
        let fixed = run(["regen", "BookStore"])
        #expect(
            fixed.standardOutput.contains(
                "owned     BookStore/Sources/BookStore/BookMigration1.swift\n"))
        #expect(run(["regen", "BookStore", "--check"]).exitCode == 0)
    }

    @Test func aDropAfterADecidedMigrationKeepsTheDecisionInTheDiffOnEveryRun() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let run = { (arguments: [String]) in
            ScaffoldRepo.run(arguments, currentDirectory: folder)
        }
        #expect(run(["Book", "id:UUID", "title", "pages:Int?", "shelf:String?"]).exitCode == 0)
        #expect(
            run(["Book", "id:UUID", "title", "pages:Int", "shelf:String?", "--migrate"]).exitCode
                == 0)
        let file = folder.appendingPathComponent("BookStore/Sources/BookStore/BookMigration1.swift")
        let decided = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(
            of: "try undecided(\"pages\")", with: "self.pages ?? 0")
        try Data(decided.utf8).write(to: file)

        let dropped = run(["Book", "id:UUID", "title", "pages:Int", "--drop", "shelf"])
        let check = run(["regen", "BookStore", "--check"])

        for result in [dropped, check] {
            #expect(
                result.standardOutput.contains(
                    "review    BookStore/Sources/BookStore/BookMigration1.swift"))
            #expect(
                result.standardOutput.contains(
                    "-            pages: self.pages ?? 0,\n-            shelf: self.shelf\n"
                        + "+            pages: self.pages ?? 0\n"),
                "\(result.standardOutput)")
            #expect(!result.standardOutput.contains("undecided"))
        }
        #expect(check.exitCode == 1)
        // Made as the diff says, the file is the person's, and the check passes.
        let fitted = decided.replacingOccurrences(
            of: "self.pages ?? 0,\n            shelf: self.shelf\n", with: "self.pages ?? 0\n")
        try Data(fitted.utf8).write(to: file)
        #expect(run(["regen", "BookStore", "--check"]).exitCode == 0)
    }

    @Test func aMigrationFittedToTheModelKeepsEveryLineButTheArgumentsItNoLongerHas() throws {
        let text = """
                public func migrated() throws -> Book.V2 {
                    let total = max(
                        self.a, self.b
                    )
                    return Book.V2(
                        a: total,
                        // Decide: c was String, is Int now
                        c: try undecided("c"),
                        // Decide: d is new and has no default
                        // For example: 0
                        d: self.c.count,
                        e: self.e.map { value in
                            value + 1
                        }
                    )
                }
            """
        var fields = try SpecParser.parse(
            modelName: "Book", fieldTokens: ["id:Int", "a:Int", "d:Int"]
        ).fields
        fields[2].formerName = nil

        let fitted = PackagePlanner.migrationFitting(text, fields: fields)

        // c and e go (e with its closure, c with its comment); d keeps its comments; the comma
        // after the new last argument goes; the code above the call stays.
        #expect(
            fitted == """
                    public func migrated() throws -> Book.V2 {
                        let total = max(
                            self.a, self.b
                        )
                        return Book.V2(
                            a: total,
                            // Decide: d is new and has no default
                            // For example: 0
                            d: self.c.count
                        )
                    }
                """)
    }

    @Test func aMigrationsArgumentsAreTheLabelsAtTheCallsIndentation() {
        let text = """
                    Book.V2(
                        // Decide: rating was String, is Int now: some stored values may not convert
                        // For example: Int(self.rating) ?? 0
                        title: self.title,
                        `default`: self.`default`,
                        rating: try undecided("rating"),
                        tags: self.tags.map { tag in
                            Tag(name: tag)
                        }
                    )
            """

        #expect(PackagePlanner.migrationArguments(text) == ["title", "default", "rating", "tags"])
    }
}

extension OwningAFileTests {
    @Test func destroyKeepsAnEditedMigrationEvenWithForce() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let run = { (arguments: [String]) in
            ScaffoldRepo.run(arguments, currentDirectory: folder)
        }
        #expect(run(["Book", "id:UUID", "title:String", "rating:Int?"]).exitCode == 0)
        #expect(run(["Book", "id:UUID", "title:String", "rating:Int", "--migrate"]).exitCode == 0)
        let migration = folder.appendingPathComponent(
            "BookStore/Sources/BookStore/BookMigration1.swift")
        let decided = (TestPaths.text(migration) ?? "").replacingOccurrences(
            of: "try undecided(\"rating\")", with: "self.rating ?? 0")
        try Data(decided.utf8).write(to: migration)

        let destroyed = run(["destroy", "Book", "BookStore", "--force"])

        #expect(destroyed.exitCode == 0, "\(destroyed.standardError)")
        #expect(
            destroyed.standardOutput.contains(
                "owned     BookStore/Sources/BookStore/BookMigration1.swift (kept: yours, an "
                    + "edited migration)\n"))
        #expect(TestPaths.text(migration) == decided)
        // It uses Book's types, which are gone: the run says so, naming it.
        #expect(
            destroyed.standardError.contains(
                "warning: Book's files that are yours stay: "
                    + "BookStore/Sources/BookStore/BookMigration1.swift. They use Book's generated "
                    + "types, which are gone, so the target does not build"))
    }
}

extension ChangingAModelTests {
    @Test func aPlaceholderThatAnEarlierReleaseWroteIsWarnedAboutByLine() throws {
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(run(["Book", "id:UUID", "title", "rating:Int?"]).exitCode == 0)
        #expect(run(["Book", "id:UUID", "title", "rating:Int", "--migrate"]).exitCode == 0)
        // The migration as the release before this one wrote it: a value that compiles.
        let old = """
            nonisolated extension Book.V1 {
                /// scaffold-repo wrote this file once, when `--migrate` made version 2, and never
                /// changes it: it is yours. It starts with every field that still fits; a `Decide:` comment
                /// marks each value you have to choose.
                public func migrated() -> Book.V2 {
                    Book.V2(
                        id: self.id,
                        title: self.title,
                        // Decide: was Int? (rating), is Int now; convert self.rating.
                        rating: 0
                    )
                }
            }

            """
        try Data(old.utf8).write(
            to: folder.appendingPathComponent("BookStore/Sources/BookStore/BookMigration1.swift"))

        let again = run(["regen", "BookStore"])

        #expect(again.exitCode == 0)
        #expect(
            again.standardError.contains(
                "warning: BookStore/Sources/BookStore/BookMigration1.swift:9: an earlier "
                    + "scaffold-repo wrote this `// Decide:` with a placeholder value that compiles"
            ), "\(again.standardError)")
    }
}

extension OwningAFileTests {
    /// `own --dry-run` shows what `own` would record and writes nothing; `--json` gives the
    /// plan as JSON, as every command does.
    @Test func ownShowsItsPlanWithDryRunOrJSON() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let run = { (arguments: [String]) in
            ScaffoldRepo.run(arguments, currentDirectory: folder)
        }
        let path = "Sources/BookStore/Book.swift"
        let generate = ["Book", "id:UUID", "title", "--output", "BookStore"]
        #expect(run(generate).exitCode == 0)
        let manifest = folder.appendingPathComponent("BookStore/.scaffold/manifest.json")
        let before = TestPaths.text(manifest)

        let dryRun = run(["own", path, "--into", "BookStore", "--dry-run"])

        #expect(dryRun.exitCode == 0, "\(dryRun.standardError)")
        #expect(
            dryRun.standardOutput.hasPrefix(
                "owned     \(path)\nupdate    .scaffold/manifest.json\n"))
        #expect(dryRun.standardOutput.contains("+        \"Sources/BookStore/Book.swift\""))
        #expect(TestPaths.text(manifest) == before)

        let json = run(["own", path, "--into", "BookStore", "--json"])

        #expect(json.exitCode == 0, "\(json.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8))
                as? [String: Any])
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.map { $0["status"] as? String } == ["owned", "update"])
        #expect(TestPaths.text(manifest)?.contains("\"owned\" : [\n        \"\(path)\"") == true)
    }
}

extension OwningAFileTests {
    /// The manifest's line names the package's folder from where the paths are read, however
    /// the path is spelled; a file given twice is owned once.
    @Test func ownNamesTheManifestFromTheFolderPathsAreReadFrom() throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        #expect(
            ScaffoldRepo.run(["Book", "id:UUID", "title"], currentDirectory: folder).exitCode == 0)
        let sources = folder.appendingPathComponent("BookStore/Sources")

        let dotted = ScaffoldRepo.run(
            ["own", "./BookStore/Sources/BookStore/./Book.swift", "--dry-run"],
            currentDirectory: folder)
        let inside = ScaffoldRepo.run(
            ["own", "BookStore/Book.swift", "BookStore/Book.swift", "--dry-run"],
            currentDirectory: sources)

        #expect(dotted.standardOutput.contains("update    BookStore/.scaffold/manifest.json\n"))
        #expect(inside.standardOutput.contains("update    ../.scaffold/manifest.json\n"))
        #expect(
            inside.standardOutput.components(separatedBy: "owned     BookStore/Book.swift\n")
                .count == 2)
    }
}
