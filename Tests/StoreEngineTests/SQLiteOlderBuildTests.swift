import Foundation
import Testing

@testable import StoreEngine
@testable import StoreEngineTestSupport

/// `Counted` as its version 1 declared it: its count as text.
struct CountedAtVersion1: StoredValue {
    var id: Int
    var count: String

    static let schemaVersion = 1
    static func precedes(_ first: Int, _ second: Int) -> Bool { first < second }
}

/// `Label` as a build before `--rename name=title` and the new `pinned` declared it.
struct LabelBeforeTheRename: StoredValue, Equatable {
    var id: Int
    var name: String

    static let schemaVersion = 1
    static func precedes(_ first: Int, _ second: Int) -> Bool { first < second }
}

/// `LabelBeforeTheRename` as a release that keeps a newer build's keys writes it, as generated
/// code does: `title`, and the mark `name>title`, are written back as they were found.
struct LabelKeepingNewerKeys: StoredValue, Equatable {
    var id: Int
    var name: String

    static let schemaVersion = 1
    static let knownKeys: Set<String>? = ["id", "name"]
    static func precedes(_ first: Int, _ second: Int) -> Bool { first < second }
}

/// An app's older build that is still running (an extension not updated yet) while a newer one
/// migrates a table or changes its layout: what it writes after that is never left where the
/// newer build's queries cannot see it.
@Suite struct SQLiteOlderBuildTests {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("SQLiteOlderBuildTests-\(UUID().uuidString)")
    var file: URL { folder.appendingPathComponent("Store.sqlite") }

    func count(_ sql: String) throws -> Int {
        let database = try SQLiteDatabase<ItemError>(file: file)
        defer { database.close() }
        var count = 0
        try database.run(sql) { count = Int($0.int64(at: 0)) }
        return count
    }

    /// After a newer build migrated the table's rows, the older one's save is refused,
    /// nothing written, as its open would be.
    @Test func anOlderBuildsSaveAfterAMigrationIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let older = try SQLiteDatabase<ItemError>(file: file)
        defer { older.close() }
        let olderTable = try SQLiteTable<CountedAtVersion1, ItemError>("counts", in: older)
        try olderTable.commit(.saved([CountedAtVersion1(id: 1, count: "1")]))
        do {
            let newer = try SQLiteDatabase<ItemError>(file: file)
            defer { newer.close() }
            _ = try SQLiteTable<Counted, ItemError>("counts", in: newer)
        }

