import Foundation
import Testing

@testable import StoreEngine

/// The WAL that a crash left: SQLite reads it up to the first frame that fails its checksum,
/// so the first connection mends a frame damaged after its commit was acknowledged, and leaves
/// a last transaction cut short for SQLite to drop.
@Suite struct SQLiteWALTests {
    let folder: URL
    var file: URL { folder.appendingPathComponent("Store.sqlite") }
    var crashed: URL { folder.appendingPathComponent("crashed/Store.sqlite") }
    var crashedWAL: URL { URL(fileURLWithPath: crashed.path + "-wal") }

    init() {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("SQLiteWALTests-\(UUID().uuidString)")
    }

    /// One frame of the WAL: where it starts, its page, and whether it commits a transaction.
    struct Frame {
        let offset: Int
        let page: Int
        let commits: Bool
    }

    /// Items 1, 2 and 3 saved in three transactions, with nothing else in the WAL, and the
    /// database and its WAL copied to `crashed` while the connection is still open, as a crash
    /// (an app killed in the background) leaves them: the WAL's frames, by transaction. The
    /// titles of the items `growing` take pages of their own, so that their transactions write
    /// page 1 (the database's header, whose size they change) too.
    func threeCommitsACrashLeft(growing: Set<Int> = []) throws -> [[Frame]] {
        let database = try SQLiteDatabase<ItemError>(file: file)
        defer { database.close() }
        let items = try SQLiteTable<Item, ItemError>("items", in: database)
        try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        for number in 1...3 {
            let title =
                "Item \(number)"
                + (growing.contains(number) ? String(repeating: "-", count: 20_000) : "")
            try items.commit(.saved([Item(id: number, title: title, count: 7)]))
        }
        try FileManager.default.createDirectory(
            at: crashed.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: file, to: crashed)
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: file.path + "-wal"), to: crashedWAL)
        let wal = try Data(contentsOf: crashedWAL)
        let pageSize = wal[8..<12].reduce(0) { $0 << 8 | Int($1) }
        var transactions: [[Frame]] = [[]]
        for offset in stride(from: 32, to: wal.count, by: 24 + pageSize) {
            let commits = wal[offset + 4..<offset + 8].contains { $0 != 0 }
            let page = wal[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            transactions[transactions.count - 1].append(
                Frame(offset: offset, page: page, commits: commits))
            if commits { transactions.append([]) }
        }
        #expect(transactions.removeLast().isEmpty)
        #expect(transactions.count == 3)
        return transactions
    }

    /// The ids the crashed database holds, opened as the app opens it after the crash.
    func idsAfterTheCrash() throws -> [Int] {
        let database = try SQLiteDatabase<ItemError>(file: crashed)
        defer { database.close() }
        return try SQLiteTable<Item, ItemError>("items", in: database)
            .page(after: nil, limit: 10).map(\.id)
    }

    func flip(_ offset: Int) throws {
        var wal = try Data(contentsOf: crashedWAL)
        wal[offset] ^= 0x01
        try wal.write(to: crashedWAL)
    }

    /// A byte of the second transaction's first frame damaged after it was committed: in its
    /// stored checksum, its salts, or its page of items (which the third transaction writes
    /// again); or a byte of the WAL's header. SQLite alone would stop at that frame and drop
    /// items 2 and 3 (at the header, and drop them all).
    @Test(arguments: ["checksum", "salt", "page", "header"])
    func aFrameDamagedAfterItsCommitLosesNoCommitAfterIt(_ place: String) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let transactions = try threeCommitsACrashLeft()
        let wal = try Data(contentsOf: crashedWAL)
        let damaged: Int
        switch place {
        case "checksum": damaged = transactions[1][0].offset + 18
        case "salt": damaged = transactions[1][0].offset + 9
        case "header": damaged = 15  // The checkpoint's number.
        default:
            let pageSize = wal[8..<12].reduce(0) { $0 << 8 | Int($1) }
            let frames = transactions[1].map { $0.offset + 24..<$0.offset + 24 + pageSize }
            damaged = try #require(
                frames.lazy.compactMap { wal.range(of: Data("Item 2".utf8), in: $0) }.first
            )
            .lowerBound
        }
        try flip(damaged)
        #expect(SQLiteWAL.mendingPatches(for: [UInt8](try Data(contentsOf: crashedWAL))) != nil)

        #expect(try idsAfterTheCrash() == [1, 2, 3])
    }

    /// A byte of page 1 (the database's header and schema) damaged in the second transaction's
    /// frame of it: the third transaction's frame of page 1 replaces it, so the WAL is mended
    /// and every commit kept. When no later frame of page 1 does, it is left to SQLite.
    @Test func aDamagedFrameOfPageOneIsMendedOnlyWhenALaterFrameReplacesIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let transactions = try threeCommitsACrashLeft(growing: [1, 2, 3])
        let second = try #require(transactions[1].first { $0.page == 1 })
        #expect(transactions[2].contains { $0.page == 1 })
        try flip(second.offset + 24 + 2_000)

        #expect(SQLiteWAL.mendingPatches(for: [UInt8](try Data(contentsOf: crashedWAL))) != nil)
        #expect(try idsAfterTheCrash() == [1, 2, 3])

        try FileManager.default.removeItem(at: folder)
        let again = try threeCommitsACrashLeft(growing: [1, 2])
        #expect(!again[2].contains { $0.page == 1 })
        let last = try #require(again[1].first { $0.page == 1 })
        try flip(last.offset + 24 + 2_000)
        #expect(SQLiteWAL.mendingPatches(for: [UInt8](try Data(contentsOf: crashedWAL))) == nil)
    }

    /// A byte of the last transaction's frame damaged: a write cut short by a power loss looks
    /// the same, and it was never acknowledged, so SQLite drops it, and the WAL is left as it is.
    @Test func aLastTransactionCutShortIsDroppedAsSQLiteDropsIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let transactions = try threeCommitsACrashLeft()
        try flip(transactions[2][0].offset + 18)
        let wal = try Data(contentsOf: crashedWAL)

        #expect(SQLiteWAL.mendingPatches(for: [UInt8](wal)) == nil)
        #expect(try idsAfterTheCrash() == [1, 2])
    }

    /// A byte of a frame's page number or commit damaged: that byte is put back (the one value
    /// that makes the frame verify), and nothing else is written. Rechained instead, the page
    /// would land on another page and its own keep an older version, which nothing notices.
    @Test(arguments: [1, 3, 7])
    func aDamagedByteOfAFramesPageNumberOrCommitIsPutBack(_ byte: Int) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let transactions = try threeCommitsACrashLeft()
        let frame = transactions[1][0].offset
        let sound = try Data(contentsOf: crashedWAL)
        try flip(frame + byte)
        let wal = try Data(contentsOf: crashedWAL)

        let patches = try #require(SQLiteWAL.mendingPatches(for: [UInt8](wal)))

        #expect(patches.count == 1)
        #expect(patches.first?.offset == frame + byte)
        #expect(patches.first?.bytes == [sound[frame + byte]])
        #expect(try idsAfterTheCrash() == [1, 2, 3])
    }

    /// A frame that is more than one field damaged (its salts and its page: a frame left from
    /// another write, where a power loss kept the new one from landing) is left to SQLite,
    /// which stops at it: a mend would put a page that no commit wrote into the database.
    @Test func aFrameDamagedInTwoFieldsIsLeftToSQLite() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let transactions = try threeCommitsACrashLeft()
        let frame = transactions[1][0].offset
        try flip(frame + 9)
        try flip(frame + 24 + 100)
        let wal = try Data(contentsOf: crashedWAL)

        #expect(SQLiteWAL.mendingPatches(for: [UInt8](wal)) == nil)
        #expect(try idsAfterTheCrash() == [1])
    }

    /// A sound WAL is not written: nothing to mend.
    @Test func aSoundWALIsLeftAsItIs() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try threeCommitsACrashLeft()
        let wal = try Data(contentsOf: crashedWAL)

        #expect(SQLiteWAL.mendingPatches(for: [UInt8](wal)) == nil)
        #expect(!SQLiteWAL.mendDamagedFrames(ofDatabase: crashed.path).mended)
        #expect(try Data(contentsOf: crashedWAL) == wal)
        #expect(try idsAfterTheCrash() == [1, 2, 3])
    }
}
