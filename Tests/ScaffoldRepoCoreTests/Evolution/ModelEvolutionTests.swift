import BookV1
import BookV2
import Foundation
import RecipeStore
import Testing

@testable import ScaffoldRepoCore

/// What each kind of change to a model does to data stored with the previous one.
@Suite struct ModelEvolutionTests {
    static func spec(_ tokens: [String], rename: String? = nil) throws -> ModelSpec {
        var spec = try SpecParser.parse(modelName: "Book", fieldTokens: ["id:UUID"] + tokens)
        if let rename { try SpecParser.applyRenames(rename, to: &spec) }
        return spec
    }

    static func effects(
        from old: [String], to new: [String], rename: String? = nil
    ) throws -> [ModelEvolution.Effect] {
        ModelEvolution(previous: try spec(old), next: try spec(new, rename: rename))
            .changes.map(\.effect)
    }

    @Test(arguments: [
        (["title"], ["title", "pages:Int?"]),  // a new optional field
        (["title"], ["title", "pages:Int=0"]),  // a new field with a default
        (["rating:Int"], ["rating:Int?"]),  // a field that becomes optional
        (["s:enum(a,b)"], ["s:enum(a,b,c)"]),  // a new enum case
        (["title"], ["headline"]),  // a rename (below)
        (["shelf=main"], ["shelf=attic"]),  // another default
    ])
    func compatibleChangesAreNotes(old: [String], new: [String]) throws {
        let rename = new == ["headline"] ? "title=headline" : nil
        #expect(try Self.effects(from: old, to: new, rename: rename) == [.compatible])
    }

    @Test(arguments: [
        (["title"], ["title", "pages:Int"]),  // a new required field without a default
        (["rating:Int?"], ["rating:String?"]),  // a type change
        (["rating:Int?"], ["rating:Int"]),  // optional to required
        (["s:enum(a,b)"], ["s:enum(a)"]),  // a removed enum case
        (["count:Int=0"], ["count:Int"]),  // a default removed
    ])
    func breakingChangesAreRefused(old: [String], new: [String]) throws {
        #expect(try Self.effects(from: old, to: new) == [.breaksStoredData])
    }

    /// A reference, `:unique` or `:index` added, removed or changed leaves the stored JSON as
    /// it is: the store opens, keeps every value, and says which ones no longer fit.
    @Test(arguments: [
        (["folderID:UUID"], ["folder:references(Folder)"], "danglingReferences()"),
        (["folder:references(Folder)"], ["folderID:UUID"], "no longer refers to Folder"),
        (
            ["folder:references(Folder)"], ["folder:references(Folder,cascade)"],
            "now follows cascade"
        ),
        (["email"], ["email:String:unique"], "duplicates() lists them"),
        (["email:String:unique"], ["email"], "no longer unique and has no index"),
        (["title"], ["title:String:index"], "has an index now"),
        (["title:String:index"], ["title"], "has no index of its own now"),
    ])
    func relationChangesOpenTheStoreAndSaySo(old: [String], new: [String], says: String) throws {
        let evolution = ModelEvolution(previous: try Self.spec(old), next: try Self.spec(new))
        #expect(evolution.changes.map(\.effect) == [.compatible])
        #expect(evolution.changes.first?.message.contains(says) == true, "\(evolution.changes)")
    }