        #expect(throws: ItemError.newerSchema(file: file, found: 2, supported: 1)) {
            try olderTable.commit(.saved([CountedAtVersion1(id: 2, count: "2")]))
        }
        #expect(try count("SELECT count(*) FROM counts WHERE version = 1") == 0)
        #expect(try count("SELECT count(*) FROM counts") == 1)
    }

    /// A version record above every row's (a damaged byte, or an empty table that a newer
    /// build made) stops no save: it is taken over, as opening takes it over, and the newer
    /// build's next open migrates what the older one saved.
    @Test func aVersionRecordAboveEveryRowsIsTakenOverBySaves() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let older = try SQLiteDatabase<ItemError>(file: file)
        defer { older.close() }
        let olderTable = try SQLiteTable<CountedAtVersion1, ItemError>("counts", in: older)
        do {
            let newer = try SQLiteDatabase<ItemError>(file: file)
            defer { newer.close() }
            _ = try SQLiteTable<Counted, ItemError>("counts", in: newer)
        }
        #expect(try count("SELECT version FROM store_tables WHERE name = 'counts'") == 2)

        try olderTable.commit(.saved([CountedAtVersion1(id: 1, count: "1")]))

        #expect(try count("SELECT version FROM store_tables WHERE name = 'counts'") == 1)
        let newer = try SQLiteDatabase<ItemError>(file: file)
        defer { newer.close() }
        let table = try SQLiteTable<Counted, ItemError>("counts", in: newer)
        #expect(try table.find(1) == Counted(id: 1, count: 1))
        #expect(try count("SELECT count(*) FROM counts WHERE version = 2") == 1)
    }

    /// Whatever the table's records say, an older build's save never writes over a row that a
    /// newer build saved: the newer fields would be lost.
    @Test func anOlderBuildNeverWritesOverANewerBuildsRow() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let older = try SQLiteDatabase<ItemError>(file: file)
        defer { older.close() }
        let olderTable = try SQLiteTable<CountedAtVersion1, ItemError>("counts", in: older)
        let newer = try SQLiteDatabase<ItemError>(file: file)
        defer { newer.close() }
        let newerTable = try SQLiteTable<Counted, ItemError>("counts", in: newer)
        // The table was empty: the older build takes its record over, and both go on.
        try olderTable.commit(.saved([CountedAtVersion1(id: 2, count: "2")]))
        try newerTable.commit(.saved([Counted(id: 1, count: 1)]))

        #expect(throws: ItemError.newerSchema(file: file, found: 2, supported: 1)) {
            try olderTable.commit(.saved([CountedAtVersion1(id: 1, count: "9")]))
        }
        #expect(try newerTable.find(1) == Counted(id: 1, count: 1))
        #expect(try count("SELECT count(*) FROM counts WHERE version = 2") == 1)
    }

    /// After a newer build rewrote the rows for a renamed field, the older build's save goes
    /// through, and leaves the table to be rewritten: the newer build's next open finds the row
    /// it wrote, and SQL reads it under the new name.
    @Test func anOlderBuildsSaveAfterARenameIsRewrittenAtTheNextOpen() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let newSchema = SQLiteSchema<Label>(
            model: "Label", unique: ["title"], storedKeys: ["id", "note?", "pinned", "title"],
            renamed: ["name": "title"])
        let older = try SQLiteDatabase<ItemError>(file: file)
        defer { older.close() }
        let olderTable = try SQLiteTable<LabelBeforeTheRename, ItemError>(
            "labels", in: older,
            schema: SQLiteSchema(model: "Label", storedKeys: ["id", "name"]))
        try olderTable.commit(.saved([LabelBeforeTheRename(id: 1, name: "One")]))
        do {
            let newer = try SQLiteDatabase<ItemError>(file: file)
            defer { newer.close() }
            _ = try SQLiteTable("labels", in: newer, schema: newSchema)
        }

        try olderTable.commit(.saved([LabelBeforeTheRename(id: 2, name: "Two")]))

        let newer = try SQLiteDatabase<ItemError>(file: file)
        defer { newer.close() }
        let table = try SQLiteTable("labels", in: newer, schema: newSchema)
        #expect(try table.find(2) == Label(id: 2, title: "Two"))
        var titles: [String] = []
        try newer.run("SELECT json_extract(value, '$.title') FROM labels ORDER BY id") {
            titles.append($0.text(at: 0))
        }
        #expect(titles == ["One", "Two"])
    }

    /// While both builds run, the newer one (of the later revision) finds the older one's
    /// writes at its next query or save, without opening again: it rewrites the rows the
    /// change log names, so its queries read them and its `:unique` check counts them.
    @Test func aNewerBuildReadsAnOlderBuildsSavesWithoutOpeningAgain() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let older = try SQLiteDatabase<ItemError>(file: file)
        defer { older.close() }
        let olderTable = try SQLiteTable<LabelBeforeTheRename, ItemError>(
            "labels", in: older,
            schema: SQLiteSchema(model: "Label", storedKeys: ["id", "name"], revision: 1))
        try olderTable.commit(.saved([LabelBeforeTheRename(id: 1, name: "One")]))
        let newer = try SQLiteDatabase<ItemError>(file: file)
        defer { newer.close() }
        let table = try SQLiteTable(
            "labels", in: newer,
            schema: SQLiteSchema<Label>(
                model: "Label", unique: ["title"], storedKeys: ["id", "note?", "pinned", "title"],
                renamed: ["name": "title"], revision: 2))
        let title = QueryField<Label, String>("title") { $0.title }

        try olderTable.commit(.saved([LabelBeforeTheRename(id: 2, name: "Two")]))

        #expect(try table.values(StoreQuery().filter(title.isEqual(to: "Two"))).map(\.id) == [2])
        try olderTable.commit(.saved([LabelBeforeTheRename(id: 3, name: "Three")]))
        #expect(throws: ItemError.notUnique(field: "title", value: "Three")) {
            try table.commit(.saved([Label(id: 4, title: "Three")]))
        }
        let stored = try json(of: 3, in: "labels")
        #expect(
            stored == #"{"id":3,"name":"Three","name>title":true,"pinned":false,"title":"Three"}"#,
            "\(stored)")
        // The older build goes on, and finds its values as it wrote them.
        try olderTable.commit(.saved([LabelBeforeTheRename(id: 3, name: "Drei")]))
        #expect(try olderTable.find(3) == LabelBeforeTheRename(id: 3, name: "Drei"))
        #expect(try table.count(StoreQuery().filter(title.isEqual(to: "Drei"))) == 1)
    }

    /// The newer build writes a renamed field under its former key too, with their mark: the
    /// older build reads its values, and its edit of the field, under the former key, is what
    /// the newer build reads next, and what its queries and `:unique` check find (it was the
    /// value under the new key, which the older build keeps as it found it, and the newer
    /// build's next rewrite erased the edit).
    @Test func anOlderBuildsEditOfARenamedFieldIsReadByTheNewerBuild() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let older = try SQLiteDatabase<ItemError>(file: file)
        defer { older.close() }
        let olderTable = try SQLiteTable<LabelKeepingNewerKeys, ItemError>(
            "labels", in: older,
            schema: SQLiteSchema(model: "Label", storedKeys: ["id", "name"], revision: 1))
        let newer = try SQLiteDatabase<ItemError>(file: file)
        defer { newer.close() }
        let table = try SQLiteTable("labels", in: newer, schema: newerSchema)
        let title = QueryField<Label, String>("title") { $0.title }
        try table.commit(.saved([Label(id: 5, title: "Five", pinned: true)]))

        #expect(try olderTable.find(5) == LabelKeepingNewerKeys(id: 5, name: "Five"))
        try olderTable.commit(.saved([LabelKeepingNewerKeys(id: 5, name: "Fünf")]))

        #expect(try table.find(5) == Label(id: 5, title: "Fünf", pinned: true))
        #expect(try table.values(StoreQuery().filter(title.isEqual(to: "Fünf"))).map(\.id) == [5])
        #expect(throws: ItemError.notUnique(field: "title", value: "Fünf")) {
            try table.commit(.saved([Label(id: 6, title: "Fünf")]))
        }
        #expect(
            try json(of: 5, in: "labels")
                == #"{"id":5,"name":"Fünf","name>title":true,"pinned":true,"title":"Fünf"}"#)
        // An edit that leaves the field as it was changes nothing there.
        try olderTable.commit(.saved([LabelKeepingNewerKeys(id: 5, name: "Fünf")]))
        try table.commit(.saved([Label(id: 5, title: "Cinq", pinned: true)]))
        #expect(try olderTable.find(5) == LabelKeepingNewerKeys(id: 5, name: "Cinq"))
    }

    /// Where the mark is there but the former key is not (a release of the newer build that
    /// does not write the former key saved the value since), the new key is read.
    @Test func withoutTheFormerKeyTheNewKeyIsReadBesideTheMark() throws {
        let decoder = JSONDecoder()
        let saved = #"{"id":1,"name>title":true,"pinned":false,"title":"Saved later"}"#
        #expect(
            try decoder.decode(Label.self, from: Data(saved.utf8))
                == Label(id: 1, title: "Saved later"))
        // Without the mark (the older build saved a value that lacked its key, with its
        // default), the new key is read.
        let defaulted = #"{"id":1,"name":"","pinned":false,"title":"Kept"}"#
        #expect(
            try decoder.decode(Label.self, from: Data(defaulted.utf8))
                == Label(id: 1, title: "Kept"))
    }

    /// The older build (revision 1) with a label saved, and the newer one (revision 2, `name`
    /// renamed `title`, which is `:unique`) open beside it.
    func bothBuilds() throws -> (
        older: SQLiteDatabase<ItemError>, olderTable: SQLiteTable<LabelBeforeTheRename, ItemError>,
        newer: SQLiteDatabase<ItemError>, table: SQLiteTable<Label, ItemError>
    ) {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let older = try SQLiteDatabase<ItemError>(file: file)
        let olderTable = try SQLiteTable<LabelBeforeTheRename, ItemError>(
            "labels", in: older,
            schema: SQLiteSchema(model: "Label", storedKeys: ["id", "name"], revision: 1))
        try olderTable.commit(.saved([LabelBeforeTheRename(id: 1, name: "One")]))
        let newer = try SQLiteDatabase<ItemError>(file: file)
        let table = try SQLiteTable("labels", in: newer, schema: newerSchema)
        return (older, olderTable, newer, table)
    }

    var newerSchema: SQLiteSchema<Label> {
        SQLiteSchema<Label>(
            model: "Label", unique: ["title"], storedKeys: ["id", "note?", "pinned", "title"],
            renamed: ["name": "title"], revision: 2)
    }

    /// A catch-up that a transaction rolls back (a save refused inside `update(id:)`'s
    /// transaction, or a table opened in a transaction that throws) is done again at the next
    /// read: it never counts as done (found by a review: the row was then never rewritten,
    /// not even at the next open, and a second "Two" was stored).
    @Test(arguments: [false, true])
    func aCatchUpRolledBackIsDoneAgain(openingInTheTransaction: Bool) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (older, olderTable, newer, table) = try bothBuilds()
        defer { older.close() }
        defer { newer.close() }
        let title = QueryField<Label, String>("title") { $0.title }
        struct Refused: Error {}

        try olderTable.commit(.saved([LabelBeforeTheRename(id: 2, name: "Two")]))
        #expect(throws: (any Error).self) {
            try newer.transaction {
                if openingInTheTransaction {
                    _ = try SQLiteTable(
                        "labels", in: SQLiteDatabase<ItemError>(sharing: newer),
                        schema: newerSchema)
                    throw Refused()
                }
                try table.commit(.saved([Label(id: 4, title: "Two")]))
            }
        }

        #expect(try table.values(StoreQuery().filter(title.isEqual(to: "Two"))).map(\.id) == [2])
        #expect(throws: ItemError.notUnique(field: "title", value: "Two")) {
            try table.commit(.saved([Label(id: 5, title: "Two")]))
        }
    }

    /// An older build opening the table (as each of its transactions does) leaves the rows in
    /// the newer build's layout, and that build's record: rewriting them as it writes them
    /// read every row, and the newer build's next read rewrote them back (found by a review).
    @Test func anOlderBuildsOpenLeavesTheNewerBuildsLayout() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (older, _, newer, _) = try bothBuilds()
        defer { older.close() }
        defer { newer.close() }
        let layout = try #require(newerSchema.layout)

        _ = try SQLiteTable<LabelBeforeTheRename, ItemError>(
            "labels", in: SQLiteDatabase<ItemError>(sharing: older),
            schema: SQLiteSchema(model: "Label", storedKeys: ["id", "name"], revision: 1))

        var recorded: [String] = []
        try older.run("SELECT keys FROM store_layouts") { recorded.append($0.text(at: 0)) }
        #expect(recorded == [layout])
        #expect(
            try json(of: 1, in: "labels")
                == #"{"id":1,"name":"One","name>title":true,"pinned":false,"title":"One"}"#)
    }

    /// A read never waits for another connection's write to catch up: it reads as things are
    /// (the busy timeout is 5 s; a wait for it would block a view-model's page that long).
    @Test func aReadDoesNotWaitForAnotherWriterToCatchUp() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (older, olderTable, newer, table) = try bothBuilds()
        defer { older.close() }
        defer { newer.close() }
        try olderTable.commit(.saved([LabelBeforeTheRename(id: 2, name: "Two")]))

        try older.execute("BEGIN IMMEDIATE")
        let start = ContinuousClock.now
        let values = try table.values(StoreQuery())
        let waited = ContinuousClock.now - start
        try older.execute("COMMIT")

        #expect(values.map(\.id) == [1, 2])
        #expect(waited < .seconds(4), "a read waited \(waited) for another connection's write")
        #expect(try table.count(StoreQuery()) == 2)
        #expect(
            try json(of: 2, in: "labels")
                == #"{"id":2,"name":"Two","name>title":true,"pinned":false,"title":"Two"}"#)
    }

    /// `Book` before `--rename holderID=shelfID`, its reference optional, keeping a newer
    /// build's keys as generated code does.
    struct ShelvedBookBefore: StoredValue {
        var id: Int
        var holderID: UUID?
        var title: String

        static let schemaVersion = 1
        static let knownKeys: Set<String>? = ["holderID", "id", "title"]
        static func precedes(_ first: Int, _ second: Int) -> Bool { first < second }
    }

    /// The newer build's schema of books: `holderID` renamed `shelfID`, with `rule`.
    func shelvedBookSchema(_ rule: DeleteRule) -> SQLiteSchema<ShelvedBook> {
        SQLiteSchema(
            model: "Book",
            references: [
                SQLiteReference(field: "shelfID", table: "shelves", rule: rule, parentID: \.shelfID)
            ],
            storedKeys: ["id", "shelfID?", "title"], renamed: ["holderID": "shelfID"], revision: 2)
    }

    /// Shelves and books as the older build (revision 1) and the newer one (revision 2, which
    /// renamed `holderID` to `shelfID`) open them beside each other, both with `rule`.
    struct ShelvedBuilds {
        let older: SQLiteDatabase<ItemError>
        let olderShelves: SQLiteTable<Shelf, ItemError>
        let olderBooks: SQLiteTable<ShelvedBookBefore, ItemError>
        let newer: SQLiteDatabase<ItemError>
        let shelves: SQLiteTable<Shelf, ItemError>
        let books: SQLiteTable<ShelvedBook, ItemError>
    }

    func shelvedBuilds(_ rule: DeleteRule) throws -> ShelvedBuilds {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let older = try SQLiteDatabase<ItemError>(file: file)
        let olderShelves = try SQLiteTable<Shelf, ItemError>("shelves", in: older)
        let olderBooks = try SQLiteTable<ShelvedBookBefore, ItemError>(
            "books", in: older,
            schema: SQLiteSchema(
                model: "Book",
                references: [
                    SQLiteReference(
                        field: "holderID", table: "shelves", rule: rule, parentID: \.holderID)
                ],
                storedKeys: ["holderID?", "id", "title"], revision: 1))
        let newer = try SQLiteDatabase<ItemError>(file: file)
        return ShelvedBuilds(
            older: older, olderShelves: olderShelves, olderBooks: olderBooks, newer: newer,
            shelves: try SQLiteTable<Shelf, ItemError>("shelves", in: newer),
            books: try SQLiteTable("books", in: newer, schema: shelvedBookSchema(rule)))
    }

    /// Shelves one and two, and book 1 on shelf one, saved by the newer build.
    func twoShelvesAndABookOnOne(_ builds: ShelvedBuilds) throws -> (one: Shelf, two: Shelf) {
        let (one, two) = (
            Shelf(id: UUID(), name: "One", rank: 1), Shelf(id: UUID(), name: "Two", rank: 2)
        )
        try builds.shelves.commit(.saved([one, two]))
        try builds.books.commit(.saved([ShelvedBook(id: 1, shelfID: one.id, title: "B")]))
        return (one, two)
    }

    /// The older build moves book 1 to `shelf`, as it reads the book.
    func moveTheBook(to shelf: Shelf, in builds: ShelvedBuilds) throws {
        var moved = try #require(try builds.olderBooks.find(1))
        moved.holderID = shelf.id
        try builds.olderBooks.commit(.saved([moved]))
    }

    /// A delete rule follows a renamed reference under its former key too, in either build:
    /// a book that the older build saved (under `holderID`) keeps its shelf from being deleted,
    /// in the newer build before it read the books, and in the older build, which follows the
    /// newer build's records (found by a two-process trial: both deleted the shelf, and left
    /// the book naming it).
    @Test(arguments: [false, true])
    func aRestrictRuleFindsTheOlderBuildsValuesUnderTheFormerKey(deletingInTheOlderBuild: Bool)
        throws
    {
        defer { try? FileManager.default.removeItem(at: folder) }
        let builds = try shelvedBuilds(.restrict)
        defer { builds.older.close() }
        defer { builds.newer.close() }
        let shelf = Shelf(id: UUID(), name: "Fiction", rank: 1)
        try builds.shelves.commit(.saved([shelf]))

        try builds.olderBooks.commit(
            .saved([ShelvedBookBefore(id: 1, holderID: shelf.id, title: "B")]))

        #expect(throws: ItemError.stillReferenced(by: "Book", count: 1)) {
            try (deletingInTheOlderBuild ? builds.olderShelves : builds.shelves).commit(
                .deleted([shelf.id]))
        }
        #expect(try builds.shelves.find(shelf.id) != nil)
    }

    /// A row that holds both keys (the older build moved a book the newer build wrote: it
    /// wrote `holderID` and kept `shelfID` as it found it) is on the shelf its new key names,
    /// as the newer build reads it: a delete of the other shelf neither cascades to it nor is
    /// refused for it (found by a review: the cascade deleted the book).
    @Test(arguments: [DeleteRule.cascade, .restrict])
    func aFormerKeyCountsOnlyWhereTheNewKeyIsMissing(rule: DeleteRule) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let builds = try shelvedBuilds(rule)
        defer { builds.older.close() }
        defer { builds.newer.close() }
        let (one, two) = try twoShelvesAndABookOnOne(builds)
        try moveTheBook(to: two, in: builds)

        try builds.shelves.commit(.deleted([two.id]))

        #expect(try builds.books.find(1)?.shelfID == one.id)
    }

    /// A `null` under the new key of an optional reference reads as no value (the newer build
    /// reads the former key then): a value the older build moved after a nullify left that
    /// `null` is found under its former key by the next delete (found by a review: it kept
    /// naming the deleted shelf in both builds).
    @Test(arguments: [false, true])
    func aNullUnderTheNewKeyLeavesTheFormerKeyToTheDelete(deletingInTheOlderBuild: Bool) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let builds = try shelvedBuilds(.nullify)
        defer { builds.older.close() }
        defer { builds.newer.close() }
        let (one, two) = try twoShelvesAndABookOnOne(builds)
        try builds.shelves.commit(.deleted([one.id]))
        try moveTheBook(to: two, in: builds)

        try (deletingInTheOlderBuild ? builds.olderShelves : builds.shelves).commit(
            .deleted([two.id]))

        #expect(try builds.olderBooks.find(1)?.holderID == nil)
        #expect(try builds.books.find(1)?.shelfID == nil)
    }

    /// A book as the older build left it after the newer build wrote it: both keys.
    struct BookUnderBothKeys: Encodable {
        var id: Int
        var holderID: UUID?
        var shelfID: UUID?
        var title: String

        private enum CodingKeys: String, CodingKey { case id, holderID, shelfID, title }

        /// Writes `null` for a nil key, as a nullify leaves it.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(holderID, forKey: .holderID)
            try container.encode(shelfID, forKey: .shelfID)
            try container.encode(title, forKey: .title)
        }
    }

    /// `dangling()` reads a renamed reference as the newer build decodes it: under the new
    /// key, or under the former one where the new key is missing or `null` (rows the older
    /// build saved that the newer one has not rewritten yet).
    @Test func danglingReadsARenamedReferenceUnderEitherKey() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let builds = try shelvedBuilds(.restrict)
        defer { builds.older.close() }
        defer { builds.newer.close() }
        let shelf = Shelf(id: UUID(), name: "Fiction", rank: 1)
        try builds.shelves.commit(.saved([shelf]))
        try StoredRows.insert(
            [
                BookUnderBothKeys(id: 1, holderID: shelf.id, shelfID: nil, title: "Former, stored"),
                BookUnderBothKeys(id: 2, holderID: UUID(), shelfID: nil, title: "Former, lost"),
                BookUnderBothKeys(id: 3, holderID: nil, shelfID: nil, title: "No shelf"),
                BookUnderBothKeys(id: 4, holderID: UUID(), shelfID: shelf.id, title: "New wins"),
                BookUnderBothKeys(id: 5, holderID: shelf.id, shelfID: UUID(), title: "New lost"),
            ], ids: [1, 2, 3, 4, 5], version: 1, into: "books", in: file)

        #expect(try builds.books.dangling() == [2, 5])
    }

    /// The same revision's records as a release before the former keys' wrote them are this
    /// build's too: it opens without writing them again, so that two releases of the engine
    /// at one revision (an extension built before the update of scaffold-repo) do not rewrite
    /// them, and every row, at each open (found by a review).
    @Test func recordsWithoutTheFormerKeysAreThisRevisionsToo() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            let database = try SQLiteDatabase<ItemError>(file: file)
            defer { database.close() }
            _ = try SQLiteTable<Shelf, ItemError>("shelves", in: database)
            _ = try SQLiteTable("books", in: database, schema: shelvedBookSchema(.nullify))
            var recorded: [String] = []
            try database.run("SELECT field FROM store_references WHERE child = 'books'") {
                recorded.append($0.text(at: 0))
            }
            #expect(recorded.sorted() == ["holderID>shelfID?", "shelfID"])
            // As the release before wrote this revision's records.
            try database.execute("DELETE FROM store_references WHERE field = 'holderID>shelfID?'")
            try database.execute("DROP INDEX \"books.holderID\"")
        }
        let writer = try SQLiteDatabase<ItemError>(file: file)
        defer { writer.close() }
        try writer.execute("BEGIN IMMEDIATE")
        defer { try? writer.execute("ROLLBACK") }
        let database = try SQLiteDatabase<ItemError>(file: file, busyTimeout: 0)
        defer { database.close() }

        #expect(throws: Never.self) {
            _ = try SQLiteTable("books", in: database, schema: shelvedBookSchema(.nullify))
        }
    }

    /// The JSON of the row `id` of `table`, as stored.
    func json(of id: Int, in table: String) throws -> String {
        let database = try SQLiteDatabase<ItemError>(file: file)
        defer { database.close() }
        var json = ""
        try database.run("SELECT value FROM \(table) WHERE id = \(id)") { json = $0.text(at: 0) }
        return json
    }

    /// An older build's save of a value that a newer build wrote with fields it does not know
    /// (`pages`, and `remark`, which the older build knows as `note`) writes them back beside
    /// its own: the newer build reads its fields as it saved them, with the older build's edit,
    /// of `note` too. A `nil` that the older build saves in a renamed optional field without a
    /// default (its key left out) is not seen: the newer build reads its own key then, as it
    /// must where a build that does not write the former key (an earlier release) saved.
    @Test func anOlderBuildsSaveKeepsTheNewerBuildsFieldsOfThatValue() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            let database = try SQLiteDatabase<ItemError>(file: file)
            defer { database.close() }
            try SQLiteTable<NewerBook, ItemError>("books", in: database).commit(
                .saved([NewerBook(id: 1, title: "One", pages: 300, remark: "kept \"as\" is")]))
        }
        do {
            let database = try SQLiteDatabase<ItemError>(file: file)
            defer { database.close() }
            let older = try SQLiteTable<OlderBook, ItemError>("books", in: database)
            #expect(try older.find(1)?.note == "kept \"as\" is")
            try older.commit(.saved([OlderBook(id: 1, title: "One, edited", note: "older")]))
        }
        let database = try SQLiteDatabase<ItemError>(file: file)
        defer { database.close() }
        let newer = try SQLiteTable<NewerBook, ItemError>("books", in: database)
        #expect(try newer.find(1)?.remark == "older")
        do {
            let database = try SQLiteDatabase<ItemError>(file: file)
            defer { database.close() }
            let older = try SQLiteTable<OlderBook, ItemError>("books", in: database)
            try older.commit(.saved([OlderBook(id: 1, title: "One, edited twice")]))
            try older.commit(.saved([OlderBook(id: 2, title: "Two")]))
        }

        #expect(
            try json(of: 1, in: "books")
                == #"{"id":1,"title":"One, edited twice","note>remark":true,"pages":300,"remark":"kept \"as\" is"}"#
        )
        let book = try #require(try newer.find(1))
        #expect(book.title == "One, edited twice")
        #expect(book.pages == 300)
        #expect(book.remark == "kept \"as\" is")
        #expect(try json(of: 2, in: "books") == #"{"id":2,"title":"Two"}"#)
    }

    /// A field the model dropped (`--drop`, listed in its known keys) is not kept by a save,
    /// nor is a field added to the type by hand that the save sets to nil: each goes from the
    /// row as the save says.
    @Test func aSaveDropsADroppedFieldAndClearsAHandAddedOne() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        /// `NewerBook` after `--drop pages`.
        struct BookWithoutPages: StoredValue {
            var id: Int
            var title: String
            var remark: String?

            static let schemaVersion = 1
            static let knownKeys: Set<String>? = [
                "id", "note", "note>remark", "pages", "remark", "title",
            ]
            static func precedes(_ first: Int, _ second: Int) -> Bool { first < second }
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = try SQLiteDatabase<ItemError>(file: file)
        defer { database.close() }
        try SQLiteTable<NewerBook, ItemError>("books", in: database).commit(
            .saved([NewerBook(id: 1, title: "One", pages: 300)]))
        let edited = try SQLiteTable<HandEdited, ItemError>("edited", in: database)
        try edited.commit(.saved([HandEdited(id: 1, extra: "a")]))

        try SQLiteTable<BookWithoutPages, ItemError>("books", in: database).commit(
            .saved([BookWithoutPages(id: 1, title: "One")]))
        try edited.commit(.saved([HandEdited(id: 1, extra: nil)]))

        #expect(try json(of: 1, in: "books") == #"{"id":1,"title":"One"}"#)
        #expect(try edited.find(1)?.extra == nil)
        #expect(try json(of: 1, in: "edited") == #"{"id":1}"#)
    }
}
