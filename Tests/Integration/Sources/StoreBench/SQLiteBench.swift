// store-bench's sqlite part: the generated sqlite store (Tests/Goldens/bench-sqlite, UUID ids)
// beside raw SQLite, the same rows written and read through the C API without the generated
// layer, at each of `--sqlite-sizes`. Four children share a folder (STORE_BENCH_DIR): one
// imports, one opens the store cold and uses it (so its peak memory is the open's, not the
// import's), one recovers it, one does the same work in raw SQLite.

import BenchSQLite
import Foundation

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// The figures of one size, in seconds and MiB.
struct SQLiteFigures {
    var importTime = 0.0
    var rawImport = 0.0
    var openAndFirstPage = 0.0
    var memory = 0.0
    var count = 0.0
    var sortedPage = 0.0
    var find = 0.0
    var save = 0.0
    var worstSave = 0.0
    var rawSave = 0.0
    var viewModelLoad = 0.0
    var viewModelAdd = 0.0
    var loadMore = 0.0
    var soundRecover = 0.0
    var damagedRecover = 0.0
    var rebuiltRecover = 0.0
    var recoverMemory = 0.0
}

func sqliteEntries(_ range: Range<Int>, salt: Int) -> [BenchSQLite.Entry] {
    withUUIDs(sampleEntries(range), salt: salt).map {
        BenchSQLite.Entry(
            id: $0.id, title: $0.title, body: $0.body, score: $0.score, createdAt: $0.createdAt)
    }
}

func benchDirectory() throws -> URL {
    guard let path = ProcessInfo.processInfo.environment["STORE_BENCH_DIR"] else {
        throw BenchError("STORE_BENCH_DIR is not set")
    }
    return URL(fileURLWithPath: path)
}

/// One sqlite child: `sqlite-import`, `sqlite-use`, `sqlite-recover`, `sqlite-relations`,
/// `sqlite-layout-write`, `sqlite-layout` or `raw-sqlite`; prints its numbers.
@MainActor
func runSQLiteChild(_ kind: String, size: Int, saves: Int) async throws {
    let directory = try benchDirectory()
    switch kind {
    case "sqlite-import":
        let repository = try EntryRepository(directory: directory)
        let values = sqliteEntries(0..<size, salt: 0)
        let importTime = try await timeOnMain { try await repository.save(contentsOf: values) }
        await repository.close()
        print(importTime)
    case "sqlite-use":
        print(try await useSQLite(directory: directory, size: size, saves: saves))
    case "sqlite-relations":
        print(try await relationsFigures(directory: directory, size: size, saves: saves))
    case "sqlite-layout-write":
        print(try await writeEarlierLayout(directory: directory, size: size))
    case "sqlite-layout":
        print(try await layoutFigures(directory: directory, size: size))
    case "sqlite-recover":
        print(try await recoverSQLite(directory: directory))
    case "raw-sqlite":
        print(try rawSQLite(directory: directory, size: size, saves: saves))
    default:
        throw BenchError("unknown child \(kind)")
    }
}

/// Opens the imported store cold and does what an app does; prints open+first page, peak memory
/// then, a page sorted by an unindexed field, find, save median and worst, the view-model's
/// load, add and loadMore, and count.
@MainActor
func useSQLite(directory: URL, size: Int, saves: Int) async throws -> String {
    var repository: EntryRepository?
    var firstPage: [BenchSQLite.Entry] = []
    let open = try await timeOnMain {
        let opened = try EntryRepository(directory: directory)
        firstPage = try await opened.loadAll(EntryRepository.Query().limit(50))
        repository = opened
    }
    let memory = peakMemoryMiB()
    var count = 0
    let counting = try await timeOnMain { count = try await repository?.count ?? 0 }
    guard let repository, count == size, firstPage.count == min(50, size) else {
        throw BenchError("opened \(count) of \(size)")
    }
    let byDate = EntryRepository.Query()
        .sorted(by: EntryRepository.Fields.createdAt, descending: true).limit(50)
    let sortedPage = try await timeOnMain { _ = try await repository.loadAll(byDate) }
    let ids = sqliteEntries(0..<size, salt: 0).map(\.id)
    var finds: [Double] = []
    for index in stride(from: 0, to: size, by: max(1, size / 200)) {
        let id = ids[(index &* 7919) % size]
        finds.append(try await timeOnMain { _ = try await repository.find(by: id) })
    }
    let extra = sqliteEntries(0..<(2 * saves), salt: 1)
    let saveTimes = try await timeSaves(Array(extra.prefix(saves)), in: repository)
    let viewModel = EntryListViewModel(repository: repository)
    let load = await timeOnMain { await viewModel.load() }
    var adds: [Double] = []
    for value in extra.dropFirst(saves) {
        adds.append(await timeOnMain { await viewModel.add(value) })
    }
    let more = await timeOnMain { await viewModel.loadMore() }
    guard viewModel.error == nil, viewModel.entries.count >= 100 else {
        throw BenchError("the view-model showed \(viewModel.entries.count) values")
    }
    return [
        open, memory, sortedPage, median(finds), median(saveTimes), saveTimes.max() ?? 0, load,
        median(adds), more, counting,
    ].map { String($0) }.joined(separator: " ")
}

