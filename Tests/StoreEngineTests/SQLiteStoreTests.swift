import Foundation
import Testing

@testable import StoreEngine

/// The SQLite engine alone: a table per model in one database, checked rows, typed errors.
@Suite struct SQLiteStoreTests {
    let folder: URL
    var file: URL { folder.appendingPathComponent("Store.sqlite") }

    init() {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("SQLiteStoreTests-\(UUID().uuidString)")
    }

    func item(_ number: Int) -> Item { Item(id: number, title: "Item \(number)", count: 7) }

    func table(_ database: SQLiteDatabase<ItemError>) throws -> SQLiteTable<Item, ItemError> {
        try SQLiteTable("items", in: database)
    }

    @Test func valuesSavedInATransactionAreThereAfterReopeningInIDOrder() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        let items = try table(database)
        try database.transaction { try items.save((1...30).reversed().map(item)) }
        try database.transaction {
            try items.delete([1, 2, 99])
            try items.save([Item(id: 3, title: "again", count: 1)])
        }
        database.close()

        let reopened = try table(SQLiteDatabase<ItemError>(file: file))

        #expect(try reopened.count() == 28)
        #expect(try !reopened.isEmpty())
        #expect(try reopened.find(3)?.title == "again")
        #expect(try reopened.find(1) == nil)
        #expect(try reopened.page(after: nil, limit: 3).map(\.id) == [3, 4, 5])
        #expect(try reopened.page(after: 5, limit: 2).map(\.id) == [6, 7])
        try reopened.database.transaction { try reopened.removeAll() }
        #expect(try reopened.count() == 0)
        #expect(try reopened.isEmpty())
    }

    /// A table in memory, for previews, holds every value its rules take: samples that share a
    /// `:unique` value, or a text holding U+0000, leave out only those values (the whole list
    /// was left out: a preview showed nothing).
    @Test func aTableInMemoryHoldsEveryValueItsRulesTake() throws {
        let database = SQLiteDatabase<ItemError>(inMemory: ())
        defer { database.close() }
        let values = [
            item(1), Item(id: 2, title: "Item 1", count: 1), item(3),
            Item(id: 4, title: "a\u{0}b", count: 1),
        ]

        let items = SQLiteTable<Item, ItemError>(
            inMemory: "items", in: database, schema: SQLiteSchema(model: "Item", unique: ["title"]),
            values: values)

        #expect(try items.page(after: nil, limit: 10).map(\.id) == [1, 3])
        let all = SQLiteTable<Item, ItemError>(
            inMemory: "others", in: database, values: [item(5), item(6)])
        #expect(try all.count() == 2)
        // An id given twice is its last value, whatever the order, and an earlier one of it
        // takes no unique value from another.
        let titled = { (id: Int, title: String) in Item(id: id, title: title, count: 1) }
        for given in [
            [titled(1, "x"), titled(2, "x"), titled(1, "y")],
            [titled(1, "y"), titled(2, "x"), titled(1, "x")],
        ] {
            let repeated = SQLiteTable<Item, ItemError>(
                inMemory: "repeated\(given[0].title)", in: database,
                schema: SQLiteSchema(model: "Item", unique: ["title"]), values: given)
            let expected = given[2].title == "y" ? ["y", "x"] : ["x"]
            #expect(try repeated.page(after: nil, limit: 10).map(\.title) == expected)
        }
    }

    /// SQLite's JSON functions end a text at U+0000, so SQL would read another value than the
    /// one saved: an app's save of one is refused, naming the field; an id holds one (its
    /// column has every byte), and a value carried over without the rules is kept as it is.
    @Test func aTextHoldingNULIsRefusedWhereSQLWouldReadItCutShort() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        defer { database.close() }
        let items = try table(database)
        let cut = Item(id: 2, title: "a\u{0}b", count: 1)

        #expect {
            try database.transaction { try items.save([item(1), cut]) }
        } throws: { error in
            guard case ItemError.unwritable(_, let reason) = error else { return false }
            return reason.hasPrefix("title holds the character U+0000 (NUL)")
        }
        #expect(try items.count() == 0)
        // A backslash before "u0000" is text, and another control character is no NUL.
        let written = [
            Item(id: 3, title: #"\u0000"#, count: 1), Item(id: 4, title: "a\u{1}b", count: 1),
        ]
        try database.transaction { try items.save(written) }
        #expect(try items.page(after: nil, limit: 9) == written)
        let named = try SQLiteTable<Named, ItemError>("named", in: database)
        try database.transaction { try named.save([Named(id: "a\u{0}b", name: "x")]) }
        #expect(try named.find("a\u{0}b")?.name == "x")
        // An import writes what it carries over, and a save that keeps that text as it is
        // goes through.
        try database.transaction { try items.save([cut], checkingRules: false) }
        #expect(try items.find(2) == cut)
        let counted = Item(id: 2, title: "a\u{0}b", count: 5)
        try database.transaction { try items.save([counted]) }
        #expect(try items.find(2) == counted)
        #expect(throws: (any Error).self) {
            try database.transaction { try items.save([Item(id: 2, title: "a\u{0}c", count: 5)]) }
        }
    }

    /// SQLite would remove the `-wal` and `-shm` files at the last close, and the next open
    /// would need space for a new `-shm` before reading a byte: on a full disk, no open at all.
    /// They stay, the WAL emptied, so the next open writes no new file.
    @Test func theLastCloseKeepsTheSharedMemoryAndAnEmptiedWALSoTheNextOpenNeedsNoSpace() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        let items = try table(database)
        try database.transaction { try items.save((1...300).map(item)) }
        let wal = URL(fileURLWithPath: file.path + "-wal")
        let shm = URL(fileURLWithPath: file.path + "-shm")
        #expect(try Self.size(of: wal) > 0)
        database.close()

        #expect(try Self.size(of: wal) == 0)
        #expect(try Self.size(of: shm) == 32 * 1024)
        let reopened = try table(SQLiteDatabase<ItemError>(file: file))
        #expect(try reopened.count() == 300)
    }

    static func size(of file: URL) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? -1
    }

    @Test func aTransactionThatThrowsLeavesNothingBehind() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        let items = try table(database)
        struct Stop: Error {}

        #expect(throws: Stop.self) {
            try database.transaction {
                try items.save([item(1)])
                throw Stop()
            }
        }
        #expect(try items.count() == 0)
    }

    @Test func aRowWhoseBytesChangedIsCorruptNotAnotherValue() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        let items = try table(database)
        try database.transaction { try items.save([item(1)]) }
        // A damaged byte that SQLite itself does not notice: the value's JSON changes.
        try database.execute("UPDATE items SET value = replace(value, 'Item', 'Itex')")

        #expect {
            _ = try items.find(1)
        } throws: { error in
            guard case ItemError.corrupt(let damaged, _, let reason) = error else { return false }
            return damaged == file && reason.contains("checksum")
        }
    }

    @Test func aRowWhoseVersionChangedIsCorruptNotDecodedAsAnotherSchema() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        let items = try table(database)
        try database.transaction { try items.save([item(1)]) }
        try database.execute("UPDATE items SET version = 1")

        #expect {
            _ = try items.find(1)
        } throws: { error in
            guard case ItemError.corrupt(_, _, let reason) = error else { return false }
            return reason.contains("checksum")
        }
    }

    @Test func aFileThatIsNotADatabaseIsCorruptAndKept() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let bytes = Data(String(repeating: "not a database ", count: 100).utf8)
        try bytes.write(to: file)

        #expect {
            _ = try SQLiteDatabase<ItemError>(file: file)
        } throws: { error in
            guard case ItemError.corrupt(let damaged, _, _) = error else { return false }
            return damaged == file
        }
        #expect(try Data(contentsOf: file) == bytes)
    }

    @Test func aReaderDoesNotWaitForAWriterAndASecondWriterIsLockedAfterItsTimeout() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let writer = try SQLiteDatabase<ItemError>(file: file)
        let written = try table(writer)
        try writer.transaction { try written.save([item(1)]) }
        let other = try SQLiteDatabase<ItemError>(file: file, busyTimeout: 50)
        let seen = try table(other)

        try writer.execute("BEGIN IMMEDIATE")
        try written.save([item(2)])

        #expect(try seen.count() == 1)  // WAL: the committed state, without waiting
        #expect(throws: ItemError.locked(file: file)) {
            try other.transaction { try seen.save([item(3)]) }
        }
        try writer.execute("COMMIT")
        #expect(try seen.count() == 2)
    }

    /// A transaction another process committed: logged with its own writer number.
    func logAsAnotherProcess(
        _ keys: String, table: String = "items", in database: SQLiteDatabase<ItemError>
    ) throws {
        try database.run(
            "INSERT INTO store_changes (name, keys, writer) VALUES (?, ?, 7)",
            bind: { statement in
                statement.bind(table, at: 1)
                statement.bind(keys, at: 2)
            }, row: { _ in })
    }

    @Test func theChangeLogListsWhatOtherProcessesChangedOnceEachAndNotThisProcesssWrites()
        throws
    {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        let items = try table(database)
        let start = try items.lastLogged()
        try items.commit(.saved([item(1), item(2)]))
        try items.commit(.deleted([1]))
        try items.commit(.removedAll)
        #expect(try items.lastLogged() == start + 3)  // A row per transaction...
        #expect(try items.idsChangedElsewhere(after: start).ids == [])  // ...of this process.

        let other = try SQLiteDatabase<ItemError>(file: file)
        try logAsAnotherProcess("[5,6]", in: other)
        try logAsAnotherProcess("[99]", table: "others", in: other)
        let versionBefore = try database.dataVersion()
        try logAsAnotherProcess("[6,8]", in: other)

        #expect(try database.dataVersion() != versionBefore)
        let (ids, last) = try items.idsChangedElsewhere(after: start)
        #expect(ids == [5, 6, 8])
        #expect(last == start + 6)
        #expect(try items.idsChangedElsewhere(after: last).ids == [])
    }

    @Test func aReaderThatFellBehindThePrunedLogOrCannotReadItIsToldToReadEverything() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        let items = try table(database)
        try database.execute(
            "INSERT INTO store_changes (seq, name, keys, writer) VALUES (10, 'items', '[1]', 7)")

        #expect(try items.idsChangedElsewhere(after: 3).ids == nil)
        #expect(try items.idsChangedElsewhere(after: 9).ids == [1])
        try logAsAnotherProcess(#"["not an Int id"]"#, in: database)
        #expect(try items.idsChangedElsewhere(after: 9).ids == nil)
    }

    /// A connection's own commits leave its `data_version` as it was and add to the log: a
    /// repository that sees the version unchanged takes the log's rows up to the last as heard
    /// (so that the log dropping them does not make it read every value); another connection's
    /// commit changes the version.
    @Test func ownCommitsLeaveTheDataVersionAsItWasAndAddToTheLog() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        let items = try table(database)
        let (version, last) = try items.dataVersionAndLastLogged()

        for number in 1...3 { try items.commit(.saved([item(number)])) }

        #expect(try items.dataVersionAndLastLogged() == (version, last + 3))
        let other = try SQLiteDatabase<ItemError>(file: file)
        try logAsAnotherProcess("[9]", in: other)
        #expect(try items.dataVersionAndLastLogged().version != version)
    }

    /// A log that went back (made again by `recover` from rows a damaged page lost, or the
    /// file replaced) is not the one the reader heard: any value may have changed.
    @Test func aReaderPastTheLogsLastRowIsToldToReadEverything() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        let items = try table(database)
        try logAsAnotherProcess("[1]", in: database)
        let last = try items.lastLogged()

        #expect(try items.idsChangedElsewhere(after: last) == ([], last))
        #expect(try items.idsChangedElsewhere(after: last + 50) == (nil, last))
    }

    /// A `String` id is every byte of its UTF-8: one with a NUL inside is not the id before
    /// the NUL (which SQLite's C strings would make it, writing over that value), and the
    /// empty id is not NULL.
    @Test func stringIdsWithANulInsideOrNoCharacterAreIdsOfTheirOwn() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        let pages = try SQLiteTable<Page, ItemError>("pages", in: database)
        let ids = ["", "a", "a\u{0}b", "a\u{0}c"]

        for (number, id) in ids.enumerated() {
            try pages.commit(.saved([Page(id: id, bookID: number)]))
        }

        #expect(try pages.count() == 4)
        #expect(try pages.page(after: nil, limit: 10).map(\.id) == ids)
        #expect(try ids.map { try pages.find($0)?.bookID } == [0, 1, 2, 3])
        #expect(try pages.page(after: "a\u{0}b", limit: 10).map(\.id) == ["a\u{0}c"])
        try pages.commit(.deleted(["a"]))
        #expect(try pages.find("a\u{0}b")?.bookID == 2)
    }

    @Test func theCurrentRowsAreReadInChunksAndADamagedOneIsLeftOut() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        let items = try table(database)
        try database.transaction { try items.save((1...1_200).map(item)) }
        let asked = Array(1...1_300).reversed() + [5]

        let (saved, deleted, unread) = items.current(asked)
        #expect(saved.map(\.id) == Array(1...1_200).reversed() + [5])
        #expect(deleted == Array(1_201...1_300).reversed())
        #expect(unread.isEmpty)

        try database.execute("UPDATE items SET checksum = checksum + 1 WHERE id = 7")
        let damaged = items.current([6, 7, 8, 9_999])
        #expect(damaged.saved.map(\.id) == [6, 8])
        #expect(damaged.deleted == [9_999])
        #expect(damaged.unread == [7])  // For a later read.
    }

    /// A repository that must read every value again (another process's log no longer reaches
    /// back) is not kept from them all by one damaged row, which it hears once it is readable.
    @Test func everyReadableValueIsReadAPageAtATimePastADamagedRow() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        let items = try table(database)
        try database.transaction { try items.save((1...1_200).map(item)) }
        try database.execute("UPDATE items SET checksum = checksum + 1 WHERE id = 7")

        var values: [Item] = []
        var unread: [Int] = []
        var last: SQLiteRowKey?
        var pages = 0
        repeat {
            let page = try items.readableValues(after: last, limit: 500)
            (values, unread, last, pages) = (
                values + page.values, unread + page.unread, page.last, pages + 1
            )
            #expect(page.values.count + page.unread.count <= 500)
        } while last != nil

        #expect(values.map(\.id) == Array(1...6) + Array(8...1_200))
        #expect(unread == [7])
        #expect(pages == 4)  // The last one empty.
    }

    @Test func aSuspendedDatabaseHoldsNoConnectionAndResumesAsItWas() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        let items = try table(database)
        try items.save([item(1)])

        database.suspend()
        #expect(database.isSuspended)
        #expect(throws: ItemError.suspended) { try items.find(1) }
        #expect(throws: ItemError.suspended) { try items.save([item(2)]) }
        try database.resume()

        try items.commit(.saved([item(2)]))
        #expect(try items.find(2) == item(2))
        database.close()
        #expect(throws: ItemError.closed) { try items.find(1) }
    }

    @Test func aRowOfAnEarlierSchemaVersionIsMigratedWhenRead() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        let items = try table(database)
        let json = Data(#"{"count":5,"id":1,"title":"Old"}"#.utf8)
        try database.run(
            "INSERT INTO items (id, version, value, checksum) VALUES (?, 1, ?, ?)",
            bind: { statement in
                statement.bind(Int64(1), at: 1)
                statement.bind(utf8: json, at: 2)
                statement.bind(Int64(SQLiteTable<Item, ItemError>.checksum(1, 1, json)), at: 3)
            }, row: { _ in })

        #expect(try items.find(1) == Item(id: 1, title: "Old", count: 5))
    }

    @Test func aTableOfAnEarlierVersionIsMigratedWhenItOpensAndANewerOneIsRefused() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        _ = try table(database)
        let json = Data(#"{"count":5,"id":1,"title":"Old"}"#.utf8)
        try insertRow(json, id: 1, version: 1, in: database)
        try database.execute("UPDATE store_tables SET version = 1")

        let migrated = try table(database)

        var stored: [String] = []
        try database.run("SELECT version || ' ' || value FROM items") {
            stored.append($0.text(at: 0))
        }
        #expect(stored == [#"2 {"count":5,"id":1,"title":"Old"}"#])
        #expect(try migrated.find(1) == Item(id: 1, title: "Old", count: 5))
        // A newer app migrates every row it opens: its rows are newer too.
        try insertRow(
            Data(#"{"count":5,"id":2,"title":"Newer"}"#.utf8), id: 2, version: 3, in: database)
        try database.execute("UPDATE store_tables SET version = 3")
        #expect(throws: ItemError.newerSchema(file: file, found: 3, supported: 2)) {
            _ = try table(database)
        }
    }

    @Test func anUndecidedMigrationKeepsTheTableClosedAndAsItWas() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        _ = try SQLiteTable<Undecided, ItemError>("items", in: database)
        try insertRow(Data(#"{"count":"5","id":1}"#.utf8), id: 1, version: 1, in: database)
        try database.execute("UPDATE store_tables SET version = 1")

        #expect(throws: ItemError.self) {
            _ = try SQLiteTable<Undecided, ItemError>("items", in: database)
        }
        var versions: [Int64] = []
        try database.run("SELECT version FROM store_tables") { versions.append($0.int64(at: 0)) }
        try database.run("SELECT version FROM items") { versions.append($0.int64(at: 0)) }
        #expect(versions == [1, 1])
    }

    func insertRow(
        _ json: Data, id: Int, version: Int, in database: SQLiteDatabase<ItemError>
    ) throws {
        try database.run(
            "INSERT INTO items (id, version, value, checksum) VALUES (?, ?, ?, ?)",
            bind: { statement in
                statement.bind(Int64(id), at: 1)
                statement.bind(Int64(version), at: 2)
                statement.bind(utf8: json, at: 3)
                statement.bind(
                    Int64(SQLiteTable<Item, ItemError>.checksum(id, version, json)), at: 4)
            }, row: { _ in })
    }

    @Test func uuidIDsAreKeyedByTheirBytesInTheJournalsOrder() throws {
        let ids = (0..<50).map { _ in UUID() }
        let bytes = ids.map(\.checksumBytes).sorted { $0.lexicographicallyPrecedes($1) }
        #expect(
            bytes.map { UUID(uuid: uuidTuple($0)) } == ids.sorted { $0.uuidString < $1.uuidString })
    }

    private func uuidTuple(_ data: Data) -> uuid_t {
        let b = [UInt8](data)
        return (
            b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
            b[14], b[15]
        )
    }
}

/// A model with a `String` id.
struct Named: StoredValue, Equatable {
    var id: String
    var name: String

    static let schemaVersion = 1

    static func precedes(_ first: String, _ second: String) -> Bool {
        first.utf8.lexicographicallyPrecedes(second.utf8)
    }
}
