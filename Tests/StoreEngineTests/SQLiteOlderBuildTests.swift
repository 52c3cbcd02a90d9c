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
struct LabelBeforeTheRename: StoredValue {
    var id: Int
    var name: String

    static let schemaVersion = 1
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
}