/// Runs `recover(directory:)` on the store `useSQLite` left, in a process of its own so that
/// its peak memory is its own: over the sound table (a scan of every row), then with the
/// checksum of the row in the middle no longer matching, then with a page of rows damaged
/// (the database made again); prints the three times and the peak memory.
func recoverSQLite(directory: URL) async throws -> String {
    let sound = try await timeAsync { _ = try EntryRepository.recover(directory: directory) }
    let file = directory.appendingPathComponent(EntryRepository.databaseFileName)
    let stored = try await EntryRepository(directory: directory).count
    try damageRow(at: stored / 2, in: file)
    var recovery: StoreRecovery?
    let damaged = try await timeAsync {
        recovery = try EntryRepository.recover(directory: directory)
    }
    guard recovery?.setAside.count == 1, recovery?.valuesKept == stored - 1 else {
        throw BenchError("recover kept \(String(describing: recovery))")
    }
    // A page of rows damaged: the database is made again from every row SQLite reads.
    let lost = try damageLeafPage(of: "entries", in: file)
    let rebuilt = try await timeAsync {
        recovery = try EntryRepository.recover(directory: directory)
    }
    guard recovery?.setAside.count == 1, recovery?.valuesKept == stored - 1 - lost else {
        throw BenchError("recover of a damaged page kept \(String(describing: recovery))")
    }
    return "\(sound) \(damaged) \(rebuilt) \(peakMemoryMiB())"
}

