import Foundation
import Testing

@testable import StoreEngine

/// The store's own records of a table (its schema version, layout and references, an import's
/// progress) have no checksum: a byte damaged there is found out, or written again, and never
/// keeps the table's values from opening.
@Suite struct SQLiteBookkeepingTests {
    let folder: URL
    var file: URL { folder.appendingPathComponent("Store.sqlite") }

    init() {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("SQLiteBookkeepingTests-\(UUID().uuidString)")
    }

    func item(_ number: Int) -> Item { Item(id: number, title: "Item \(number)", count: 7) }

    func recordedVersions(in database: SQLiteDatabase<ItemError>) throws -> [Int64] {
        var versions: [Int64] = []
        try database.run("SELECT version FROM store_tables WHERE name = 'items'") {
            versions.append($0.int64(at: 0))
        }
        return versions
    }

    @Test func aVersionRecordedAboveEveryRowsIsDamageAndIsWrittenAgain() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        try SQLiteTable<Item, ItemError>("items", in: database).commit(.saved([item(1)]))
        try database.execute("UPDATE store_tables SET version = 66")

        let items = try SQLiteTable<Item, ItemError>("items", in: database)

        #expect(try items.find(1) == item(1))
        #expect(try recordedVersions(in: database) == [2])
    }

    @Test func aLostVersionRecordStillMigratesTheRowsOfAnEarlierVersion() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        _ = try SQLiteTable<Item, ItemError>("items", in: database)
        try SQLiteStoreTests().insertRow(
            Data(#"{"count":5,"id":1,"title":"Old"}"#.utf8), id: 1, version: 1, in: database)
        // The record's name damaged: no record of the table is found.
        try database.execute("UPDATE store_tables SET name = 'itens'")

        let items = try SQLiteTable<Item, ItemError>("items", in: database)

        var rows: [String] = []
        try database.run("SELECT version || ' ' || value FROM items") {
            rows.append($0.text(at: 0))
        }
        // Migrated in the table, where SQL queries and indexes read it, not only when decoded.
        #expect(rows == [#"2 {"count":5,"id":1,"title":"Old"}"#])
        #expect(try items.find(1) == Item(id: 1, title: "Old", count: 5))
        #expect(try recordedVersions(in: database) == [2])
    }

    @Test func aVersionRecordSQLiteFindsMalformedIsWrittenAgain() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var database = try SQLiteDatabase<ItemError>(file: file)
        try SQLiteTable<Item, ItemError>("items", in: database).commit(.saved([item(1)]))
        database.close()
        // The record ("items", 2): its header says 3 bytes, a 5-byte text and a 1-byte integer.
        // A byte of it damaged to say a 57-byte text, longer than the record.
        var bytes = try Data(contentsOf: file)
        let record = Data([0x03, 0x17, 0x01]) + Data("items".utf8) + Data([0x02])
        let found = bytes.ranges(of: record)
        try #require(found.count == 1)
        bytes[found[0].lowerBound + 1] = 0x7F
        try bytes.write(to: file)
        database = try SQLiteDatabase<ItemError>(file: file)
        #expect(throws: ItemError.self) { try recordedVersions(in: database) }

        let items = try SQLiteTable<Item, ItemError>("items", in: database)

        #expect(try items.find(1) == item(1))
        #expect(try recordedVersions(in: database) == [2])
        #expect(database.isEveryPageSound())
    }

    /// The first table to open finds a damaged reference record, whichever table's it is:
    /// every delete reads them. The records that still read are kept, so an open table's rules
    /// still apply.
    @Test func aReferenceRecordSQLiteFindsMalformedIsFoundByAnyTableAndTheOthersAreKept() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let shelfSchema = SQLiteSchema<Shelf>(model: "Shelf")
        let bookSchema = SQLiteSchema<Book>(
            model: "Book",
            references: [
                SQLiteReference(
                    field: "shelfID", table: "shelves", rule: .cascade, parentID: \.shelfID)
            ])
        let pageSchema = SQLiteSchema<Page>(
            model: "Page",
            references: [
                SQLiteReference(field: "bookID", table: "books", rule: .cascade, parentID: \.bookID)
            ])
        var database = try SQLiteDatabase<ItemError>(file: file)
        let shelf = Shelf(id: UUID(), name: "Fiction", rank: 1)
        try SQLiteTable("shelves", in: database, schema: shelfSchema).commit(.saved([shelf]))
        try SQLiteTable("books", in: database, schema: bookSchema)
            .commit(.saved([Book(id: 1, shelfID: shelf.id, title: "Book 1")]))
        try SQLiteTable("pages", in: database, schema: pageSchema)
            .commit(.saved([Page(id: "1-1", bookID: 1)]))
        database.close()
        // The record (pages, bookID, Page, books, cascade): its first column's length damaged.
        var bytes = try Data(contentsOf: file)
        let found = bytes.ranges(of: Data("pagesbookIDPagebookscascade".utf8))
        try #require(found.count == 1)
        bytes[found[0].lowerBound - 5] = 0x7F
        try bytes.write(to: file)
        database = try SQLiteDatabase<ItemError>(file: file)

        // Only the shelves open: the books' record is kept, and deleting a shelf cascades.
        let shelves = try SQLiteTable("shelves", in: database, schema: shelfSchema)
        try shelves.commit(.deleted([shelf.id]))

        var books: Int64 = -1
        try database.run("SELECT count(*) FROM books") { books = $0.int64(at: 0) }
        #expect(books == 0)
        #expect(database.isEveryPageSound())
        // The pages' record is written again when their table opens.
        let pages = try SQLiteTable("pages", in: database, schema: pageSchema)
        #expect(try pages.recordedReferences() == pages.declaredReferences())
    }
}