    @Test func anIDTypeChangeIsRefusedByName() throws {
        let previous = try Self.spec(["title"])
        var next = try SpecParser.parse(modelName: "Book", fieldTokens: ["id:Int", "title"])

        #expect {
            try ModelEvolution.check(&next, previous: previous)
        } throws: { error in
            let message = (error as? any BadInput)?.message ?? ""
            return message.contains(
                "the id type cannot change from UUID to Int, not even with --migrate")
                && message.contains("Nothing was written")
        }
    }

    @Test func aRemovedFieldWarnsAndSuggestsARenameToAnAddedFieldOfItsType() throws {
        let evolution = ModelEvolution(
            previous: try Self.spec(["title", "rating:Int?"]),
            next: try Self.spec(["headline=Untitled", "rating:Int?"]))

        #expect(evolution.changes.map(\.effect) == [.compatible, .dropsValues])
        #expect(evolution.changes[1].message.contains("--rename title=headline"))
    }

    @Test func aNewRequiredFieldIsRefusedWithBothFixes() throws {
        var next = try Self.spec(["title", "pages:Int"])

        #expect {
            try ModelEvolution.check(&next, previous: try Self.spec(["title"]))
        } throws: { error in
            let message = (error as? any BadInput)?.message ?? ""
            return message.contains("pages:Int=0") && message.contains("pages:Int?")
        }
    }

    @Test func aRecordedRenameIsKeptWhenTheModelIsGeneratedAgainWithoutIt() throws {
        let previous = try Self.spec(["headline"], rename: "title=headline")
        var next = try Self.spec(["headline", "pages:Int?"])

        _ = try ModelEvolution.check(&next, previous: previous)

        #expect(next.fields.first { $0.name == "headline" }?.formerName == "title")
    }

    @Test func aNewFieldWithARenamedFieldsFormerNameIsWarnedAbout() throws {
        let previous = try Self.spec(["headline"], rename: "title=headline")
        var next = try Self.spec(["headline", "title=\"\""])

        let report = try ModelEvolution.check(&next, previous: previous)

        #expect(
            report.warnings.contains {
                $0.severity == .warning
                    && $0.message.contains("title was renamed to headline before")
                    && $0.message.contains("not into headline")
            })
    }

    @Test(arguments: [
        ("title=missing", "has no field 'missing'"),
        ("headline=title", "'headline' is still a field"),
        ("x=id", "id cannot be renamed"),
        ("title", "is not OLD=NEW"),
        ("id=isbn", "the id field cannot be renamed"),
    ])
    func badRenamesAreRefused(rename: String, message: String) throws {
        var spec = try SpecParser.parse(
            modelName: "Book", fieldTokens: ["id:UUID", "title", "headline"])

        #expect {
            try SpecParser.applyRenames(rename, to: &spec)
        } throws: { error in
            (error as? any BadInput)?.message.contains(message) == true
        }
    }

    // MARK: - Stored data, written by one version and opened by the next

    /// BookV1 (`title`, `rating:Int?`) and BookV2 (`title` renamed to `headline`, `rating`
    /// removed, `pages:Int?` and `status=draft` added) are the goldens evolution-v1 and -v2,
    /// compiled into this package: a store BookV1 wrote opens with BookV2, values carried over.
    @Test func aStoreWrittenByTheFirstVersionOpensWithTheNextAndKeepsItsValues() async throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let ids = (0..<5).map { UUID(uuidString: "00000000-0000-4000-8000-00000000000\($0)")! }
        let first = try BookV1.BookRepository(directory: folder)
        // A batch goes to the snapshot, single saves to the journal: both are read back.
        try await first.save(
            contentsOf: ids.prefix(3).map { BookV1.Book(id: $0, title: "t\($0)", rating: 4) })
        for id in ids.dropFirst(3) {
            try await first.save(BookV1.Book(id: id, title: "t\(id)", rating: nil))
        }
        await first.close()

        let next = try BookV2.BookRepository(directory: folder)

        let expected = ids.map {
            BookV2.Book(id: $0, headline: "t\($0)", pages: nil, status: .draft)
        }
        #expect(await next.loadAll() == expected)
        // Written back under the new names, the values survive a compaction and a reopen.
        try await next.compact()
        await next.close()
        let again = try BookV2.BookRepository(directory: folder)
        #expect(await again.loadAll() == expected)
    }

    @Test func aStoreThatDoesNotFitTheModelIsIncompatibleNotDamaged() async throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let snapshot = folder.appendingPathComponent(BookV2.BookRepository.snapshotFileName)
        // Intact JSON, with its checksum line, that lacks the required `headline` (and `title`).
        let json = Data(
            #"{"items":[{"id":"00000000-0000-4000-8000-000000000001"}],"schemaVersion":1}"#.utf8)
        let first = try BookV1.BookRepository(directory: folder)
        await first.close()
        try json.write(to: snapshot)

        #expect {
            try BookV2.BookRepository(directory: folder)
        } throws: { error in
            guard case .incompatible(let file, _) = error as? BookV2.BookRepositoryError else {
                return false
            }
            return file.lastPathComponent == snapshot.lastPathComponent
                && !"\(error)".contains("damaged") && "\(error)".contains("Do not delete the file")
        }
        #expect(try Data(contentsOf: snapshot) == json)
    }

    /// Examples/4-ModelChange is at schema version 3. A journal record that version 1 wrote
    /// after the snapshot (generation 1) still replays when the store opens: it says its
    /// version, so its values go through both migrations.
    @Test func aJournalRecordWrittenByAnEarlierVersionIsMigratedWhenReplayed() async throws {
        let folder = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(folder) }
        let current = Recipe(
            id: UUID(uuidString: "00000000-0000-4000-8000-000000000001")!, name: "Bread",
            servings: 4, minutes: 90, level: .hard)
        let store = try RecipeRepository(directory: folder)
        try await store.save(contentsOf: [current])
        await store.close()
        let old = Recipe.V1(
            id: UUID(uuidString: "00000000-0000-4000-8000-000000000002")!, title: "Soup",
            servings: nil, level: .hard)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let payload =
            Data(#"{"generation":1,"save":["#.utf8) + (try encoder.encode(old))
            + Data(#"],"version":1}"#.utf8)
        let line = payload + Data(" \(Self.crc32Hex(payload))\n".utf8)
        let journal = folder.appendingPathComponent(RecipeRepository.journalFileName)
        try (try Data(contentsOf: journal) + line).write(to: journal)

        let reopened = try RecipeRepository(directory: folder)

        // The migrations in Examples/4-ModelChange: unknown servings are 2, a hard recipe 60 min.
        let expected = Recipe(id: old.id, name: "Soup", servings: 2, minutes: 60, level: .hard)
        #expect(await reopened.loadAll() == [current, expected])
    }

    /// The journal's checksum: CRC-32 as zip computes it, in eight lower-case hex digits.
    static func crc32Hex(_ bytes: Data) -> String {
        var crc = ~UInt32(0)
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        let digits = String(~crc, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// The default a message suggests for a field (`=0`, `=nil`) is one the field language
    /// takes, for every type.
    @Test(arguments: BaseType.allCases)
    func theSuggestedDefaultOfEveryTypeParses(base: BaseType) throws {
        let types: [FieldType] = [
            .base(base), .optional(.base(base)), .array(.base(base)), .dictionary(.base(base)),
            .enumeration(name: "Status", cases: ["draft", "done"]),
        ]
        for type in types {
            let example = ModelEvolution.exampleDefault(type)
            #expect(throws: Never.self, "\(type): \(example)") {
                try DefaultParser.parse(example, for: type, in: "field")
            }
        }
    }

    /// The field language's page lists every type.
    @Test func theFieldLanguagePageListsEveryType() throws {
        let page = try #require(
            TestPaths.text(
                TestPaths.repositoryRoot.appendingPathComponent("Documentation/field-language.md")))
        let types = try #require(page.split(separator: "\n").first { $0.hasPrefix("| types |") })

        for base in BaseType.allCases {
            #expect(types.contains("`\(base.rawValue)`"), "\(base.rawValue)")
        }
    }
}