/// Damages the type byte of the leaf page in the middle of `table`'s pages, in key order, so
/// that SQLite reads none of its rows; returns how many rows it holds.
func damageLeafPage(of table: String, in file: URL) throws -> Int {
    var database: OpaquePointer?
    guard sqlite3_open(file.path, &database) == SQLITE_OK else {
        throw BenchError("cannot open \(file.path)")
    }
    var root = 0
    var pageSize = 0
    let read = { (sql: String, column: (OpaquePointer) -> Void) in
        var statement: OpaquePointer?
        sqlite3_prepare_v2(database, sql, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        while let statement, sqlite3_step(statement) == SQLITE_ROW { column(statement) }
    }
    read("PRAGMA wal_checkpoint(TRUNCATE)") { _ in }
    read("PRAGMA page_size") { pageSize = Int(sqlite3_column_int64($0, 0)) }
    read("SELECT rootpage FROM sqlite_master WHERE name = '\(table)'") {
        root = Int(sqlite3_column_int64($0, 0))
    }
    sqlite3_close(database)
    let handle = try FileHandle(forUpdating: file)
    defer { try? handle.close() }
    let page = { (number: Int) throws -> [UInt8] in
        try handle.seek(toOffset: UInt64((number - 1) * pageSize))
        return [UInt8](try handle.read(upToCount: pageSize) ?? Data())
    }
    let number = { (bytes: [UInt8], offset: Int, count: Int) in
        bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }
    var leaves: [Int] = []
    func walk(_ pageNumber: Int) throws {
        let bytes = try page(pageNumber)
        guard bytes.first == 0x02 else { return leaves.append(pageNumber) }
        for cell in 0..<number(bytes, 3, 2) {
            try walk(number(bytes, number(bytes, 12 + 2 * cell, 2), 4))
        }
        try walk(number(bytes, 8, 4))
    }
    try walk(root)
    let leaf = leaves[leaves.count / 2]
    let cells = number(try page(leaf), 3, 2)
    try handle.seek(toOffset: UInt64((leaf - 1) * pageSize))
    try handle.write(contentsOf: [0x0D])
    return cells
}

/// Makes the checksum of the `index`th row of `table`, in id order, wrong: a damaged byte.
func damageRow(at index: Int, of table: String = "entries", in file: URL) throws {
    var database: OpaquePointer?
    guard sqlite3_open(file.path, &database) == SQLITE_OK else {
        throw BenchError("cannot open \(file.path)")
    }
    defer { sqlite3_close(database) }
    let sql =
        "UPDATE \"\(table)\" SET checksum = checksum + 1 WHERE id = "
        + "(SELECT id FROM \"\(table)\" ORDER BY id LIMIT 1 OFFSET \(index))"
    guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK, sqlite3_changes(database) == 1
    else { throw BenchError("cannot damage a row: \(String(cString: sqlite3_errmsg(database)))") }
}

/// Each save's time, called from outside the main actor, as the journal store's saves are
/// timed in the first table: the call's hop to the repository's actor is in it, a hop back to
/// the main thread is not.
nonisolated func timeSaves(
    _ values: [BenchSQLite.Entry], in repository: EntryRepository
) async throws -> [Double] {
    var times: [Double] = []
    for value in values {
        times.append(try await timeAsync { try await repository.save(value) })
    }
    return times
}

/// The same rows through SQLite's C API: one transaction for the import, then single durable
/// inserts; prints import and insert median.
func rawSQLite(directory: URL, size: Int, saves: Int) throws -> String {
    var database: OpaquePointer?
    let file = directory.appendingPathComponent("raw.sqlite").path
    guard sqlite3_open(file, &database) == SQLITE_OK else { throw BenchError("cannot open raw") }
    defer { sqlite3_close(database) }
    for sql in [
        "PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL",
        "CREATE TABLE entries (id BLOB PRIMARY KEY NOT NULL, version INTEGER NOT NULL, "
            + "value TEXT NOT NULL, checksum INTEGER NOT NULL) WITHOUT ROWID",
    ] {
        guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchError(String(cString: sqlite3_errmsg(database)))
        }
    }
    var insert: OpaquePointer?
    sqlite3_prepare_v2(
        database, "INSERT OR REPLACE INTO entries VALUES (?, 1, ?, 0)", -1, &insert, nil)
    defer { sqlite3_finalize(insert) }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    func write(_ value: BenchSQLite.Entry) throws {
        let json = String(decoding: try encoder.encode(value), as: UTF8.self)
        let id = withUnsafeBytes(of: value.id.uuid) { Array($0) }
        sqlite3_bind_blob(insert, 1, id, 16, transient)
        sqlite3_bind_text(insert, 2, json, -1, transient)
        guard sqlite3_step(insert) == SQLITE_DONE else {
            throw BenchError(String(cString: sqlite3_errmsg(database)))
        }
        sqlite3_reset(insert)
    }
    let values = sqliteEntries(0..<size, salt: 0)
    let importTime = try time {
        sqlite3_exec(database, "BEGIN", nil, nil, nil)
        for value in values { try write(value) }
        sqlite3_exec(database, "COMMIT", nil, nil, nil)
    }
    var saveTimes: [Double] = []
    for value in sqliteEntries(0..<saves, salt: 1) {
        saveTimes.append(try time { try write(value) })
    }
    return "\(importTime) \(median(saveTimes))"
}

