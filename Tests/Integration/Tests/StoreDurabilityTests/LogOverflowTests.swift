import BenchSQLite
import Foundation
import Testing

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// A sqlite repository that fell behind the change log (its process was suspended while others
/// wrote more than the log keeps) publishes every value again, a page at a time: a store of a
/// million values is never read, nor held, at once.
@Suite struct LogOverflowTests {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("LogOverflowTests-\(UUID().uuidString)")

    /// Entry `number`, its id in order with its number.
    func entry(_ number: Int) -> Entry {
        let bytes = withUnsafeBytes(of: UInt32(number).bigEndian) { Array($0) }
        return Entry(
            id: UUID(
                uuid: (
                    0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, bytes[0], bytes[1], bytes[2], bytes[3]
                )),
            title: "Entry \(number)", body: "", score: Double(number),
            createdAt: Date(timeIntervalSinceReferenceDate: 0))
    }

    /// Runs `sql` on a connection of its own, as another process would.
    func execute(_ sql: String) throws {
        var database: OpaquePointer?
        defer { sqlite3_close(database) }
        let file = directory.appendingPathComponent(EntryRepository.databaseFileName)
        try #require(sqlite3_open(file.path, &database) == SQLITE_OK)
        try #require(sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK)
    }

    @Test func aRepositoryBehindTheLogPublishesEveryValueAgainAPageAtATime() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let repository = try EntryRepository(directory: directory)
        let entries = (1...2_500).map(entry)
        try await repository.save(contentsOf: entries)
        let changes = await repository.changes()

        // Another process's writes, past what the log keeps: the log now starts after the
        // last row this repository heard.
        try execute(
            """
            DELETE FROM store_changes;
            INSERT INTO store_changes (seq, name, keys, writer)
            VALUES (1000000, '\(EntryRepository.tableName)', '[]', 7);
            """)

        var received: [EntryRepository.Change] = []
        var values = 0
        for await change in changes {
            received.append(change)
            if case .saved(let saved) = change { values += saved.count }
            if values >= entries.count { break }
        }

        #expect(received.first == .removedAll)
        let pages = received.dropFirst().map { change -> [Entry] in
            guard case .saved(let saved) = change else { return [] }
            return saved
        }
        #expect(pages.map(\.count) == [1_000, 1_000, 500])
        #expect(pages.flatMap { $0 } == entries)
        await repository.close()
    }
}
