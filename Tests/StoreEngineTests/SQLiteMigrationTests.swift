import Foundation
import Testing

@testable import StoreEngine
@testable import StoreEngineTestSupport

/// A model whose version 1 stored its count as text: the migration converts the counts that
/// are numbers, and leaves the others to decide.
struct Counted: StoredValue {
    var id: Int
    var count: Int64

    static let schemaVersion = 2
    static func precedes(_ first: Int, _ second: Int) -> Bool { first < second }
    static func decodeStored(_ version: Int, from decoder: any Decoder) throws -> [Counted] {
        switch version {
        case 1: try [V1](from: decoder).migrated()
        default: try [Counted](from: decoder)
        }
    }

    struct V1: Codable, Sendable, Hashable, FrozenVersion {
        var id: Int
        var count: String

        func migrated() throws -> Counted {
            Counted(id: id, count: try Int64(count).map { $0 } ?? undecided("count"))
        }
    }
}

/// A migration of a table is one transaction: every row of the earlier version, read a page
/// at a time, or none, so that no delete rule or query ever sees rows of two versions.
@Suite struct SQLiteMigrationTests {
    let folder: URL
    var file: URL { folder.appendingPathComponent("Store.sqlite") }

    init() {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("SQLiteMigrationTests-\(UUID().uuidString)")
    }

    func rows(ofVersion version: Int) throws -> Int {
        let database = try SQLiteDatabase<ItemError>(file: file)
        defer { database.close() }
        var count = 0
        try database.run("SELECT count(*) FROM counts WHERE version = \(version)") {
            count = Int($0.int64(at: 0))
        }
        return count
    }

    /// A table of `counts` (text, as version 1 stored them), recorded at version 1.
    func writeVersion1(_ counts: [(Int, String)]) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            let database = try SQLiteDatabase<ItemError>(file: file)
            _ = try SQLiteTable<Counted, ItemError>("counts", in: database)
            database.close()
        }
        let earlier = counts.map { Counted.V1(id: $0.0, count: $0.1) }
        try StoredRows.insert(
            earlier, ids: earlier.map(\.id), version: 1, into: "counts", in: file)
        try StoredRows.execute("UPDATE store_tables SET version = 1", in: file)
    }

    @Test func everyPageOfRowsIsMigrated() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeVersion1((1...2_500).map { ($0, "\($0)") })
        let database = try SQLiteDatabase<ItemError>(file: file)

        let table = try SQLiteTable<Counted, ItemError>("counts", in: database)

        #expect(try table.find(2_500)?.count == 2_500)
        #expect(try table.count() == 2_500)
        database.close()
        #expect(try rows(ofVersion: 2) == 2_500)
    }

    @Test func aValueToDecideLeavesEveryRowAsItWas() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeVersion1((1...1_500).map { ($0, "5") } + [(2_000, "many")])

        #expect(throws: (any Error).self) {
            _ = try SQLiteTable<Counted, ItemError>(
                "counts", in: SQLiteDatabase<ItemError>(file: file))
        }

        #expect(try rows(ofVersion: 1) == 1_501)
        #expect(try rows(ofVersion: 2) == 0)
    }

    /// A byte of the file makes row 2's key 3, row 3's. SQLite's search for 3 lands on row 2,
    /// so rewriting row 3 would replace row 2, and row 2's value would be gone with no copy:
    /// row 3 is left unmigrated, and both wait for `recover`, which keeps row 2's bytes.
    @Test func aRowWhoseKeyADamagedRowNowHasIsNotRewrittenOverIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeVersion1([(1, "1"), (2, "2"), (3, "3")])
        var bytes = try Data(contentsOf: file)
        let count = try #require(bytes.range(of: Data(#""count":"2""#.utf8))).lowerBound
        let body = try #require(bytes[..<count].lastIndex(of: UInt8(ascii: "{")))
        try #require(bytes[body - 1] == 2)
        bytes[body - 1] = 3
        try bytes.write(to: file)
        let database = try SQLiteDatabase<ItemError>(file: file)
        defer { database.close() }

        let table = try SQLiteTable<Counted, ItemError>("counts", in: database)

        #expect(try rows(ofVersion: 1) == 2)
        #expect(try table.find(1)?.count == 1)
        _ = try SQLiteTable<Counted, ItemError>.recover(
            "counts", schema: SQLiteSchema(model: "Counted"), file: file)
        var kept: [String] = []
        try database.run("SELECT value FROM store_damaged_rows") { kept.append($0.text(at: 0)) }
        #expect(kept.count == 1 && kept[0].contains(#""count":"2""#), "\(kept)")
        #expect(try table.find(3)?.count == 3)
        #expect(try table.count() == 2)
    }

    /// The first byte of the table's last key damaged into one that no UTF-8 text starts with
    /// (`zebra` read as `\u{FFFD}ebra`, which sorts before it): the migration's pages go on past
    /// it rather than starting again at it for ever, and `recover` sets the row aside.
    @Test func aKeyDamagedOutOfUTF8DoesNotHoldTheMigrationAtItsRow() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            let database = try SQLiteDatabase<ItemError>(file: file)
            _ = try SQLiteTable<Page, ItemError>("pages", in: database)
            database.close()
        }
        let pages =
            (1...1_000).map { Page(id: String(format: "page-%04d", $0), bookID: $0) }
            + [Page(id: "zebra", bookID: 0)]
        try StoredRows.insert(pages, ids: pages.map(\.id), version: 0, into: "pages", in: file)
        try StoredRows.execute("UPDATE store_tables SET version = 0", in: file)
        var bytes = try Data(contentsOf: file)
        let key = try #require(bytes.range(of: Data(#"zebra{"bookID""#.utf8))).lowerBound
        bytes[key] = 0xFA
        try bytes.write(to: file)
        let database = try SQLiteDatabase<ItemError>(file: file)
        defer { database.close() }

        let table = try SQLiteTable<Page, ItemError>("pages", in: database)

        #expect(try table.find("page-1000")?.bookID == 1_000)
        var versions: [Int64: Int64] = [:]
        try database.run("SELECT version, count(*) FROM pages GROUP BY version") {
            versions[$0.int64(at: 0)] = $0.int64(at: 1)
        }
        #expect(versions == [0: 1, 1: 1_000])
        let recovery = try SQLiteTable<Page, ItemError>.recover(
            "pages", schema: SQLiteSchema(model: "Page"), file: file)
        #expect(recovery.valuesKept == 1_000 && recovery.setAside.count == 1)
        #expect(try table.count() == 1_000)
    }

    @Test func aDamagedRowIsLeftAsItIsAndTheOthersMigrate() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeVersion1((1...1_200).map { ($0, "\($0)") })
        try StoredRows.execute(
            "UPDATE counts SET value = replace(value, '7', '8') WHERE id = 7", in: file)
        let database = try SQLiteDatabase<ItemError>(file: file)

        let table = try SQLiteTable<Counted, ItemError>("counts", in: database)

        #expect(try table.find(1_200)?.count == 1_200)
        #expect {
            _ = try table.find(7)
        } throws: { error in
            guard case ItemError.corrupt(_, _, let reason) = error else { return false }
            return reason.contains("checksum")
        }
        database.close()
        #expect(try rows(ofVersion: 2) == 1_199)
        #expect(try rows(ofVersion: 1) == 1)
    }
}
