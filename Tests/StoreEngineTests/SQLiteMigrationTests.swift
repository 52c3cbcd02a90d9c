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

/// A migration goes 1,000 rows to a transaction, so that one killed on the way (a slow launch)
/// goes on from there at the next open instead of starting over.
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

    @Test func aValueToDecideStopsTheMigrationThereAndTheNextOpenGoesOn() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            let database = try SQLiteDatabase<ItemError>(file: file)
            _ = try SQLiteTable<Counted, ItemError>("counts", in: database)
            database.close()
        }
        let earlier =
            (1...1_500).map { Counted.V1(id: $0, count: "5") }
            + [Counted.V1(id: 2_000, count: "many")]
        try StoredRows.insert(earlier, ids: earlier.map(\.id), version: 1, into: "counts", in: file)
        try StoredRows.execute("UPDATE store_tables SET version = 1", in: file)

        #expect(throws: (any Error).self) {
            _ = try SQLiteTable<Counted, ItemError>(
                "counts", in: SQLiteDatabase<ItemError>(file: file))
        }

        // The first 1,000 committed; the page with the undecided value did not.
        #expect(try rows(ofVersion: 2) == 1_000)
        #expect(try rows(ofVersion: 1) == 501)
        try StoredRows.insert(
            [Counted.V1(id: 2_000, count: "7")], ids: [2_000], version: 1, into: "counts", in: file)

        let database = try SQLiteDatabase<ItemError>(file: file)
        let table = try SQLiteTable<Counted, ItemError>("counts", in: database)

        #expect(try table.find(2_000)?.count == 7)
        #expect(try table.find(1_500)?.count == 5)
        database.close()
        #expect(try rows(ofVersion: 2) == 1_501)
        var version = 0
        let check = try SQLiteDatabase<ItemError>(file: file)
        try check.run("SELECT version FROM store_tables WHERE name = 'counts'") {
            version = Int($0.int64(at: 0))
        }
        check.close()
        #expect(version == 2)
    }
}