/// Runs the three children per size and prints the table, the ratios against the targets, and
/// the sqlite store beside the journal store at the size both ran.
func runSQLite(sizes: [Int], saves: Int, journal: [Int: Figures]) throws {
    guard !sizes.isEmpty else { return }
    print("")
    print("The sqlite store (UUID ids) beside raw SQLite, \(saves) saves; times in ms, memory MiB:")
    print(
        "| values | import | raw import | open + first 50 by id | peak memory then | count() "
            + "| first 50 by createdAt (no index) | find(by:) | save (median / worst) "
            + "| raw durable insert | viewModel.load | viewModel.add | loadMore "
            + "| recover (sound / one row damaged / one page damaged) | its peak memory |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    var results: [Int: SQLiteFigures] = [:]
    for size in sizes {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("store-bench-sqlite-\(size)-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["STORE_BENCH_DIR": directory.path]
        var figures = SQLiteFigures()
        figures.importTime = try runChildProcess(
            store: "sqlite-import", size: size, saves: saves, expecting: 1,
            environment: environment)[0]
        let use = try runChildProcess(
            store: "sqlite-use", size: size, saves: saves, expecting: 10,
            environment: environment)
        (figures.openAndFirstPage, figures.memory, figures.sortedPage) = (use[0], use[1], use[2])
        (figures.find, figures.save, figures.worstSave) = (use[3], use[4], use[5])
        (figures.viewModelLoad, figures.viewModelAdd, figures.loadMore) = (use[6], use[7], use[8])
        figures.count = use[9]
        let recover = try runChildProcess(
            store: "sqlite-recover", size: size, saves: saves, expecting: 4,
            environment: environment)
        (figures.soundRecover, figures.damagedRecover, figures.rebuiltRecover) =
            (recover[0], recover[1], recover[2])
        figures.recoverMemory = recover[3]
        let raw = try runChildProcess(
            store: "raw-sqlite", size: size, saves: saves, expecting: 2, environment: environment)
        (figures.rawImport, figures.rawSave) = (raw[0], raw[1])
        results[size] = figures
        let cells = [
            String(size), milliseconds(figures.importTime), milliseconds(figures.rawImport),
            milliseconds(figures.openAndFirstPage), String(format: "%.0f", figures.memory),
            milliseconds(figures.count),
            milliseconds(figures.sortedPage), milliseconds(figures.find),
            "\(milliseconds(figures.save)) / \(milliseconds(figures.worstSave))",
            milliseconds(figures.rawSave), milliseconds(figures.viewModelLoad),
            milliseconds(figures.viewModelAdd), milliseconds(figures.loadMore),
            "\(milliseconds(figures.soundRecover)) / \(milliseconds(figures.damagedRecover)) / "
                + milliseconds(figures.rebuiltRecover),
            String(format: "%.0f", figures.recoverMemory),
        ]
        print("| " + cells.joined(separator: " | ") + " |")
    }
    guard let small = sizes.min(), let large = sizes.max(), let first = results[small],
        let last = results[large]
    else { return }
    print("")
    print("Ratios for the sqlite store at \(large) values (targets in brackets):")
    let ratios: [(String, Double, String, Bool)] = [
        (
            "open + first page of 50, ms", last.openAndFirstPage * 1000, "≤ 50",
            last.openAndFirstPage <= 0.05
        ),
        ("peak memory then, MiB", last.memory, "≤ 50", last.memory <= 50),
        (
            "save / raw durable insert", last.save / last.rawSave, "≤ 1.3",
            last.save / last.rawSave <= 1.3
        ),
        (
            "import / raw import in one transaction", last.importTime / last.rawImport, "≤ 1.5",
            last.importTime / last.rawImport <= 1.5
        ),
        (
            "find(by:) at \(large) / at \(small)", last.find / first.find, "≤ 3",
            last.find / first.find <= 3
        ),
    ]
    for (name, value, target, met) in ratios {
        print("- \(name): \(String(format: "%.2f", value)) [\(target)] \(met ? "met" : "NOT met")")
    }
    let shared = sizes.filter { journal[$0] != nil }
    guard let size = shared.max(), let journalFigures = journal[size], let sqlite = results[size]
    else { return }
    print("")
    print("Journal (String ids) and sqlite (UUID ids) at \(size) values (ms, MiB):")
    print("| store | import | open (journal: cold load) | save | peak memory |")
    print("|---|---:|---:|---:|---:|")
    print(
        "| journal | \(milliseconds(journalFigures.importTime)) | "
            + "\(milliseconds(journalFigures.loadTime)) | \(milliseconds(journalFigures.saveTime)) | "
            + "\(String(format: "%.0f", journalFigures.memory)) |")
    print(
        "| sqlite | \(milliseconds(sqlite.importTime)) | \(milliseconds(sqlite.openAndFirstPage)) | "
            + "\(milliseconds(sqlite.save)) | \(String(format: "%.0f", sqlite.memory)) |")
}
