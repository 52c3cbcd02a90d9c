// store-bench's layout part: the first open of a sqlite table after the model changed the keys
// its rows hold, at each of `--sqlite-sizes`. The cards of Examples/3-AppIntegration (UUID ids,
// `deck:references(Deck,cascade)`, `learned:Bool=false`) are stored as the build before
// `learned` was added wrote them: without the key, and with no record of the table's layout.
// The first open then rewrites every row as the model writes it, which is what it does after a
// rename too (the same rewrite, for rows holding a former key).

import Foundation
import StudyApp

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// Imports `size` cards, 20 to a deck, and takes `learned` out of every row as an earlier
/// build would have written it; prints the time that took (a child of its own, so that the
/// next one's peak memory is the open's alone).
@MainActor
func writeEarlierLayout(directory: URL, size: Int) async throws -> String {
    let start = Date()
    do {
        let decks = try DeckRepository(directory: directory)
        let deckCount = max(1, size / 20)
        for start in stride(from: 0, to: deckCount, by: 500) {
            let batch = start..<min(deckCount, start + 500)
            let newDecks = batch.map { Deck(id: benchUUID($0, salt: 9), name: "Deck \($0)") }
            let newCards = batch.flatMap { deck in
                (0..<20).map { number in
                    let index = deck * 20 + number
                    return Card(
                        id: benchUUID(index, salt: 10), deckID: benchUUID(deck, salt: 9),
                        front: "Question \(index)", back: "Answer \(index)", learned: true)
                }
            }
            try await decks.transaction { transaction in
                try transaction.save(contentsOf: newDecks)
                try transaction.save(contentsOf: newCards)
            }
        }
        await decks.close()
    }
    let file = directory.appendingPathComponent(CardRepository.databaseFileName)
    try removeLearned(from: file)
    guard try rowsWithoutLearned(in: file) == size else {
        throw BenchError("the earlier layout was not written")
    }
    return String(Date().timeIntervalSince(start))
}

/// Opens the cards that ``writeEarlierLayout(directory:size:)`` left: prints the first open's
/// time (every row rewritten) with a count, the next open's, and the peak memory.
@MainActor
func layoutFigures(directory: URL, size: Int) async throws -> String {
    let file = directory.appendingPathComponent(CardRepository.databaseFileName)
    var count = 0
    var repository: CardRepository?
    let first = try await timeOnMain {
        let opened = try CardRepository(directory: directory)
        count = try await opened.count
        repository = opened
    }
    await repository?.close()
    repository = nil
    guard count == size, try rowsWithoutLearned(in: file) == 0 else {
        throw BenchError("the first open left rows of the earlier layout, or \(count) of \(size)")
    }
    let next = try await timeOnMain {
        let opened = try CardRepository(directory: directory)
        count = try await opened.count
        repository = opened
    }
    await repository?.close()
    return "\(first) \(next) \(peakMemoryMiB())"
}

/// Rewrites every card's row without `learned`, with its checksum (CRC-32 of the id's bytes,
/// 0, the version, 0, the JSON), and removes the record of the table's layout.
private func removeLearned(from file: URL) throws {
    try withRawDatabase(file) { database in
        try execute("BEGIN", in: database)
        var rows: [(id: [UInt8], version: Int64, json: [UInt8])] = []
        try query(
            "SELECT id, version, json_remove(value, '$.learned') FROM cards", in: database
        ) { statement in
            let id = sqlite3_column_blob(statement, 0).map {
                Array(UnsafeRawBufferPointer(start: $0, count: 16))
            }
            let json = sqlite3_column_text(statement, 2).map {
                Array(
                    UnsafeBufferPointer(start: $0, count: Int(sqlite3_column_bytes(statement, 2))))
            }
            rows.append((id ?? [], sqlite3_column_int64(statement, 1), json ?? []))
        }
        var update: OpaquePointer?
        sqlite3_prepare_v2(
            database, "UPDATE cards SET value = ?, checksum = ? WHERE id = ?", -1, &update, nil)
        defer { sqlite3_finalize(update) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for row in rows {
            let covered = row.id + [0] + Array(String(row.version).utf8) + [0] + row.json
            sqlite3_bind_text(update, 1, String(decoding: row.json, as: UTF8.self), -1, transient)
            sqlite3_bind_int64(update, 2, Int64(crc32(covered)))
            sqlite3_bind_blob(update, 3, row.id, Int32(row.id.count), transient)
            guard sqlite3_step(update) == SQLITE_DONE else {
                throw BenchError(String(cString: sqlite3_errmsg(database)))
            }
            sqlite3_reset(update)
        }
        try execute("DELETE FROM store_layouts WHERE name = 'cards'", in: database)
        try execute("COMMIT", in: database)
        try execute("PRAGMA wal_checkpoint(TRUNCATE)", in: database)
    }
}

/// How many cards' rows have no `learned`.
private func rowsWithoutLearned(in file: URL) throws -> Int {
    var count = 0
    try withRawDatabase(file) { database in
        try query(
            "SELECT count(*) FROM cards WHERE json_type(value, '$.learned') IS NULL", in: database
        ) { count = Int(sqlite3_column_int64($0, 0)) }
    }
    return count
}

private func withRawDatabase(_ file: URL, _ body: (OpaquePointer) throws -> Void) throws {
    var database: OpaquePointer?
    guard sqlite3_open(file.path, &database) == SQLITE_OK, let database else {
        throw BenchError("cannot open \(file.path)")
    }
    defer { sqlite3_close(database) }
    try body(database)
}

private func execute(_ sql: String, in database: OpaquePointer) throws {
    guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else {
        throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(database)))")
    }
}

private func query(
    _ sql: String, in database: OpaquePointer, row: (OpaquePointer) throws -> Void
) throws {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK, let statement
    else { throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(database)))") }
    defer { sqlite3_finalize(statement) }
    while sqlite3_step(statement) == SQLITE_ROW { try row(statement) }
}

/// CRC-32 (the polynomial of zlib and PNG), as the store checks its rows with.
private func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

/// Runs the child per size and prints the table.
func runLayout(sizes: [Int]) throws {
    guard !sizes.isEmpty else { return }
    print("")
    print(
        "The first open after a field was added with a default or renamed: every row rewritten "
            + "(Examples/3-AppIntegration's cards, `learned` taken out of each); times in ms, "
            + "memory MiB:")
    print(
        "| cards | first open + count() (every row rewritten) | next open + count() | peak memory |"
    )
    print("|---:|---:|---:|---:|")
    for size in sizes {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("store-bench-layout-\(size)-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["STORE_BENCH_DIR": directory.path]
        _ = try runChildProcess(
            store: "sqlite-layout-write", size: size, saves: 0, expecting: 1,
            environment: environment)
        let figures = try runChildProcess(
            store: "sqlite-layout", size: size, saves: 0, expecting: 3, environment: environment)
        let cells = [
            String(size), milliseconds(figures[0]), milliseconds(figures[1]),
            String(format: "%.0f", figures[2]),
        ]
        print("| " + cells.joined(separator: " | ") + " |")
    }
}
