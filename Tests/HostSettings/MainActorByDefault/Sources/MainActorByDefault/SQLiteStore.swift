import Foundation

#if canImport(SQLite3)
    internal import SQLite3
#else
    internal import CSQLite
#endif

/// The SQLite side of the store's engine: one database file per module, holding one table per
/// model, on the SQLite that every Apple OS ships (`import SQLite3`) and that Linux has as a
/// system library (`libsqlite3`, through the `CSQLite` module map).
///
/// The database is opened in WAL mode with `synchronous=FULL`, so a write that returned
/// survives a power loss, and readers never wait for a writer. Every row carries the CRC-32 of
/// its id and its JSON: SQLite checks pages only when they are unreadable, so a damaged byte in
/// a value is found here, and reported as `corrupt`, instead of being read as a value.
///
/// scaffold-repo writes one copy of this file per module that has a sqlite repository, and
/// `scaffold-repo destroy` removes it with the last of them.
nonisolated final class SQLiteDatabase<Failure: SQLiteFailure> {
    /// The database file (`/dev/null` for a database in memory).
    let fileURL: URL
    /// The connection, which a ``StoreTransaction`` shares with the tables of other models
    /// (each reporting its own failures).
    private let link: SQLiteConnection
    private var connection: OpaquePointer? {
        get { link.pointer }
        set { link.pointer = newValue }
    }
    private var statements: [String: OpaquePointer] {
        get { link.statements }
        set { link.statements = newValue }
    }
    /// The most statements kept prepared: queries of many shapes each prepare their own.
    private static var statementCapacity: Int { 64 }
    private var running: Int {
        get { link.running }
        set { link.running = newValue }
    }

    /// Opens (or creates) the database `file`, in a folder created if missing. A file that is
    /// not a database, or is damaged, throws `corrupt` and is left as it is. A write waits up
    /// to `busyTimeout` milliseconds for another connection's write to end, then throws
    /// `locked`. With `readingTheSchemaAsItIs` (for a rebuild from damaged pages), a schema
    /// that SQLite would refuse whole for one row it cannot make sense of is read as it is.
    init(file: URL, busyTimeout: Int32 = 5_000, readingTheSchemaAsItIs: Bool = false) throws {
        fileURL = file
        link = SQLiteConnection()
        link.readsTheSchemaAsItIs = readingTheSchemaAsItIs
        try StoreFiles.createFolder(file.deletingLastPathComponent(), reporting: Failure.self)
        // SQLite would create the file a link to nothing points to, and fail on a folder with
        // a reason of its own: neither is an empty store.
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder) {
            if isFolder.boolValue {
                throw Failure.unreadable(file: file, reason: "it is a folder, not a file")
            }
        } else if (try? FileManager.default.destinationOfSymbolicLink(atPath: file.path)) != nil {
            throw Failure.unreadable(
                file: file, reason: "it is a symbolic link to a file that does not exist")
        }
        link.busyTimeout = busyTimeout
        link.path = StoreFiles.canonicalPath(file)
        try connect()
    }

    /// Opens the file in WAL mode, each commit synced: by ``init(file:busyTimeout:)``, and by
    /// ``resume()`` after ``suspend()``.
    private func connect() throws {
        let walCheck = try open(fileURL.path, busyTimeout: link.busyTimeout)
        // Until the connection has read the database (its first statement, below), and so holds
        // SQLite's lock on the `-shm` file, no other process of this engine checks the WAL.
        defer { walCheck?.release() }
        do {
            try execute("PRAGMA journal_mode=WAL")
            // The WAL is cut back to this size after a checkpoint, and to nothing at the last
            // close (the file itself is kept: see `open`).
            try execute("PRAGMA journal_size_limit=\(8 << 20)")
            try execute("PRAGMA synchronous=FULL")
            // What F_FULLFSYNC is to the journal store on Apple platforms; ignored elsewhere.
            try execute("PRAGMA fullfsync=ON")
            try execute("PRAGMA checkpoint_fullfsync=ON")
        } catch {
            close()
            throw error
        }
    }

    /// A database in memory only, for previews and an app's tests: no folder and no file.
    init(inMemory: Void) {
        fileURL = URL(fileURLWithPath: "/dev/null")
        link = SQLiteConnection()
        // An in-memory database always opens.
        _ = try? open(":memory:", busyTimeout: 0)
    }

    /// Opens `path` (a file, or `:memory:`); for the first connection of this process to a
    /// file, after ``SQLiteWAL`` has checked the WAL a crash may have left, which stays locked
    /// until the check returned is released.
    @discardableResult
    private func open(_ path: String, busyTimeout: Int32) throws -> SQLiteWAL.Check? {
        link.isReadOnlyForLackOfSpace = false
        var walCheck: SQLiteWAL.Check?
        // No room for SQLite's `-shm` file (a full disk: the first connection truncates it and
        // writes it again, and a filesystem may not give back the space at once). A read-only
        // connection that does not write it still reads every value; the next write tries the
        // usual connection again (`writeAgainOnceThereIsRoom`).
        func openReadOnly() throws {
            var uri = URLComponents()
            uri.scheme = "file"
            uri.path = path
            uri.queryItems = [URLQueryItem(name: "readonly_shm", value: "1")]
            try open(
                uri.string ?? path,
                flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
                busyTimeout: busyTimeout)
            link.isReadOnlyForLackOfSpace = true
            link.countAsReadOnly()
        }
        // One open of the file at a time in this process, so that none opens as usual on the
        // mapping that a read-only one is making.
        try link.whileOpening {
            // The first connection of this process: the WAL is read by none of them yet. (The
            // path with links resolved: SQLite keeps the WAL beside the file itself.)
            if path != ":memory:", link.isFirstToOpen {
                walCheck = SQLiteWAL.mendDamagedFrames(ofDatabase: link.path).check
            }
            defer { link.countAsOpen() }
            guard !link.othersAreReadOnly else { return try openReadOnly() }
            do {
                try open(
                    path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                    busyTimeout: busyTimeout)
            } catch  where Self.isSharedMemoryFailure(link.lastExtendedFailure) {
                try openReadOnly()
            }
        }
        return walCheck
    }

    /// Whether SQLite's extended result `code` says that the `-shm` file could not be opened,
    /// sized or mapped: SQLITE_IOERR_SHMOPEN, SHMSIZE and SHMMAP.
    private static func isSharedMemoryFailure(_ code: Int32) -> Bool {
        [18, 19, 21].contains { code == SQLITE_IOERR | ($0 << 8) }
    }

    /// Opens a connection to `path` with `flags` and reads the schema, or throws; SQLite's
    /// extended result is then in `link.lastExtendedFailure`.
    private func open(_ path: String, flags: Int32, busyTimeout: Int32) throws {
        var opened: OpaquePointer?
        link.lastExtendedFailure = SQLITE_OK
        let status = sqlite3_open_v2(path, &opened, flags, nil)
        connection = opened
        guard status == SQLITE_OK else {
            let failure = failure(status, reading: true)
            close()
            throw failure
        }
        sqlite3_busy_timeout(opened, busyTimeout)
        // SQLite removes the `-wal` and `-shm` files at the last close, and the next open must
        // make a new 32 KB `-shm` before it reads a byte. Kept, the next open reuses them: on
        // a full disk it writes the `-shm` over the space it frees first (where a filesystem
        // does not give that space back at once, `open(_:busyTimeout:)` opens read-only).
        var keepsFiles: Int32 = 1
        sqlite3_file_control(opened, "main", SQLITE_FCNTL_PERSIST_WAL, &keepsFiles)
        do {
            // SQLite then takes as much of a damaged schema as it can read, where it would
            // refuse the whole of it (set before any statement reads it).
            if link.readsTheSchemaAsItIs { try execute("PRAGMA writable_schema=ON") }
            // Reading the schema is what finds a file that is not a database.
            try execute("SELECT count(*) FROM sqlite_master")
        } catch {
            link.lastExtendedFailure = sqlite3_extended_errcode(opened)
            close()
            throw error
        }
    }

    /// A connection that opened read-only for lack of room for SQLite's `-shm` file is opened
    /// again before a write: as usual when there is room now, read-only again otherwise (the
    /// write then fails as a write to a read-only database). The read-only one is closed
    /// first: SQLite shares one `-shm` mapping between a process's connections to a file, and
    /// a new connection would take it read-only too.
    private func writeAgainOnceThereIsRoom() throws {
        guard link.isReadOnlyForLackOfSpace, !isInTransaction, link.running == 0,
            !link.othersAreReadOnly
        else { return }
        try reopenForLackOfSpace()
    }

    /// Closes the connection and opens it again; when that fails, the next call tries again.
    private func reopenForLackOfSpace() throws {
        link.close()
        do {
            try connect()
        } catch {
            link.isReadOnlyForLackOfSpace = true
            throw error
        }
    }

    /// The same connection as `database`, reporting failures as `Failure`: the tables of
    /// several models written in one transaction.
    init<Other>(sharing database: SQLiteDatabase<Other>) {
        fileURL = database.fileURL
        link = database.link
    }

    /// Whether ``close()`` was called (a suspended database is not closed).
    var isClosed: Bool {
        connection == nil && !link.isSuspended && !link.isReadOnlyForLackOfSpace
    }

    /// Whether the database is in memory, for previews and tests.
    var isInMemory: Bool { fileURL.path == "/dev/null" }

    /// For each table, by name, the change log's last row (``SQLiteChangeLog``) at a moment
    /// this connection found the table's layout record its own: every row written before it
    /// was of this build's layout (``SQLiteTable/catchUpWithOtherBuilds()``).
    var layoutsHeldThrough: [String: Int64] { link.layoutsHeldThrough }

    /// Notes that every row of `table` logged up to `seq` is of this build's layout: at once
    /// outside a transaction; inside one, once it commits (a rollback takes back the rewrite
    /// that made them so, and the note with it).
    func holdLayout(of table: String, through seq: Int64) {
        if link.heldInTransaction.isEmpty {
            link.layoutsHeldThrough[table] = seq
        } else {
            link.heldInTransaction[link.heldInTransaction.count - 1][table] = seq
        }
    }

    /// Ends the innermost transaction's notes of ``holdLayout(of:through:)``: kept by the
    /// transaction around it, or by the connection once the outermost one committed.
    private func endHolding(committed: Bool) {
        guard let held = link.heldInTransaction.popLast(), committed else { return }
        if link.heldInTransaction.isEmpty {
            link.layoutsHeldThrough.merge(held) { $1 }
        } else {
            link.heldInTransaction[link.heldInTransaction.count - 1].merge(held) { $1 }
        }
    }

    /// The rowid of the row the last `INSERT` added.
    var lastInsertedRow: Int64 {
        connection.map { sqlite3_last_insert_rowid($0) } ?? 0
    }

    /// How many rows the last `INSERT`, `UPDATE` or `DELETE` changed.
    var changedRows: Int {
        connection.map { Int(sqlite3_changes($0)) } ?? 0
    }

    /// Finalizes the statements and closes the connection; later calls throw `closed`.
    func close() {
        link.isSuspended = false
        link.isReadOnlyForLackOfSpace = false
        link.close()
    }

    /// Whether ``suspend()`` closed the connection and no ``resume()`` opened it again.
    var isSuspended: Bool { link.isSuspended }

    /// Closes the connection until ``resume()``, releasing every lock it holds on the files
    /// (iOS ends a suspended app that holds one in a shared container: `0xdead10cc`); calls
    /// meanwhile throw `suspended`. A database in memory, or a closed one, stays as it is.
    func suspend() {
        guard !isInMemory, !isClosed else { return }
        link.close()
        link.isSuspended = true
    }

    /// Opens the connection that ``suspend()`` closed; nothing when it is not suspended.
    func resume() throws {
        guard link.isSuspended else { return }
        do {
            try connect()
        } catch {
            // Suspended still: a later resume() tries again.
            link.isSuspended = true
            throw error
        }
        link.isSuspended = false
    }

    /// Runs `sql`, stepping through any rows it returns.
    func execute(_ sql: String) throws {
        try run(sql) { _ in }
    }

    /// Runs `sql` with `bind` setting its parameters, and calls `row` for each row it returns.
    func run(
        _ sql: String, bind: (Statement) throws -> Void = { _ in },
        row: (Statement) throws -> Void
    ) throws {
        link.lastFailure = SQLITE_OK
        try checkTransactionIsOpen()
        let statement = try prepared(sql)
        running += 1
        defer { running -= 1 }
        defer {
            sqlite3_reset(statement.pointer)
            sqlite3_clear_bindings(statement.pointer)
        }
        try bind(statement)
        while true {
            let status = sqlite3_step(statement.pointer)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else {
                link.lastFailure = status
                if status & 0xFF == SQLITE_CORRUPT { link.hasMetDamage = true }
                throw failure(status, reading: isRead(sql))
            }
            try row(statement)
        }
    }

    /// Runs `sql`, which deletes or replaces one row of `table`. When SQLite finds the table's
    /// indexes out of step with that row (a byte of it damaged on the disk), and every page of
    /// the database is sound (`quick_check` of the whole file, which does not compare an index
    /// with its table; a check of one table would miss a pointer into another's pages), the
    /// indexes are made again from the rows as they are (`REINDEX`), and `sql` is run once
    /// more. Damaged pages are never rebuilt over: SQLite could reuse a page that still holds
    /// rows. The error is thrown then, and the file left as it is.
    func writeRow(_ sql: String, of table: String, bind: (Statement) throws -> Void) throws {
        do {
            try run(sql, bind: bind, row: { _ in })
        } catch {
            guard link.lastFailure & 0xFF == SQLITE_CORRUPT, isEveryPageSound() else { throw error }
            try execute("REINDEX \"\(table)\"")
            try run(sql, bind: bind, row: { _ in })
        }
    }

    /// Whether `PRAGMA quick_check` finds every page of the database sound (it does not compare
    /// an index with its table, nor check the order of keys). With `exceptNulls`, a NULL in a
    /// column that must have a value is taken for a damaged row's, not a page's. Only `table`
    /// and its indexes, when given.
    func isEveryPageSound(exceptNulls: Bool = false, of table: String? = nil) -> Bool {
        let findings = pageFindings(exceptNulls: exceptNulls, of: table)
        let isSound = !findings.stopped && findings.lines.isEmpty
        if !isSound { link.hasMetDamage = true }
        return isSound
    }

    /// What `PRAGMA quick_check` finds (of `table` and its indexes only, when given), one line
    /// each, without SQLite's heading, and whether the check stopped before its end (it failed
    /// at damage it could not read past, or gave no answer): sound when it ran to its end and
    /// found nothing. With `exceptNulls`, not a NULL in a column that must have a value.
    func pageFindings(
        exceptNulls: Bool = false, of table: String? = nil
    ) -> (lines: [String], stopped: Bool) {
        var check: [String] = []
        // The whole file's check is not cut at SQLite's 100 findings: one table's damage could
        // fill them and hide what reaches another.
        let sql = table.map { "PRAGMA quick_check('\($0)')" } ?? "PRAGMA quick_check(1000000)"
        let ran = (try? run(sql, row: { check.append($0.text(at: 0)) })) != nil
        let lines = check.flatMap { $0.split(separator: "\n").map(String.init) }.filter {
            $0 != "ok" && !($0.hasPrefix("*** in database ") && $0.hasSuffix(" ***"))
                && !(exceptNulls && $0.hasPrefix("NULL value in "))
        }
        return (lines, !ran || check.isEmpty)
    }

    /// Whether the last statement that failed did for damage SQLite found in the file.
    var lastFailureIsCorrupt: Bool { link.lastFailure & 0xFF == SQLITE_CORRUPT }

    /// Whether a statement failed for damage SQLite found in the file, or ``isEveryPageSound(exceptNulls:)``
    /// found pages damaged, since the connection opened.
    var hasMetDamage: Bool { link.hasMetDamage }

    /// Whether the last statement that failed did for damage SQLite found in the file, or for
    /// a constraint that rows damaged on the disk break (two rows under one key).
    var lastFailureIsDamage: Bool {
        [SQLITE_CORRUPT, SQLITE_CONSTRAINT].contains(link.lastFailure & 0xFF)
    }

    /// Runs `read`, a read of the bookkeeping table `table` (the store's own records of a
    /// table, which it writes again when they are missing or wrong); false when SQLite finds a
    /// record damaged, so that one damaged byte there does not keep a table from opening for
    /// good. ``removeDamagedBookkeeping()`` then removes that table's records.
    @discardableResult
    func readingBookkeeping(of table: String, _ read: () throws -> Void) throws -> Bool {
        do {
            try read()
            return true
        } catch {
            guard link.lastFailure & 0xFF == SQLITE_CORRUPT else { throw error }
            link.damagedBookkeeping.insert(table)
            return false
        }
    }

    /// Whether a read found a record of the bookkeeping table `table` damaged since the
    /// connection opened, or since ``removeDamagedBookkeeping()`` made the table again.
    func hasFoundDamage(inBookkeeping table: String) -> Bool {
        link.damagedBookkeeping.contains(table)
    }

    /// Makes each bookkeeping table in which a read found a record damaged again from the
    /// records that still read, in a transaction of its own: they are searched table by table
    /// (a search that meets the damaged record fails alone). The damaged record's table writes
    /// its own again when it next opens; until then, a lost reference record means a delete
    /// does not apply that table's rule. Nothing inside another transaction.
    func removeDamagedBookkeeping() throws {
        guard !link.damagedBookkeeping.isEmpty, !isInTransaction else { return }
        var tables: [String] = []
        try run("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
            tables.append($0.text(at: 0))
        }
        for bookkeeping in link.damagedBookkeeping.sorted() {
            // The column that names the table a record is about.
            let key = bookkeeping == "store_references" ? "child" : "name"
            var kept: [[SQLiteArgument]] = []
            for table in tables {
                try readingBookkeeping(of: bookkeeping) {
                    try run(
                        "SELECT * FROM \(bookkeeping) WHERE \(key) = ?",
                        bind: { $0.bind(table, at: 1) },
                        row: { row in
                            kept.append((0..<row.columnCount).map { row.argument(at: $0) })
                        })
                }
            }
            try transaction {
                try execute("DELETE FROM \(bookkeeping)")
                for record in kept {
                    let values = Array(repeating: "?", count: record.count).joined(separator: ", ")
                    try run(
                        "INSERT OR REPLACE INTO \(bookkeeping) VALUES (\(values))",
                        bind: { statement in
                            for (index, value) in record.enumerated() {
                                statement.bind(value, at: Int32(index + 1))
                            }
                        }, row: { _ in })
                }
            }
        }
        link.damagedBookkeeping = []
    }

    /// Whether a transaction is open on this connection.
    var isInTransaction: Bool {
        connection.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }

    /// Runs `body` in one transaction, committed when it returns and rolled back when it
    /// throws: its writes reach the disk together or not at all. `BEGIN IMMEDIATE` takes the
    /// write lock first, so a second writer waits (up to the busy timeout) there, not halfway.
    /// Inside another transaction (a ``StoreTransaction`` opening a table), `body` runs in a
    /// savepoint: a failure undoes its writes, and the outer transaction decides the rest.
    ///
    /// A failed write that makes SQLite roll the whole transaction back itself (a full disk, an
    /// I/O error) ends it: every statement after it in `body`, caught or not, throws, and so
    /// does the transaction, so that nothing after the failure is committed on its own.
    @discardableResult
    func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        if link.transactionDepth > 0 || isInTransaction {
            try checkTransactionIsOpen()
            try execute("SAVEPOINT nested")
            link.transactionDepth += 1
            link.heldInTransaction.append([:])
            defer { link.transactionDepth -= 1 }
            do {
                let result = try body()
                try checkTransactionIsOpen()
                try execute("RELEASE nested")
                endHolding(committed: true)
                return result
            } catch {
                endHolding(committed: false)
                if isInTransaction {
                    try? execute("ROLLBACK TO nested")
                    try? execute("RELEASE nested")
                }
                throw error
            }
        }
        try writeAgainOnceThereIsRoom()
        try execute("BEGIN IMMEDIATE")
        link.transactionDepth = 1
        link.heldInTransaction = [[:]]
        defer {
            link.transactionDepth = 0
            link.heldInTransaction = []
        }
        do {
            let result = try body()
            try checkTransactionIsOpen()
            try execute("COMMIT")
            endHolding(committed: true)
            return result
        } catch {
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Runs `body` in a ``transaction(_:)`` only if the write lock is free now: throws `locked`
    /// at once, without the busy timeout's wait, while another connection writes.
    func transactionIfFree<Result>(_ body: () throws -> Result) throws -> Result {
        guard let connection else { return try transaction(body) }
        sqlite3_busy_timeout(connection, 0)
        defer { sqlite3_busy_timeout(connection, link.busyTimeout) }
        return try transaction(body)
    }

    /// Whether the connection is open read-only for lack of room on the disk: a write first
    /// opens it again (``transaction(_:)``).
    var isReadOnlyForLackOfSpace: Bool { link.isReadOnlyForLackOfSpace }

    /// Throws when a ``transaction(_:)`` is running but SQLite rolled it back itself.
    private func checkTransactionIsOpen() throws {
        guard link.transactionDepth > 0, connection != nil, !isInTransaction else { return }
        throw Failure.unwritable(
            file: fileURL,
            reason: "SQLite rolled the transaction back after a write failed (the disk full, or "
                + "an I/O error): none of its writes were kept, and none after it are written")
    }

    private func prepared(_ sql: String) throws -> Statement {
        if connection == nil, link.isReadOnlyForLackOfSpace, !link.isSuspended {
            try reopenForLackOfSpace()
        }
        guard let connection else { throw link.isSuspended ? Failure.suspended : Failure.closed }
        if let cached = statements[sql] { return Statement(pointer: cached) }
        if statements.count >= Self.statementCapacity, running == 0 {
            for statement in statements.values { sqlite3_finalize(statement) }
            statements = [:]
        }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else {
            // A schema SQLite cannot read is refused here, before any statement steps.
            link.lastFailure = status
            if status & 0xFF == SQLITE_CORRUPT { link.hasMetDamage = true }
            throw failure(status, reading: isRead(sql))
        }
        statements[sql] = statement
        return Statement(pointer: statement)
    }

    private func isRead(_ sql: String) -> Bool {
        sql.hasPrefix("SELECT") || sql.hasPrefix("PRAGMA")
    }

    /// The error for SQLite's result `status`: a damaged file or one that is not a database is
    /// `corrupt`; another connection holding the write lock past the timeout is `locked`; the
    /// rest cannot read or cannot write the file.
    func failure(_ status: Int32, reading: Bool) -> Failure {
        var message =
            connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(status))
        // The operating system's reason ("File too large", "Permission denied"), which SQLite's
        // own message ("disk I/O error") leaves out, for the failures that come from a file.
        let fromAFile = [SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM]
        if let connection, fromAFile.contains(status & 0xFF),
            case let code = sqlite3_system_errno(connection), code != 0
        {
            message += " (\(String(cString: strerror(code))))"
        }
        if status & 0xFF == SQLITE_READONLY, link.isReadOnlyForLackOfSpace {
            message +=
                " (it opened read-only: the disk had no room for SQLite's -shm file; it writes "
                + "again once there is room and no other repository of this process has the "
                + "database open read-only: suspend() every one, then resume() them)"
        }
        switch status & 0xFF {
        case SQLITE_CORRUPT:
            return .corrupt(
                file: fileURL, offset: 0,
                reason: message
                    + " (recover(directory:) sets aside a row whose record SQLite cannot read; "
                    + "when a page is damaged, it makes the database again from every row it can "
                    + "read, with every repository of the database closed)")
        case SQLITE_NOTADB:
            return .corrupt(file: fileURL, offset: 0, reason: message)
        case SQLITE_BUSY, SQLITE_LOCKED:
            return .locked(file: fileURL)
        case SQLITE_CANTOPEN where !reading:
            return .unwritable(file: fileURL, reason: message)
        default:
            return reading
                ? .unreadable(file: fileURL, reason: message)
                : .unwritable(file: fileURL, reason: message)
        }
    }

    /// A prepared statement: its parameters are bound, and its columns read, by 1- and
    /// 0-based index as in SQLite's C API.
    struct Statement {
        let pointer: OpaquePointer

        func bind(_ value: Int64, at index: Int32) {
            sqlite3_bind_int64(pointer, index, value)
        }

        /// Binds `text` as text, every byte of its UTF-8: a NUL inside it (a `String` id may
        /// hold one) does not end it, as it would a C string.
        func bind(_ text: String, at index: Int32) {
            bind(utf8: Data(text.utf8), at: index)
        }

        /// Binds `data` as a blob; an empty one too (SQLite takes no bytes at all for NULL).
        func bind(_ data: Data, at index: Int32) {
            guard !data.isEmpty else {
                sqlite3_bind_zeroblob(pointer, index, 0)
                return
            }
            data.withUnsafeBytes { bytes in
                _ = sqlite3_bind_blob(
                    pointer, index, bytes.baseAddress, Int32(bytes.count), transient)
            }
        }

        /// Binds UTF-8 `bytes` as text, which SQL's JSON functions read; empty text too
        /// (SQLite takes no bytes at all for NULL).
        func bind(utf8 bytes: Data, at index: Int32) {
            guard !bytes.isEmpty else {
                sqlite3_bind_text(pointer, index, "", 0, transient)
                return
            }
            bytes.withUnsafeBytes { bytes in
                _ = sqlite3_bind_text(
                    pointer, index, bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
                    Int32(bytes.count), transient)
            }
        }

        func bind(_ argument: SQLiteArgument, at index: Int32) {
            switch argument {
            case .null: sqlite3_bind_null(pointer, index)
            case .integer(let value): bind(value, at: index)
            case .real(let value): sqlite3_bind_double(pointer, index, value)
            case .text(let value): bind(value, at: index)
            case .blob(let value): bind(value, at: index)
            }
        }

        /// Binds column `column` of `row`, a statement stepping through rows, exactly as it is
        /// stored: its type and its bytes (a damaged text's too, which a `String` would change).
        func bind(column: Int32, of row: Statement, at index: Int32) {
            sqlite3_bind_value(pointer, index, sqlite3_column_value(row.pointer, column))
        }

        func int64(at column: Int32) -> Int64 { sqlite3_column_int64(pointer, column) }

        /// How many columns each row has.
        var columnCount: Int32 { sqlite3_column_count(pointer) }

        /// The column's value, in the type SQLite holds it in.
        func argument(at column: Int32) -> SQLiteArgument {
            switch sqlite3_column_type(pointer, column) {
            case SQLITE_INTEGER: .integer(int64(at: column))
            case SQLITE_FLOAT: .real(sqlite3_column_double(pointer, column))
            case SQLITE_TEXT: .text(text(at: column))
            case SQLITE_BLOB: .blob(data(at: column))
            default: .null
            }
        }

        /// The column as text, every byte of it (a NUL does not end it).
        func text(at column: Int32) -> String {
            guard let text = sqlite3_column_text(pointer, column) else { return "" }
            let bytes = UnsafeBufferPointer(
                start: text, count: Int(sqlite3_column_bytes(pointer, column)))
            return String(decoding: bytes, as: UTF8.self)
        }

        /// The column's bytes, as stored: a blob's, or a text's UTF-8.
        func data(at column: Int32) -> Data {
            guard let bytes = sqlite3_column_blob(pointer, column) else { return Data() }
            return Data(bytes: bytes, count: Int(sqlite3_column_bytes(pointer, column)))
        }

        /// SQLite copies a bound value before the call returns.
        private var transient: sqlite3_destructor_type {
            unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        }
    }
}

/// One SQLite connection and its prepared statements, closed when the last database that
/// uses it is gone.
private nonisolated final class SQLiteConnection {
    var pointer: OpaquePointer?
    /// Prepared statements, by their SQL, finalized when the database closes.
    var statements: [String: OpaquePointer] = [:]
    /// How many statements are stepping now: a row's callback may run another statement,
    /// and none is finalized while one steps.
    var running = 0
    /// How long a write waits for another connection's, in milliseconds.
    var busyTimeout: Int32 = 0
    /// Whether the connection is closed until it resumes.
    var isSuspended = false
    /// SQLite's result for the last statement that failed.
    var lastFailure = SQLITE_OK
    /// Whether the connection reads a schema SQLite finds damaged (`writable_schema`), to
    /// rebuild the database from it.
    var readsTheSchemaAsItIs = false
    /// Whether a statement on this connection failed for damage SQLite found in the file, or a
    /// check found its pages damaged, since it opened.
    var hasMetDamage = false
    /// How many ``SQLiteDatabase/transaction(_:)`` calls are running on the connection: more
    /// than 0 while SQLite has no transaction open means it rolled the transaction back itself.
    var transactionDepth = 0
    /// ``SQLiteDatabase/layoutsHeldThrough``, and what each transaction running notes until
    /// it ends (``SQLiteDatabase/holdLayout(of:through:)``).
    var layoutsHeldThrough: [String: Int64] = [:]
    var heldInTransaction: [[String: Int64]] = []
    /// The bookkeeping tables in which a read found a record damaged
    /// (``SQLiteDatabase/readingBookkeeping(of:_:)``).
    var damagedBookkeeping: Set<String> = []
    /// SQLite's extended result when the last connection failed to open.
    var lastExtendedFailure = SQLITE_OK
    /// Whether the connection was opened read-only because there was no room for SQLite's
    /// `-shm` file.
    var isReadOnlyForLackOfSpace = false
    /// The database file's path.
    var path = ""
    /// The file as SQLite shares its `-shm` mapping between connections (its device and inode;
    /// the path while it does not exist), when this connection is counted as read-only.
    private var countedAs: String?

    /// How many connections of this process have each database file open read-only for lack
    /// of room for its `-shm` file. SQLite shares one `-shm` mapping between a process's
    /// connections to a file: while one of these is open, a connection opened as usual would
    /// take that read-only mapping and fail every write. So it opens read-only too, and none
    /// opens as usual again until the others have closed.
    private static let readOnlyCounts = FileCounts()

    /// How many connections of this process have each database file open: the first to open
    /// one mends the WAL that a crash left (``SQLiteWAL``), which no other connection has read.
    private static let openCounts = FileCounts()
    /// The file as ``file`` names it, when this connection is counted among the open ones.
    private var countedOpenAs: String?

    private final class FileCounts: @unchecked Sendable {
        private let lock = NSLock()
        private var counts: [String: Int] = [:]
        private var opening: [String: NSLock] = [:]

        func add(_ file: String, _ change: Int) {
            lock.withLock { counts[file] = (counts[file] ?? 0) + change }
        }

        func count(_ file: String) -> Int { lock.withLock { counts[file] ?? 0 } }

        /// The lock that one open of `path` at a time holds.
        func openingLock(_ path: String) -> NSLock {
            lock.withLock {
                if let existing = opening[path] { return existing }
                let made = NSLock()
                opening[path] = made
                return made
            }
        }
    }

    /// The file as SQLite shares its `-shm` mapping: its device and inode.
    private var file: String {
        var info = stat()
        guard stat(path, &info) == 0 else { return path }
        return "\(info.st_dev):\(info.st_ino)"
    }

    /// Runs `body`, an open of the file, while no other connection of this process opens it:
    /// by its path, and by any of its names (its device and inode, once it exists).
    func whileOpening(_ body: () throws -> Void) throws {
        let file = file
        try Self.readOnlyCounts.openingLock(path).withLock {
            guard file != path else { return try body() }
            try Self.readOnlyCounts.openingLock(file).withLock(body)
        }
    }

    /// Whether no connection of this process has the file open.
    var isFirstToOpen: Bool { Self.openCounts.count(file) == 0 }

    /// Counts this connection, once open, among the process's open ones, until it closes.
    func countAsOpen() {
        guard countedOpenAs == nil, pointer != nil else { return }
        let file = file
        Self.openCounts.add(file, 1)
        countedOpenAs = file
    }

    /// Counts this open connection among the process's read-only ones, until it closes.
    func countAsReadOnly() {
        guard countedAs == nil, pointer != nil else { return }
        let file = file
        Self.readOnlyCounts.add(file, 1)
        countedAs = file
    }

    /// Whether another connection of this process has the file open read-only.
    var othersAreReadOnly: Bool {
        Self.readOnlyCounts.count(countedAs ?? file) > (countedAs == nil ? 0 : 1)
    }

    func close() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
        if let pointer { sqlite3_close_v2(pointer) }
        pointer = nil
        if let countedAs {
            Self.readOnlyCounts.add(countedAs, -1)
            self.countedAs = nil
        }
        if let countedOpenAs {
            Self.openCounts.add(countedOpenAs, -1)
            self.countedOpenAs = nil
        }
    }

    deinit {
        close()
    }
}

/// An id type that a sqlite table keys its rows by, in the order ``StoredValue/precedes(_:_:)``
/// gives: `Int` as an integer, `String` as text (byte order), `UUID` as its 16 bytes.
nonisolated protocol SQLiteKey {
    /// The column's type in SQL.
    static var columnType: String { get }
    func bind<Failure>(to statement: SQLiteDatabase<Failure>.Statement, at index: Int32)
    init<Failure>(column: Int32, of statement: SQLiteDatabase<Failure>.Statement)
    /// The bytes the row's checksum covers.
    var checksumBytes: Data { get }
    /// The key as its column holds it.
    var argument: SQLiteArgument { get }
    /// The key a column holds, or nil when it is not one of this type.
    init?(argument: SQLiteArgument)
}

nonisolated extension Int: SQLiteKey {
    static var columnType: String { "INTEGER" }
    func bind<Failure>(to statement: SQLiteDatabase<Failure>.Statement, at index: Int32) {
        statement.bind(Int64(self), at: index)
    }
    init<Failure>(column: Int32, of statement: SQLiteDatabase<Failure>.Statement) {
        self = Int(truncatingIfNeeded: statement.int64(at: column))
    }
    var checksumBytes: Data { Data(String(self).utf8) }
    var argument: SQLiteArgument { .integer(Int64(self)) }
    init?(argument: SQLiteArgument) {
        guard case .integer(let value) = argument else { return nil }
        self = Int(truncatingIfNeeded: value)
    }
}

nonisolated extension String: SQLiteKey {
    static var columnType: String { "TEXT" }
    func bind<Failure>(to statement: SQLiteDatabase<Failure>.Statement, at index: Int32) {
        statement.bind(self, at: index)
    }
    init<Failure>(column: Int32, of statement: SQLiteDatabase<Failure>.Statement) {
        self = statement.text(at: column)
    }
    var checksumBytes: Data { Data(utf8) }
    var argument: SQLiteArgument { .text(self) }
    init?(argument: SQLiteArgument) {
        guard case .text(let value) = argument else { return nil }
        self = value
    }
}

nonisolated extension UUID: SQLiteKey {
    static var columnType: String { "BLOB" }
    func bind<Failure>(to statement: SQLiteDatabase<Failure>.Statement, at index: Int32) {
        statement.bind(checksumBytes, at: index)
    }
    init<Failure>(column: Int32, of statement: SQLiteDatabase<Failure>.Statement) {
        let bytes = [UInt8](statement.data(at: column))
        guard bytes.count == 16 else {
            // Not an id this table wrote: the row's checksum then fails.
            self = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
            return
        }
        self = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14],
                bytes[15]
            ))
    }
    var checksumBytes: Data { withUnsafeBytes(of: uuid) { Data($0) } }
    var argument: SQLiteArgument { .blob(checksumBytes) }
    init?(argument: SQLiteArgument) {
        guard case .text(let text) = argument.jsonForm, let uuid = UUID(uuidString: text) else {
            return nil
        }
        self = uuid
    }
}

/// One model's table in the module's database: a row per value, keyed by id, with the value's
/// JSON (as text, which SQL's JSON functions read for queries and indexes), the schema version
/// that wrote it, and a checksum of both id and JSON. Reads go to the database, a query or a
/// page at a time; nothing keeps every value in memory.
///
/// The table `store_tables` records each table's schema version. A table of an earlier version
/// is migrated when it opens, every row in one transaction, so that queries read current JSON;
/// a row that a migration cannot carry over rolls it all back, and the store stays as it was.
nonisolated struct SQLiteTable<Value: StoredValue, Failure: SQLiteFailure>
where Value.ID: SQLiteKey {
    let database: SQLiteDatabase<Failure>
    /// The table's name in SQL, a model's plural (`questions`).
    let name: String
    /// Its references, `:unique` and `:index` fields: `SQLiteRelations.swift`.
    let schema: SQLiteSchema<Value>
    /// Whether a save checks that the values its references name are stored (not in a database
    /// in memory, which holds one model's values only).
    private let checksReferences: Bool
    /// The columns ``value(of:)`` reads, in its order.
    let columns = "id, version, value, checksum"
    /// The statements a save and a delete run, each built once (statements are prepared once
    /// per connection and found by their SQL).
    private let insertSQL: String
    private let deleteSQL: String
    /// Encodes values as the other storages do: sorted keys.
    private let encoder: JSONEncoder

    /// The table `name` in `database`, created when missing, migrated when an earlier schema
    /// version wrote it, with `schema`'s references recorded and an index on each of its fields.
    ///
    /// - Throws: `newerSchema` when a newer version of the app wrote it, `notMigrated` when a
    ///   migration has a value to decide, `corrupt` for a damaged row.
    init(
        _ name: String, in database: SQLiteDatabase<Failure>,
        schema: SQLiteSchema<Value> = SQLiteSchema(model: "\(Value.self)")
    ) throws {
        self.database = database
        self.name = name
        self.schema = schema
        // A table opened on a database in memory (in a transaction of an `inMemory`
        // repository) holds one model's values only, as the initializer below.
        checksReferences = !database.isInMemory
        (insertSQL, deleteSQL, encoder) = Self.writing(name)
        // Read first: what is logged after it is looked for, should the layout record go.
        let logged = try? lastLogged()
        // Opening an app's store every launch reads; only a new or older table, or a changed
        // reference or index, takes the write lock.
        if try !isReady() {
            try database.removeDamagedBookkeeping()
            try create()
        }
        if let logged, let layout = schema.layout, try recordedLayout() == layout {
            database.holdLayout(of: name, through: logged)
        }
        // Best effort, in a transaction of its own (never in a caller's, which a failure could
        // end): a full disk or another writer leaves the earlier indexes, which give the same
        // results, for the next open.
        let earlier = try indexesOfAnEarlierRelease()
        if !database.isInTransaction, !earlier.isEmpty {
            try? database.transaction { try remakeIndexes(earlier) }
        }
        // A record of this revision that an earlier release wrote (no checksum) gets one, once,
        // as best effort too: read-only for a full disk, the table opens as before.
        if !database.isInTransaction, let record = try? revisionRecord(),
            record.revision == schema.revision, !record.isChecked
        {
            // Read again under the write lock: a newer build may have recorded its own since.
            try? database.transaction {
                guard let record = try revisionRecord(), record.revision == schema.revision,
                    !record.isChecked
                else { return }
                try recordRevision()
            }
        }
    }

    /// Creates the table, or migrates it, in one transaction; then rewrites the rows of an
    /// earlier layout (``rewriteRowsOfAnotherLayout()``), in transactions of their own.
    private func create() throws {
        try database.transaction {
            try createTables()
            let version = try recordedVersion()
            // A newer app migrates every row it opens, so its rows say so too. A version
            // recorded above every row's is a damaged byte, not a newer app, and is written
            // again; so is a lost one (a new table, or its record damaged).
            if version.map({ $0 > Value.schemaVersion }) ?? true,
                let newer = try newerVersionOfARow()
            {
                throw Failure.newerSchema(
                    file: database.fileURL, found: newer, supported: Value.schemaVersion)
            }
            // The indexes first, so the migration's writes keep them as they go.
            try recordSchema()
            if version != Value.schemaVersion {
                // Each row says which version wrote it, so a version recorded wrongly, or lost
                // (its byte damaged), rewrites no row that is current.
                try migrateRows()
                try database.run(
                    "INSERT OR REPLACE INTO store_tables (name, version) VALUES (?, ?)",
                    bind: { statement in
                        statement.bind(name, at: 1)
                        statement.bind(Int64(Value.schemaVersion), at: 2)
                    }, row: { _ in })
            }
            // A renamed reference: the new name is recorded above, so its rows go with it.
            if schema.renamesAReference { try rewriteRowsOfAnotherLayout() }
        }
        if let layout = schema.layout, try recordedLayout() != layout,
            try recordedRevision().map({ $0 <= schema.revision }) ?? true
        {
            try rewriteRowsOfAnotherLayout()
            try database.transaction {
                try database.run(
                    "INSERT OR REPLACE INTO store_layouts (name, keys) VALUES (?, ?)",
                    bind: { statement in
                        statement.bind(name, at: 1)
                        statement.bind(layout, at: 2)
                    }, row: { _ in })
            }
        }
    }

    /// The table `name` in a database in memory, holding `values`, but those the table's rules
    /// refuse: for previews and an app's tests. Nothing there can fail but memory; a failure
    /// shows on the first read or write.
    init(
        inMemory name: String, in database: SQLiteDatabase<Failure>,
        schema: SQLiteSchema<Value> = SQLiteSchema(model: "\(Value.self)"), values: [Value]
    ) {
        self.database = database
        self.name = name
        self.schema = schema
        checksReferences = false
        (insertSQL, deleteSQL, encoder) = Self.writing(name)
        try? database.transaction {
            try createTables()
            try recordSchema()
        }
        // Apart from the tables, and, when the values break a rule together (two samples of one
        // `:unique` value, a text holding U+0000), one at a time: a preview shows every value
        // that can be saved, not an empty list. An id given twice is its last value, as a save
        // of them all would leave it.
        var last: [Value.ID: Int] = [:]
        for (index, value) in values.enumerated() { last[value.id] = index }
        let latest = values.indices.filter { last[values[$0].id] == $0 }.map { values[$0] }
        if (try? database.transaction({ try save(latest) })) == nil {
            for value in latest { try? database.transaction { try save([value]) } }
        }
    }

    private static func writing(_ name: String) -> (String, String, JSONEncoder) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (
            "INSERT OR REPLACE INTO \"\(name)\" (id, version, value, checksum) VALUES (?, ?, ?, ?)",
            "DELETE FROM \"\(name)\" WHERE id = ?", encoder
        )
    }

    private func createTables() throws {
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS store_tables (
                name TEXT PRIMARY KEY NOT NULL,
                version INTEGER NOT NULL
            ) WITHOUT ROWID
            """)
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS store_layouts (
                name TEXT PRIMARY KEY NOT NULL,
                keys TEXT NOT NULL
            ) WITHOUT ROWID
            """)
        try Self.createReferenceTable(in: database)
        try SQLiteChangeLog.createTable(in: database)
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS "\(name)" (
                id \(Value.ID.columnType) PRIMARY KEY NOT NULL,
                version INTEGER NOT NULL,
                value TEXT NOT NULL,
                checksum INTEGER NOT NULL
            ) WITHOUT ROWID
            """)
    }

    /// The SQL that reads the JSON key `field` of a row's value (NULL when it is damaged).
    static func json(_ field: String) -> String { StoreQueryText.field(field) }

    /// Whether the table exists at the current schema version, with exactly the references and
    /// indexes of its schema, recorded by its revision (or left by a later one's). Each record
    /// is read, even when one before already says no, so that a damaged one is found before
    /// ``create()`` writes them again.
    private func isReady() throws -> Bool {
        var names: Set<String> = []
        try database.run("SELECT name FROM sqlite_master") { names.insert($0.text(at: 0)) }
        var references: [String]?
        if names.contains("store_references") {
            try database.readingBookkeeping(of: "store_references") {
                references = try recordedReferences()
            }
        }
        let layout = names.contains("store_layouts") ? try recordedLayout() : nil
        let version = names.contains("store_tables") ? try recordedVersion() : nil
        let revision = names.contains("store_revisions") ? try recordedRevision() : nil
        guard
            ["store_tables", "store_references", SQLiteChangeLog.table, name].allSatisfy(
                names.contains)
        else { return false }
        // A newer build's references and indexes stay as it recorded them (``recordSchema()``).
        let isNewerBuilds = revision.map { $0 > schema.revision } ?? false
        // A renamed reference's former key is recorded by this release and not by earlier
        // ones: either set of records is this revision's.
        let indexNames = try Set(indexes().keys)
        let recordsAreMine =
            revision == schema.revision
            && [true, false].contains { withFormerKeys in
                indexNames == Set(neededIndexes(withFormerKeys: withFormerKeys).keys)
                    && references == declaredReferences(withFormerKeys: withFormerKeys)
            }
        // An older build leaves the rows in the newer one's layout: it cannot read them as
        // that build wrote them, and the newer build would rewrite them back.
        return (isNewerBuilds || recordsAreMine)
            && (schema.layout == nil || layout == schema.layout || isNewerBuilds)
            && version == Value.schemaVersion
    }

    /// The keys the table's rows were last all written with (``SQLiteSchema/layout``): nil
    /// when none are recorded, or SQLite finds their record damaged.
    private func recordedLayout() throws -> String? {
        var layout: String?
        let read = try database.readingBookkeeping(of: "store_layouts") {
            try database.run(
                "SELECT keys FROM store_layouts WHERE name = ?", bind: { $0.bind(name, at: 1) },
                row: { layout = $0.text(at: 0) })
        }
        return read ? layout : nil
    }

    /// The schema version recorded for the table: nil when none is, or SQLite finds its record
    /// damaged (``SQLiteDatabase/readingBookkeeping(of:_:)``).
    private func recordedVersion() throws -> Int? {
        var version: Int?
        let read = try database.readingBookkeeping(of: "store_tables") {
            try database.run(
                "SELECT version FROM store_tables WHERE name = ?", bind: { $0.bind(name, at: 1) },
                row: { version = Int(truncatingIfNeeded: $0.int64(at: 0)) })
        }
        return read ? version : nil
    }

    /// The schema version of the first intact row newer than this build's, or nil when there
    /// is none. The search stops there: after a newer build's migration, at the first row.
    private func newerVersionOfARow() throws -> Int? {
        var found: Int?
        do {
            try database.run(
                "SELECT \(columns) FROM \"\(name)\" WHERE version > ?",
                bind: { $0.bind(Int64(Value.schemaVersion), at: 1) },
                row: { row in
                    guard isIntact(row) else { return }
                    found = Int(truncatingIfNeeded: row.int64(at: 1))
                    throw CancellationError()  // Stops the search.
                })
        } catch is CancellationError {}
        return found
    }

    /// Rewrites every row of an earlier version as the current one, a page at a time, in the
    /// caller's transaction. Each page starts after the last one's id, so that no page reads
    /// again the rows migrated before it (a million rows would read them about 500 times). A
    /// row whose checksum fails keeps its version and bytes, and a read of it reports it. A
    /// page starts after the last key's bytes as stored: a damaged key that is not UTF-8, read
    /// as a `String`, would sort before itself and start every page again at that row.
    private func migrateRows() throws {
        var after: SQLiteProbe?
        while true {
            var rows: [Value] = []
            var last: SQLiteProbe?
            try database.run(
                "SELECT \(columns) FROM \"\(name)\" WHERE version < ?"
                    + (after == nil ? "" : " AND id > ?") + " ORDER BY id LIMIT 1000",
                bind: { statement in
                    statement.bind(Int64(Value.schemaVersion), at: 1)
                    after?.bind(to: statement, at: 2)
                },
                row: { row in
                    last = SQLiteProbe(column: 0, of: row)
                    // A damaged row stays as it is, for a read to report: it must not keep
                    // every other row of the table from opening.
                    if isIntact(row) { rows.append(try decodedValue(of: row)) }
                })
            guard let last else { return }
            // The values as they were: a duplicate or a dangling reference stored before the
            // rule existed is kept (and listed), never a reason for the store not to open.
            try save(rows, checkingRules: false, skippingDamaged: true)
            after = last
        }
    }

    /// Rewrites, as this code writes them, the rows written before a field was renamed or
    /// added with a default, without a new schema version: a row that lacks a key the model
    /// always writes, or holds a renamed field's former key, and for a field written under both
    /// keys, without their mark or with a value there that a build from before the rename
    /// changed (``SQLiteSchema/renameMarks``). A key this code does not know is
    /// no reason (a newer build of the app may have added it), and a row rewritten for another
    /// reason keeps it as it was written (``StoreFiles/JSONBytes/members(of:notIn:)``). A row
    /// that cannot be read is left as it is, for a read to report. A transaction per 1,000
    /// rows, each read in it: a rewritten row no longer matches, so an open killed on the way
    /// (a slow launch) leaves the rest for the next, rather than starting over each time.
    private func rewriteRowsOfAnotherLayout(among ids: [Value.ID]? = nil) throws {
        let missing = schema.requiredKeys.map { "json_type(value, '$.\"\($0)\"') IS NULL" }
        let marks = Dictionary(uniqueKeysWithValues: schema.renameMarks.map { ($0.former, $0) })
        let former = schema.renamed.keys.sorted().map { key in
            let held = "json_type(value, '$.\"\(key)\"') IS NOT NULL"
            guard let marked = marks[key] else { return held }
            let changed = SQLiteSchema<Value>.changedByAnOlderBuild(
                former: marked.former, now: marked.now, mark: marked.mark)
            return "(\(held) AND (json_type(value, '$.\"\(marked.mark)\"') IS NULL OR \(changed)))"
        }
        // A row whose JSON is damaged is not one to rewrite, and must not stop the query.
        let condition =
            "CASE WHEN json_valid(value) THEN (\((missing + former).joined(separator: " OR ")))"
            + " ELSE 0 END"
        // A key neither written nor once written by this code is a newer build's (an extension
        // not yet updated opens the app's database): it is written back as it was.
        let known =
            Value.knownKeys
            ?? Set(schema.keys)
            .union(schema.renamed.keys).union(schema.renameMarks.map(\.mark))
        // Each page starts after the last key's bytes as stored (see ``migrateRows()``); rows
        // named by `ids` are read 500 at a time.
        var after: SQLiteProbe?
        var start = ids?.startIndex ?? 0
        while true {
            let chunk = ids.map { $0[start..<min(start + 500, $0.endIndex)] }
            if let chunk {
                guard !chunk.isEmpty else { return }
                start = chunk.endIndex
            }
            let last = try database.transaction { () throws -> SQLiteProbe? in
                var rows: [Value] = []
                var kept: [Value.ID: [Data]] = [:]
                var last: SQLiteProbe?
                let rowsRead =
                    chunk.map {
                        "id IN (\(Array(repeating: "?", count: $0.count).joined(separator: ", ")))"
                    }
                    ?? (after == nil ? "1" : "id > ?")
                try database.run(
                    "SELECT \(columns) FROM \"\(name)\" WHERE \(rowsRead) "
                        + "AND \(condition) ORDER BY id LIMIT 1000",
                    bind: { statement in
                        guard let chunk else { return after?.bind(to: statement, at: 1) ?? () }
                        for (index, id) in chunk.enumerated() {
                            id.bind(to: statement, at: Int32(index + 1))
                        }
                    },
                    row: { row in
                        last = SQLiteProbe(column: 0, of: row)
                        let json = ArraySlice(row.data(at: 2))
                        guard let value = try? value(of: row),
                            StoreFiles.JSONBytes.members(of: json, notIn: known) != nil
                        else { return }
                        rows.append(value)
                        kept[value.id] =
                            StoreFiles.unknownMembers(of: [(value, json)], known: known)[value.id]
                    })
                try save(
                    rows, checkingRules: false, skippingDamaged: true, keeping: { kept[$0] ?? [] })
                return last
            }
            if ids != nil { continue }
            guard let last else { return }
            after = last
        }
    }

    // MARK: - Reading

    /// How many values the table holds.
    func count() throws -> Int {
        var count = 0
        try database.run("SELECT count(*) FROM \"\(name)\"") {
            count = Int(truncatingIfNeeded: $0.int64(at: 0))
        }
        return count
    }

    /// Whether the table holds no value: one row looked for, where `count()` reads them all.
    func isEmpty() throws -> Bool {
        var isEmpty = true
        try database.run("SELECT 1 FROM \"\(name)\" LIMIT 1") { _ in isEmpty = false }
        return isEmpty
    }

    /// The value with `id`, if there is one.
    func find(_ id: Value.ID) throws -> Value? {
        var found: Value?
        try database.run(
            "SELECT \(columns) FROM \"\(name)\" WHERE id = ?",
            bind: { id.bind(to: $0, at: 1) }, row: { found = try value(of: $0) })
        return found
    }

    /// The rows `ids` as they are now: the values stored, and the ids of those deleted, in
    /// the order of `ids`, read 500 at a time; and the ids of rows that cannot be read now
    /// (damaged, or the database busy), for a later read.
    func current(_ ids: [Value.ID]) -> (saved: [Value], deleted: [Value.ID], unread: [Value.ID]) {
        var saved: [Value] = []
        var deleted: [Value.ID] = []
        var unread: [Value.ID] = []
        var start = ids.startIndex
        while start < ids.endIndex {
            let chunk = ids[start..<min(start + 500, ids.endIndex)]
            start = chunk.endIndex
            var found: [Value.ID: Value] = [:]
            do {
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                try database.run(
                    "SELECT \(columns) FROM \"\(name)\" WHERE id IN (\(marks))",
                    bind: { statement in
                        for (index, id) in chunk.enumerated() {
                            id.bind(to: statement, at: Int32(index + 1))
                        }
                    },
                    row: { row in
                        let value = try value(of: row)
                        found[value.id] = value
                    })
            } catch {
                // One row at a time, so that only the unreadable ones are left out.
                for id in chunk {
                    guard let value = try? find(id) else {
                        if (try? stored([id]).isEmpty) == true {
                            deleted.append(id)
                        } else {
                            unread.append(id)
                        }
                        continue
                    }
                    saved.append(value)
                }
                continue
            }
            for id in chunk {
                if let value = found[id] { saved.append(value) } else { deleted.append(id) }
            }
        }
        return (saved, deleted, unread)
    }

    /// Which of `ids` the table holds, in their order.
    func stored(_ ids: [Value.ID]) throws -> [Value.ID] {
        try ids.filter { id in
            var isStored = false
            try database.run(
                "SELECT 1 FROM \"\(name)\" WHERE id = ?", bind: { id.bind(to: $0, at: 1) },
                row: { _ in isStored = true })
            return isStored
        }
    }

    /// Up to `limit` values in id order, from the first one after `id` (from the start when it
    /// is nil).
    func page(after id: Value.ID?, limit: Int) throws -> [Value] {
        var values: [Value] = []
        let sql =
            id == nil
            ? "SELECT \(columns) FROM \"\(name)\" ORDER BY id LIMIT ?"
            : "SELECT \(columns) FROM \"\(name)\" WHERE id > ? ORDER BY id LIMIT ?"
        try database.run(
            sql,
            bind: { statement in
                if let id {
                    id.bind(to: statement, at: 1)
                    statement.bind(Int64(limit), at: 2)
                } else {
                    statement.bind(Int64(limit), at: 1)
                }
            }, row: { values.append(try value(of: $0)) })
        return values
    }

    /// Where a reader that reads every value a page at a time has got to: after the row whose
    /// id column holds `after`, or at the first row when it is nil.
    struct PageCursor {
        var after: SQLiteRowKey?
    }

    /// Up to `limit` values after the row whose id column holds `last` (from the first when
    /// nil), in id order, the ids of the rows among them that cannot be read now (a checksum
    /// that fails, a value this code cannot decode) apart, and the key to go on after: nil once
    /// no row is left. One such row does not keep a reader that reads everything again from
    /// all the others, and a reader that reads a page at a time never holds more than a page of
    /// a million values.
    func readableValues(after last: SQLiteRowKey?, limit: Int) throws -> (
        values: [Value], unread: [Value.ID], last: SQLiteRowKey?
    ) {
        var values: [Value] = []
        var unread: [Value.ID] = []
        var next: SQLiteRowKey?
        try database.run(
            "SELECT \(columns) FROM \"\(name)\"\(last == nil ? "" : " WHERE id > ?") "
                + "ORDER BY id LIMIT ?",
            bind: { statement in
                if let last { statement.bind(last, at: 1) }
                statement.bind(Int64(limit), at: last == nil ? 1 : 2)
            },
            row: { row in
                // The key as stored: a row whose id this code cannot read is passed, not an end.
                next = row.argument(at: 0)
                if let value = try? value(of: row) {
                    values.append(value)
                } else if let id = Value.ID(argument: row.argument(at: 0)) {
                    unread.append(id)
                }
            })
        return (values, unread, next)
    }

    /// Calls `body` with every value, in id order, reading a row at a time (a scan).
    func scan(_ body: (Value) throws -> Void) throws {
        try database.run("SELECT \(columns) FROM \"\(name)\" ORDER BY id") {
            try body(try value(of: $0))
        }
    }

    /// The values `query` selects, in its order, from its offset or after its cursor, up to its
    /// limit: filtered and sorted in SQL.
    func values(_ query: StoreQuery<Value>) throws -> [Value] {
        catchUpBeforeReading()
        let (clause, arguments) = query.whereClause(includingCursor: true)
        let sql =
            "SELECT \(columns) FROM \"\(name)\"\(clause) ORDER BY \(query.orderClause) LIMIT ? OFFSET ?"
        var values: [Value] = []
        try database.run(
            sql,
            bind: { statement in
                for (index, argument) in arguments.enumerated() {
                    statement.bind(argument, at: Int32(index + 1))
                }
                statement.bind(Int64(query.limit ?? -1), at: Int32(arguments.count + 1))
                statement.bind(Int64(query.offset), at: Int32(arguments.count + 2))
            }, row: { values.append(try value(of: $0)) })
        return values
    }

    /// How many values `query`'s filter selects, whatever its limit, offset and cursor.
    func count(_ query: StoreQuery<Value>) throws -> Int {
        catchUpBeforeReading()
        let (clause, arguments) = query.whereClause(includingCursor: false)
        var count = 0
        try database.run(
            "SELECT count(*) FROM \"\(name)\"\(clause)",
            bind: { statement in
                for (index, argument) in arguments.enumerated() {
                    statement.bind(argument, at: Int32(index + 1))
                }
            }, row: { count = Int(truncatingIfNeeded: $0.int64(at: 0)) })
        return count
    }

    // MARK: - Writing, in the caller's transaction

    /// Writes `change` in a transaction of its own (a savepoint in the caller's): on disk when
    /// this returns, or not at all. Returns what changed, in this table (for another repository
    /// of it in this process) and in others, by the delete rules; the outermost transaction
    /// also logs it for other processes (``SQLiteChangeLog``).
    @discardableResult
    func commit(_ change: StoreChange<Value>) throws -> SQLiteEffects {
        let isOutermost = !database.isInTransaction
        // Kept even when the change is refused (a `:unique` value the rewritten rows hold).
        catchUpBeforeReading()
        return try database.transaction {
            try checkNoOtherBuildChangedTheTable()
            var effects = SQLiteEffects()
            switch change {
            case .saved(let values):
                try save(values)
                effects.change(values.map(\.id.argument), in: name)
            case .deleted(let ids): effects = try delete(ids)
            case .removedAll: effects = try removeAll()
            }
            if isOutermost { try SQLiteChangeLog.record(effects, in: database) }
            return effects
        }
    }

    /// Checks, in the write's transaction, that the table is as this build writes it: throws
    /// `newerSchema` (nothing written) when a newer build migrated it since it opened; when the
    /// recorded layout is another build's (``SQLiteSchema/layout``), removes that record, so
    /// that the next open of the build that wrote it rewrites the rows of this one's layout.
    /// A version recorded above every row's (a damaged byte, or an empty table a newer build
    /// made, which migrates this build's rows when it opens the table again) is written again
    /// as this build's; a save never writes over a newer build's row (``checkIntact(_:in:supporting:)``).
    private func checkNoOtherBuildChangedTheTable() throws {
        if let version = try recordedVersion(), version > Value.schemaVersion {
            if let newer = try newerVersionOfARow() {
                throw Failure.newerSchema(
                    file: database.fileURL, found: newer, supported: Value.schemaVersion)
            }
            try database.run(
                "INSERT OR REPLACE INTO store_tables (name, version) VALUES (?, ?)",
                bind: { statement in
                    statement.bind(name, at: 1)
                    statement.bind(Int64(Value.schemaVersion), at: 2)
                }, row: { _ in })
        }
        try catchUpWithOtherBuilds()
    }

    /// Makes the table's rows readable by this build's SQL again after another build wrote them,
    /// in the caller's write transaction. The layout record (``SQLiteSchema/layout``) says whose
    /// rows the table holds: when it is this build's, nothing to do. When it is gone or another
    /// build's, and this build is of the latest revision recorded (``recordSchema()``), it
    /// rewrites (``rewriteRowsOfAnotherLayout(among:)``) the rows logged since it last found the
    /// record its own (``SQLiteDatabase/layoutsHeldThrough``; every row when the log no longer
    /// reaches back that far), and records its layout again. An older build removes a newer
    /// one's record instead, so that the newer build finds its writes.
    private func catchUpWithOtherBuilds() throws {
        guard let layout = schema.layout, !database.isInMemory else { return }
        let recorded = try recordedLayout()
        // A damaged record is the next open's to make again: no write here would go through.
        if recorded == nil, database.hasFoundDamage(inBookkeeping: "store_layouts") { return }
        guard recorded != layout else {
            database.holdLayout(of: name, through: try lastLogged())
            return
        }
        guard try isOfTheLatestRevision() else {
            if recorded != nil {
                try database.run(
                    "DELETE FROM store_layouts WHERE name = ?", bind: { $0.bind(name, at: 1) },
                    row: { _ in })
            }
            return
        }
        if let held = database.layoutsHeldThrough[name], let ids = try loggedIDs(after: held).ids {
            try rewriteRowsOfAnotherLayout(among: ids)
        } else {
            try rewriteRowsOfAnotherLayout()
        }
        try database.run(
            "INSERT OR REPLACE INTO store_layouts (name, keys) VALUES (?, ?)",
            bind: { statement in
                statement.bind(name, at: 1)
                statement.bind(layout, at: 2)
            }, row: { _ in })
        database.holdLayout(of: name, through: try lastLogged())
    }

    /// Whether this build's revision of the model is known and no other build recorded a later
    /// one: the build whose layout the table's rows should have.
    private func isOfTheLatestRevision() throws -> Bool {
        guard schema.revision > 0, let recorded = try recordedRevision() else { return false }
        return recorded <= schema.revision
    }

    /// Before a read that SQL filters (a query, a count, the duplicates) or a write: when another build
    /// wrote the table since this one last looked, ``catchUpWithOtherBuilds()`` in a transaction
    /// of its own, taken only when the write lock is free: a read never waits for another
    /// connection's write. A failure (another writer, a full disk) leaves it for the next write
    /// or read; outside a transaction only (a table opened in one caught up as it opened).
    func catchUpBeforeReading() {
        guard let layout = schema.layout, !database.isInTransaction, !database.isInMemory,
            !database.isReadOnlyForLackOfSpace, (try? recordedLayout()) != layout,
            (try? isOfTheLatestRevision()) == true
        else { return }
        try? database.transactionIfFree { try catchUpWithOtherBuilds() }
    }

    /// Inserts or replaces `values`, in the caller's transaction: each `:unique` field checked
    /// before its value is written, and, once all are, that every reference names a stored
    /// value. `checkingRules: false` writes them as they are (a migration's rows); with
    /// `skippingDamaged`, a value whose id SQLite's search finds on a row that fails its
    /// checksum is not written, and both rows wait for `recover(directory:)` (a rewrite at open
    /// must neither take a damaged row away nor stop the table opening).
    ///
    /// `keeping` gives, for a value, members of the JSON it replaces to write beside its own
    /// (``rewriteRowsOfAnotherLayout()``'s keys of a newer build). With `checkingRules`, an
    /// app's save, they are read from the row it replaces instead, when that row is of this
    /// schema version: its keys that ``StoredValue/knownKeys`` does not hold (a newer build's).
    func save(
        _ values: [Value], checkingRules: Bool = true, skippingDamaged: Bool = false,
        keeping kept: (Value.ID) -> [Data] = { _ in [] }
    ) throws {
        for value in values {
            var keeping = kept(value.id)
            var replaced: Data?
            if checkingRules {
                let stored = try intactRow(
                    value.id.argument, in: name, supporting: Value.schemaVersion)
                if let stored, stored.version == Value.schemaVersion {
                    keeping = Self.newerBuildsMembers(of: stored.json)
                }
                replaced = stored?.json
            } else if skippingDamaged {
                do { try checkIntact(value.id.argument, in: name) } catch { continue }
            }
            var json: Data
            do {
                json = try StoreFiles.readableJSON(encoder.encode(value))
            } catch {
                throw Failure.unwritable(file: database.fileURL, reason: "\(error)")
            }
            if checkingRules, let field = Self.newTextHoldingNUL(json, replacing: replaced) {
                throw Failure.unwritable(
                    file: database.fileURL,
                    reason: "\(field) holds the character U+0000 (NUL), at which SQLite's JSON "
                        + "functions end the text, so its queries, lookups and :unique checks "
                        + "would read another value than the one saved; nothing was written. "
                        + "Remove the character from the text")
            }
            json = StoreFiles.JSONBytes.object(json, adding: keeping)
            if checkingRules { try checkUnique(json, id: value.id) }
            try database.writeRow(
                insertSQL, of: name,
                bind: { statement in
                    value.id.bind(to: statement, at: 1)
                    statement.bind(Int64(Value.schemaVersion), at: 2)
                    statement.bind(utf8: json, at: 3)
                    statement.bind(
                        Int64(Self.checksum(value.id, Value.schemaVersion, json)), at: 4)
                })
        }
        guard checkingRules, checksReferences, !schema.references.isEmpty else { return }
        for value in values { try checkReferences(of: value) }
    }

    /// The field of `json` whose text holds U+0000 and is not the same in `replaced`, the JSON
    /// of the row it replaces, or nil.
    private static func newTextHoldingNUL(_ json: Data, replacing replaced: Data?) -> String? {
        let texts = StoreFiles.JSONBytes.textsHoldingNUL(json)
        guard !texts.isEmpty else { return nil }
        let kept = Set(replaced.map(StoreFiles.JSONBytes.textsHoldingNUL)?.map(\.member) ?? [])
        return texts.first { !kept.contains($0.member) }?.key
    }

    /// The members of a stored row's JSON, of this schema version, that a newer build wrote:
    /// its keys that ``StoredValue/knownKeys`` does not hold, less those the value the row
    /// holds writes itself (a field added to the model by hand, which a save must be able to
    /// clear): ``StoreFiles/unknownMembers(of:known:)``. A row that does not decode keeps them
    /// all.
    private static func newerBuildsMembers(of json: Data) -> [Data] {
        guard let known = Value.knownKeys,
            let members = StoreFiles.JSONBytes.members(of: ArraySlice(json), notIn: known),
            !members.isEmpty
        else { return [] }
        guard let stored = try? decode(json, version: Value.schemaVersion) else { return members }
        return StoreFiles.unknownMembers(of: [(stored, ArraySlice(json))])[stored.id] ?? []
    }

    /// Writes `values`, which another storage kept before the model moved to this one, as they
    /// are, in transactions of 10,000 (see ``importValues(_:chunk:)``).
    func importValues(_ values: [Value]) throws {
        try importValues(values, chunk: 10_000)
    }

    /// Writes `values`, which another storage kept before the model moved to this one, as they
    /// are (a duplicate or a dangling reference is kept and listed, as a migration's rows).
    ///
    /// They go in key order, `chunk` to a transaction, each recording how far the import came
    /// (`store_imports`: how many values, how many written, the last key written). An import
    /// stopped on the way (a crash, or an app killed for taking too long to launch) goes on from
    /// there at the next call with the same values, rather than from the start: a million values
    /// take seconds, and an import that started again each time might never end. A record that
    /// does not fit `values` (another count, or another key at its place) is not trusted: the
    /// import starts over. The last transaction removes the record and logs that any value of
    /// the table may have changed, so that `changes()` in another process reads them again.
    /// Inside another transaction the chunks are savepoints of it, which decides for them all.
    func importValues(_ values: [Value], chunk: Int) throws {
        let ordered = Self.inKeyOrder(values)
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS store_imports (
                name TEXT PRIMARY KEY NOT NULL,
                total INTEGER NOT NULL,
                done INTEGER NOT NULL,
                last BLOB
            ) WITHOUT ROWID
            """)
        var done = 0
        // A record SQLite finds damaged is not trusted either: the import starts over, and so
        // does any other table's.
        try database.readingBookkeeping(of: "store_imports") {
            try database.run(
                "SELECT total, done, last FROM store_imports WHERE name = ?",
                bind: { $0.bind(name, at: 1) },
                row: { row in
                    let recorded = Int(truncatingIfNeeded: row.int64(at: 1))
                    // `1..<count + 1`, not `1...count`: an empty import (with a damaged total
                    // of 0) must not form a range whose bounds are reversed, which traps.
                    guard row.int64(at: 0) == Int64(ordered.count),
                        (1..<ordered.count + 1) ~= recorded,
                        ordered[recorded - 1].id.argument == row.argument(at: 2)
                    else { return }
                    done = recorded
                })
        }
        try database.removeDamagedBookkeeping()
        repeat {
            let end = min(ordered.count, done + max(chunk, 1))
            try database.transaction {
                try save(Array(ordered[done..<end]), checkingRules: false)
                if end == ordered.count {
                    try database.run(
                        "DELETE FROM store_imports WHERE name = ?", bind: { $0.bind(name, at: 1) },
                        row: { _ in })
                    try SQLiteChangeLog.recordEverything(in: name, database: database)
                } else {
                    try database.run(
                        "INSERT OR REPLACE INTO store_imports VALUES (?, ?, ?, ?)",
                        bind: { statement in
                            statement.bind(name, at: 1)
                            statement.bind(Int64(ordered.count), at: 2)
                            statement.bind(Int64(end), at: 3)
                            statement.bind(ordered[end - 1].id.argument, at: 4)
                        }, row: { _ in })
                }
            }
            done = end
        } while done < ordered.count
    }

    /// `values` in the order of their keys in the table, of two with one id the later one last:
    /// the same order on every run, and each page of the table is filled once. The stores read
    /// their values in that order already, so this only checks it, without a copy.
    static func inKeyOrder(_ values: [Value]) -> [Value] {
        let isOrdered = zip(values, values.dropFirst()).allSatisfy {
            !Value.precedes($1.id, $0.id)
        }
        if isOrdered { return values }
        let order = values.indices.sorted { first, second in
            if Value.precedes(values[first].id, values[second].id) { return true }
            return !Value.precedes(values[second].id, values[first].id) && first < second
        }
        return order.map { values[$0] }
    }

    /// Deletes the values with `ids`, in the caller's transaction, and the values of other
    /// tables as their delete rules say; unknown ids are ignored. Returns what changed.
    @discardableResult
    func delete(_ ids: [Value.ID]) throws -> SQLiteEffects {
        guard try hasReferrers() else {
            var deleted: [SQLiteRowKey] = []
            for id in ids {
                try checkIntact(id.argument, in: name)
                try database.writeRow(deleteSQL, of: name, bind: { id.bind(to: $0, at: 1) })
                if database.changedRows > 0 { deleted.append(id.argument) }
            }
            var effects = SQLiteEffects()
            effects.delete(deleted, in: name)
            return effects
        }
        var effects = SQLiteEffects()
        var visited: Set<[SQLiteArgument]> = []
        try remove(ids.map(\.argument), from: name, effects: &effects, visited: &visited)
        return effects
    }

    /// Deletes every value, in the caller's transaction, following the delete rules of the
    /// tables that refer to them. Returns what changed. A row whose checksum fails is `corrupt`,
    /// as for ``delete(_:)``: `recover(directory:)` sets it aside first, its bytes kept.
    @discardableResult
    func removeAll() throws -> SQLiteEffects {
        var keys: [SQLiteRowKey] = []
        try database.run("SELECT \(columns), id FROM \"\(name)\"") { row in
            guard isIntact(row) else {
                throw damagedRow(of: name, id: "\(Value.ID(column: 0, of: row))")
            }
            keys.append(row.argument(at: 4))
        }
        guard try hasReferrers() else {
            try database.execute("DELETE FROM \"\(name)\"")
            var effects = SQLiteEffects()
            effects.delete(keys, in: name)
            return effects
        }
        var effects = SQLiteEffects()
        var visited: Set<[SQLiteArgument]> = []
        try remove(keys, from: name, effects: &effects, visited: &visited)
        return effects
    }

    // MARK: - Recovering

    /// The table where ``setAsideDamagedRows()`` keeps the rows it takes out of a model's table:
    /// the table's name, the row's columns exactly as they were stored, and why.
    static var setAsideTable: String { SQLiteDatabase<Failure>.setAsideTable }

    /// Takes the rows whose checksum fails out of the table, in one transaction, so that every
    /// read reaches the other rows again. Each row is first copied, exactly as it was stored, to
    /// ``setAsideTable``. No delete rule runs: values that refer to a row set aside keep their
    /// reference. Repositories of the table, in this process and others, hear of it as deletes.
    /// A row SQLite cannot find by its key (the key's own bytes damaged) cannot be deleted by
    /// it: the table is then made again from every other row (``remakeFromIntactRows()``).
    ///
    /// This opens the database `file` on a connection of its own, as a repository opens it (a
    /// table of an earlier schema version is migrated first), and closes it.
    ///
    /// When SQLite finds the database's pages damaged (a byte of a page's own layout, where no
    /// row can be set aside or written safely), the whole database is first made again from
    /// every row it can read (``SQLiteDatabase/rebuild(file:)``), which needs every other
    /// connection to it closed (`locked` otherwise); the rows of a damaged page are reported,
    /// and kept in a copy of the file as it was.
    static func recover(
        _ name: String, schema: SQLiteSchema<Value>, file: URL
    ) throws -> StoreRecovery {
        var database: SQLiteDatabase<Failure>?
        do {
            database = try SQLiteDatabase<Failure>(file: file)
        } catch {
            guard SQLiteDatabase<Failure>.hasASchemaOnlyARebuildReads(file: file) else {
                throw error
            }
        }
        var first: StoreRecovery?
        if let database {
            do {
                defer { database.close() }
                first = try SQLiteTable(name, in: database, schema: schema).setAsideDamagedRows()
            } catch {
                // Only damage SQLite found, where the pages are not all sound: any other failure
                // (`notMigrated`, `locked`, a full disk) is the caller's to hear.
                guard database.hasMetDamage, !SQLiteDatabase<Failure>.isSound(file: file) else {
                    throw error
                }
            }
        }
        // Damage in a page's layout that no read of the table meets (a pointer of another
        // table's page, which a write could follow into this table's pages or the schema's) is
        // found by a check of every page.
        if let first, !SQLiteDatabase<Failure>.damageReaches(name, file: file) { return first }
        let rebuilt = try SQLiteDatabase<Failure>.rebuild(file: file)
        let recovery = try setAsideDamagedRows(name, schema: schema, file: file)
        let unread = rebuilt.unread.map { rows in
            StoreRecovery.Damage(file: file, offset: 0, reason: rows.reason(copy: rebuilt.copy))
        }
        return StoreRecovery(
            valuesKept: recovery.valuesKept,
            setAside: (first?.setAside ?? []) + unread + recovery.setAside,
            keptUnverified: [], repaired: [],
            copies: (first?.copies ?? []) + [rebuilt.copy] + recovery.copies)
    }

    private static func setAsideDamagedRows(
        _ name: String, schema: SQLiteSchema<Value>, file: URL
    ) throws -> StoreRecovery {
        let database = try SQLiteDatabase<Failure>(file: file)
        defer { database.close() }
        return try SQLiteTable(name, in: database, schema: schema).setAsideDamagedRows()
    }

    /// ``recover(_:schema:file:)`` on this table's connection. The rows are read first in a
    /// read transaction, which holds no lock that a writer waits for: a sound table is left as
    /// it is, and other connections write meanwhile.
    func setAsideDamagedRows() throws -> StoreRecovery {
        // A row SQLite cannot read is not read again under the write lock (a write transaction
        // whose read meets damage may write nothing more): when another connection wrote
        // since, the table is read again, up to three times.
        var attempts = 0
        while true {
            do {
                return try setAsideDamagedRowsOnce()
            } catch is WrittenMeanwhile {
                attempts += 1
                if attempts == 3 { throw Failure.locked(file: database.fileURL) }
            }
        }
    }

    /// Another connection wrote between the read of the rows SQLite cannot read and the write
    /// lock.
    private struct WrittenMeanwhile: Error {}

    private func setAsideDamagedRowsOnce() throws -> StoreRecovery {
        var damagedKeys: Set<SQLiteArgument> = []
        var unreadable: [SQLiteRowKey] = []
        var version: Int64 = 0
        try database.reading {
            // The key twice: reading a column as another type can change the type SQLite
            // reports for it.
            unreadable = try readEveryRow { row in
                if !isIntact(row) { damagedKeys.insert(Self.comparable(row.argument(at: 4))) }
            }
            version = try database.dataVersion()
        }
        guard !damagedKeys.isEmpty || !unreadable.isEmpty else {
            return StoreRecovery(
                valuesKept: try count(), setAside: [], keptUnverified: [], repaired: [],
                copies: [])
        }
        var setAside: [StoreRecovery.Damage] = []
        var effects = SQLiteEffects()
        var fileCopies: [URL] = []
        var isCommitted = false
        // A repair that fails leaves the file as it was: a copy of it would be one more file.
        defer {
            if !isCommitted {
                for copy in fileCopies { try? FileManager.default.removeItem(at: copy) }
            }
        }
        if !unreadable.isEmpty {
            // The database as it is, which alone holds the bytes SQLite cannot read: copied
            // before the write lock (SQLite's backup refuses to copy inside a write
            // transaction), which then checks that no other connection wrote since the rows
            // were read.
            fileCopies.append(try database.keepCopy())
        }
        try database.transaction {
            var keys: [SQLiteRowKey] = []
            var indexesTakenDown: [String: String] = [:]
            if unreadable.isEmpty {
                // Nothing is written over damaged pages: deleting a row there could free space
                // that another row is still on.
                try checkEveryPageIsSound(exceptNulls: true)
            } else {
                guard try database.dataVersion() == version else { throw WrittenMeanwhile() }
            }
            try createSetAsideTable()
            if let copy = fileCopies.first {
                // A delete reads a row to find its index entries: the indexes go first, and are
                // made again below. What is written is checked then, before it is committed.
                indexesTakenDown = try indexes()
                for index in indexesTakenDown.keys.sorted() {
                    try database.execute("DROP INDEX \"\(index)\"")
                }
                for key in unreadable {
                    setAside.append(try setAsideUnreadable(key, copy: copy))
                    keys.append(key)
                }
            }
            var copies: [Int64] = []
            // Whether a damaged row's key equals an intact row's, or is one the first read did
            // not find damaged (a row damaged since: no one knows which keys it shares).
            var sharesAKey = false
            // Each column twice: the row's checksum is checked on the first four, and the key
            // and the copy are read from the last four, which nothing reads as another type
            // (reading a column as text can change the type SQLite reports for it).
            try database.run("SELECT \(columns), \(columns) FROM \"\(name)\"") { row in
                let key = sharesAKey ? nil : Self.comparable(row.argument(at: 4))
                guard !isIntact(row) else {
                    if let key, damagedKeys.contains(key) { sharesAKey = true }
                    return
                }
                if let key, !damagedKeys.contains(key) { sharesAKey = true }
                let copy = try keepSetAside(
                    row, from: 4,
                    reason:
                        "a row of \(name) fails its checksum (id \(Value.ID(column: 0, of: row)))")
                copies.append(copy.seq)
                setAside.append(copy.damage)
                keys.append(row.argument(at: 0))
            }
            // Saved over since the first read: nothing to set aside.
            guard !keys.isEmpty else { return }
            let hasIndexes = try !indexes().isEmpty
            var isReindexed = false
            var isEveryRowDeleted = true
            for copy in copies {
                // Only the row whose columns are the copy's (`IS`: a damaged column may be
                // NULL), on the row SQLite's search by key lands on: never an intact row that a
                // damaged key now equals, or that SQLite finds in its place (a damaged key out
                // of order misleads its search).
                let delete = {
                    try database.run(
                        Self.setAsideDeleteSQL(self.name), bind: { $0.bind(copy, at: 1) },
                        row: { _ in })
                }
                do {
                    try delete()
                } catch  where database.lastFailureIsDamage && hasIndexes && !isReindexed {
                    // The indexes hold what the row gave before its damage: made again from
                    // the rows as they are (the pages were checked above), once.
                    do {
                        try database.execute("REINDEX \"\(name)\"")
                        isReindexed = true
                        try delete()
                    } catch  where database.lastFailureIsDamage {
                        // REINDEX refused a damaged key that equals another row's.
                        isEveryRowDeleted = false
                        break
                    }
                } catch  where database.lastFailureIsDamage {
                    isEveryRowDeleted = false
                    break
                }
                if database.changedRows != 1 {
                    isEveryRowDeleted = false
                    break
                }
            }
            // Each delete took the index entries that SQLite works out from the row as it is
            // now, and failed when one was missing (the REINDEX above). Those entries were the
            // damaged rows' own, unless a damaged key equals an intact row's: then they may have
            // been that row's, and the indexes are made again from the rows left. (Remaking
            // them every time took most of a recover's time at a million rows.)
            if isEveryRowDeleted, hasIndexes, sharesAKey {
                do {
                    try database.execute("REINDEX \"\(name)\"")
                } catch  where database.lastFailureIsDamage {
                    isEveryRowDeleted = false
                }
            }
            if !isEveryRowDeleted {
                setAside += try remakeFromIntactRows()
            }
            // (A table made again has its indexes already.)
            let made = try indexes()
            for (index, sql) in indexesTakenDown.sorted(by: { $0.key < $1.key })
            where made[index] == nil {
                try database.execute(sql)
            }
            // Rows SQLite could not read were on pages no check could vouch for before: the
            // whole file is checked now, and nothing is kept unless it is sound.
            if !unreadable.isEmpty { try checkEveryPageIsSound(exceptNulls: true) }
            // A table made again holds its intact rows exactly as before: only these changed.
            effects.delete(keys, in: name)
            try SQLiteChangeLog.record(effects, in: database)
        }
        isCommitted = true
        SQLiteChangeCenter.shared.post(effects, file: database.fileURL, origin: nil, table: nil)
        return StoreRecovery(
            valuesKept: try count(), setAside: setAside, keptUnverified: [], repaired: [],
            copies: fileCopies)
    }

    private func checkEveryPageIsSound(exceptNulls: Bool) throws {
        guard !database.isEveryPageSound(exceptNulls: exceptNulls) else { return }
        throw Failure.corrupt(
            file: database.fileURL, offset: 0,
            reason: "SQLite finds the database's pages damaged (PRAGMA quick_check): "
                + "nothing was set aside, and the file was left as it is; recover(directory:) "
                + "makes the database again from every row it can read when no other "
                + "connection has it open (a row SQLite cannot read, in any table, fails this "
                + "check too)")
    }

    /// Runs `body` on every row of the table that SQLite can read (``columns``, then `id`
    /// again), in key order, in the caller's read transaction; returns the keys of the rows
    /// that SQLite cannot read (a byte of the record's layout damaged, so that it finds the
    /// record malformed) though it can read their key. Each such row is confirmed by reading it
    /// alone, and the read goes on after it. A row whose key SQLite cannot read either throws.
    private func readEveryRow(
        _ body: (SQLiteDatabase<Failure>.Statement) throws -> Void
    ) throws -> [SQLiteRowKey] {
        var unreadable: [SQLiteRowKey] = []
        var after: SQLiteRowKey?
        while true {
            let from = after == nil ? "" : " WHERE id > ?"
            var read = 0
            do {
                try database.run(
                    "SELECT \(columns), id FROM \"\(name)\"\(from) ORDER BY id",
                    bind: { statement in after.map { statement.bind($0, at: 1) } },
                    row: { row in
                        try body(row)
                        read += 1
                    })
                return unreadable
            } catch  where database.lastFailureIsCorrupt {
                // The key of the row the read stopped at: the next one, by key alone.
                var next: SQLiteRowKey?
                try? database.run(
                    "SELECT id FROM \"\(name)\"\(from) ORDER BY id LIMIT 1 OFFSET ?",
                    bind: { statement in
                        after.map { statement.bind($0, at: 1) }
                        statement.bind(Int64(read), at: after == nil ? 1 : 2)
                    },
                    row: { next = $0.argument(at: 0) })
                guard let next, !unreadable.contains(next), !(try isReadable(next)) else {
                    throw error
                }
                unreadable.append(next)
                after = next
            }
        }
    }

    /// Whether SQLite reads every column of the row with `key`.
    private func isReadable(_ key: SQLiteRowKey) throws -> Bool {
        do {
            try database.run(
                "SELECT \(columns) FROM \"\(name)\" WHERE id = ?", bind: { $0.bind(key, at: 1) },
                row: { _ in })
            return true
        } catch  where database.lastFailureIsCorrupt {
            return false
        }
    }

    /// Keeps the key of the row with `key`, which SQLite cannot read, in ``setAsideTable`` and
    /// deletes the row, in the caller's transaction, the table's indexes taken down; `copy` is
    /// the copy of the database that holds its bytes.
    private func setAsideUnreadable(
        _ key: SQLiteRowKey, copy: URL
    ) throws -> StoreRecovery.Damage {
        let reason = "SQLite cannot read a row of \(name) (id \(key.shown)): its record is damaged"
        try database.run(
            "INSERT INTO \(Self.setAsideTable) (name, id, reason) VALUES (?, ?, ?)",
            bind: { statement in
                statement.bind(name, at: 1)
                statement.bind(key, at: 2)
                statement.bind(reason, at: 3)
            }, row: { _ in })
        try database.run(
            "DELETE FROM \"\(name)\" WHERE id = ?", bind: { $0.bind(key, at: 1) }, row: { _ in })
        guard database.changedRows == 1 else {
            throw Failure.corrupt(
                file: database.fileURL, offset: 0,
                reason: reason + ", and it could not be deleted by its key: nothing was set aside")
        }
        return StoreRecovery.Damage(
            file: database.fileURL, offset: 0,
            reason: reason
                + "; its key is in the table \(Self.setAsideTable), its bytes in \(copy.lastPathComponent)"
        )
    }

    /// `key` as SQLite compares keys: a real with a whole value equals that integer.
    private static func comparable(_ key: SQLiteArgument) -> SQLiteArgument {
        guard case .real(let number) = key, let whole = Int64(exactly: number) else { return key }
        return .integer(whole)
    }

    /// The statement that deletes, from table `name`, the row that the set-aside row `seq`
    /// (its one parameter) is a copy of, searching by its key.
    static func setAsideDeleteSQL(_ name: String) -> String {
        """
        DELETE FROM "\(name)" WHERE (id, version, value, checksum) IS
        (SELECT id, version, value, checksum FROM \(setAsideTable) WHERE seq = ?)
        """
    }

    private func createSetAsideTable() throws {
        try database.execute(SQLiteDatabase<Failure>.setAsideTableSQL)
    }

    /// Copies the row's id, version, value and checksum, columns `first` to `first + 3` of
    /// `row`, to ``setAsideTable``, exactly; returns the copy's `seq`, and the damage to report.
    private func keepSetAside(
        _ row: SQLiteDatabase<Failure>.Statement, from first: Int32, reason: String
    ) throws -> (seq: Int64, damage: StoreRecovery.Damage) {
        try database.run(
            """
            INSERT INTO \(Self.setAsideTable) (name, id, version, value, checksum, reason)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            bind: { statement in
                statement.bind(name, at: 1)
                for column in Int32(0)..<4 {
                    statement.bind(column: first + column, of: row, at: column + 2)
                }
                statement.bind(reason, at: 6)
            }, row: { _ in })
        let damage = StoreRecovery.Damage(
            file: database.fileURL, offset: 0,
            reason: reason + "; its bytes are in the table \(Self.setAsideTable)")
        return (database.lastInsertedRow, damage)
    }

    /// Makes the table again from its rows whose checksum matches (the others are set aside
    /// already), in the caller's transaction: the table is renamed, made again as its own
    /// `CREATE TABLE` says (whatever columns a newer build added), each intact row copied to
    /// it exactly, the old table dropped, and the indexes made: those it had (a newer build's
    /// too, which ``recordSchema()`` leaves when a later revision recorded them), then those
    /// its schema needs. A second row with the key of one already copied (two rows whose
    /// checksums match, under one key: only damage to the table makes that) is set aside too,
    /// and returned.
    private func remakeFromIntactRows() throws -> [StoreRecovery.Damage] {
        var create = ""
        try database.run(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?",
            bind: { $0.bind(name, at: 1) }, row: { create = $0.text(at: 0) })
        var indexes: [String] = []
        try database.run(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? "
                + "AND sql IS NOT NULL ORDER BY name",
            bind: { $0.bind(name, at: 1) }, row: { indexes.append($0.text(at: 0)) })
        // A name with a space, which no model's table can have.
        let old = "\"store set aside\""
        try database.execute("ALTER TABLE \"\(name)\" RENAME TO \(old)")
        try database.execute(create)
        var setAside: [StoreRecovery.Damage] = []
        try database.run("SELECT \(columns), * FROM \(old)") { row in
            guard isIntact(row) else { return }
            let count = row.columnCount - 4
            let marks = Array(repeating: "?", count: Int(count)).joined(separator: ", ")
            try database.run(
                "INSERT OR IGNORE INTO \"\(name)\" VALUES (\(marks))",
                bind: { statement in
                    for column in Int32(0)..<count {
                        statement.bind(column: 4 + column, of: row, at: column + 1)
                    }
                }, row: { _ in })
            guard database.changedRows == 0 else { return }
            // From the columns nothing has read, as the first copies were made.
            let copy = try keepSetAside(
                row, from: 4,
                reason: "a second row of \(name) with id \(Value.ID(column: 0, of: row))")
            setAside.append(copy.damage)
        }
        try database.execute("DROP TABLE \(old)")
        for index in indexes { try database.execute(index) }
        try recordSchema()
        return setAside
    }

    // MARK: - Rows

    /// The value of a row: its checksum checked, then decoded as the schema version that
    /// wrote it, and migrated.
    func value(of row: SQLiteDatabase<Failure>.Statement) throws -> Value {
        guard isIntact(row) else {
            throw damagedRow(of: name, id: "\(Value.ID(column: 0, of: row))")
        }
        return try decodedValue(of: row)
    }

    /// The value of a row whose checksum was checked, decoded as the schema version that wrote
    /// it.
    private func decodedValue(of row: SQLiteDatabase<Failure>.Statement) throws -> Value {
        let version = Int(truncatingIfNeeded: row.int64(at: 1))
        let json = row.data(at: 2)
        guard version <= Value.schemaVersion else {
            throw Failure.newerSchema(
                file: database.fileURL, found: version, supported: Value.schemaVersion)
        }
        do {
            return try Self.decode(json, version: version)
        } catch let unmigrated as UnmigratedValue {
            throw unmigrated.failure(file: database.fileURL, reporting: Failure.self)
        } catch {
            // The row is decoded as an array of one: the path starts inside it.
            throw Failure.incompatible(
                file: database.fileURL,
                reason: "a row of \(name) (id \(Value.ID(column: 0, of: row))): "
                    + StoreFiles.decodingReason(error, droppingFirst: 1))
        }
    }

    /// Whether the row's checksum matches its id, version and JSON, and its JSON is JSON: a
    /// bare NaN, which earlier releases saved for a Decimal that is not a number, is damage
    /// that `recover` sets aside (no model change would read it).
    private func isIntact(_ row: SQLiteDatabase<Failure>.Statement) -> Bool {
        let id = Value.ID(column: 0, of: row)
        let version = Int(truncatingIfNeeded: row.int64(at: 1))
        let json = row.data(at: 2)
        return UInt32(truncatingIfNeeded: row.int64(at: 3)) == Self.checksum(id, version, json)
            && !StoreFiles.holdsABareNaN(json)
    }

    private static func decode(_ json: Data, version: Int) throws -> Value {
        let decoded = try JSONDecoder().decode(
            VersionedRow.self, from: Data("[".utf8) + json + Data("]".utf8),
            configuration: version)
        guard let value = decoded.values.first else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: "an empty row"))
        }
        return value
    }

    /// The checksum of a row: CRC-32 of its id's bytes, a zero byte, its schema version in
    /// decimal digits, a zero byte, and its JSON. A damaged version would decode the JSON as
    /// another schema's, so it is covered too.
    static func checksum(_ id: Value.ID, _ version: Int, _ json: Data) -> UInt32 {
        StoreFiles.CRC32.checksum(
            id.checksumBytes + Data([0]) + Data(String(version).utf8) + Data([0]) + json)
    }

    /// A row's JSON in brackets, decoded as ``StoredValue/decodeStored(_:from:)`` reads the
    /// values of the schema version that wrote it.
    private struct VersionedRow: DecodableWithConfiguration {
        let values: [Value]

        init(from decoder: any Decoder, configuration version: Int) throws {
            values = try Value.decodeStored(version, from: decoder)
        }
    }
}

// MARK: - A database whose pages are damaged

nonisolated extension SQLiteDatabase {
    /// Rows of `table` that ``rebuild(file:)`` could not read: a damaged page's, with keys
    /// after `after` and before `before` (nil: from the table's start, to its end); or, with
    /// `key`, the one row with that key, which SQLite read but the table refused (a NULL where
    /// it needs a value, or a second row with that key).
    struct UnreadRows {
        let table: String
        var after: SQLiteArgument?
        var before: SQLiteArgument?
        var key: SQLiteArgument?
        /// For a row with `key`: whether SQLite read it and the table refused it, rather than
        /// SQLite not reading it (a damaged record).
        var isRefused = false

        /// What a recovery says of them: the copy of the file holds them.
        func reason(copy: URL) -> String {
            let range: String =
                switch (after, before) {
                case (let after?, let before?):
                    " with keys after \(after.shown) and before \(before.shown)"
                case (let after?, nil): " with keys after \(after.shown)"
                case (nil, let before?): " with keys before \(before.shown)"
                case (nil, nil): ""
                }
            let rows: String =
                if let key, isRefused {
                    "the row of \(table) with key \(key.shown), which SQLite read with a NULL "
                        + "where the table needs a value, or beside another row with its key"
                } else if let key {
                    "the row of \(table) with key \(key.shown), which SQLite could not read "
                        + "(a damaged record)"
                } else {
                    "the rows of \(table)\(range), which SQLite could not read (a damaged page "
                        + "or record)"
                }
            return "\(rows): the database was made again from every row it could read; theirs "
                + "are in \(copy.lastPathComponent)"
        }
    }

    /// Whether the database `file` opens and `PRAGMA quick_check` finds every page sound (a
    /// NULL taken for a damaged row's).
    static func isSound(file: URL) -> Bool {
        guard let database = try? SQLiteDatabase(file: file) else { return false }
        defer { database.close() }
        return database.isEveryPageSound(exceptNulls: true)
    }

    /// Whether damage that `PRAGMA quick_check` finds in the database `file` reaches `table`:
    /// its pages or its indexes', the tables every write goes through (the store's own, the
    /// schema), or pages that no one table's check finds (two tables sharing one). Damage in
    /// the tables of other models alone does not: their own `recover` makes the database again.
    static func damageReaches(_ table: String, file: URL) -> Bool {
        guard let database = try? SQLiteDatabase(file: file) else { return true }
        defer { database.close() }
        let whole = database.pageFindings(exceptNulls: true)
        if !whole.stopped, whole.lines.isEmpty { return false }
        var tables: [String] = []
        var models: Set<String> = []
        guard
            (try? database.run("SELECT name FROM sqlite_master WHERE type = 'table'") {
                tables.append($0.text(at: 0))
            }) != nil,
            (try? database.run("SELECT name FROM store_tables") { models.insert($0.text(at: 0)) })
                != nil
        else { return true }
        var othersFindings: Set<String> = []
        var othersAreDamaged = false
        for other in tables {
            let findings = database.pageFindings(exceptNulls: true, of: other)
            guard findings.stopped || !findings.lines.isEmpty else { continue }
            if other == table || !models.contains(other) { return true }
            othersAreDamaged = true
            othersFindings.formUnion(findings.lines)
        }
        // What no one table's check finds (a damaged list of free pages, a page two tables
        // share, the schema's pages) reaches every table. A page no tree and no list holds
        // ("Page N is never used" before SQLite 3.42, "Page N: never used" since; left by
        // another table's damage) reaches none.
        let unexplained = whole.lines.filter {
            !othersFindings.contains($0)
                && !($0.hasPrefix("Page ")
                    && ($0.hasSuffix(" is never used") || $0.hasSuffix(": never used")))
        }
        guard unexplained.isEmpty else { return true }
        // A check that stopped: what it found before is explained; the stop is, only by
        // another model's damage.
        return whole.stopped && !othersAreDamaged
    }

    /// Whether the database `file` fails `PRAGMA quick_check` and opens only when its schema is
    /// read as it is: a write through a damaged pointer left a row in it that SQLite refuses
    /// the whole schema for, and ``rebuild(file:)`` reads past.
    static func hasASchemaOnlyARebuildReads(file: URL) -> Bool {
        guard !isSound(file: file),
            let database = try? SQLiteDatabase(file: file, readingTheSchemaAsItIs: true)
        else { return false }
        database.close()
        return true
    }

    /// Copies the database, as this connection reads it (the pages in its log included),
    /// beside its file as `<name>.damaged` (`.damaged-2`, … when that exists: an earlier copy
    /// is never replaced), one file, synced, with SQLite's backup, which copies pages without
    /// reading them, the damaged ones too. The database file itself is never opened outside
    /// SQLite: a process loses every lock SQLite holds on a file when it closes any descriptor
    /// of it. Not inside a write transaction, where SQLite's backup fails at once (busy).
    func keepCopy() throws -> URL {
        guard let connection else { throw Failure.closed }
        var number = 0
        while true {
            number += 1
            let copy = fileURL.appendingPathExtension(number == 1 ? "damaged" : "damaged-\(number)")
            // Made empty here, so that another process's copy of that name is never written over.
            guard try StoreFiles.createEmptyFile(copy, reporting: Failure.self) else { continue }
            var target: OpaquePointer?
            var status = sqlite3_open_v2(
                copy.path, &target, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
            if status == SQLITE_OK {
                // One file: no journal beside it (a copy cut short is removed below).
                sqlite3_exec(target, "PRAGMA journal_mode=OFF", nil, nil, nil)
                if let backup = sqlite3_backup_init(target, "main", connection, "main") {
                    status = sqlite3_backup_step(backup, -1)
                    let finished = sqlite3_backup_finish(backup)
                    if status == SQLITE_DONE { status = finished }
                } else {
                    status = sqlite3_errcode(target)
                }
            }
            let message = target.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            sqlite3_close_v2(target)
            guard status == SQLITE_OK else {
                unlink(copy.path)
                throw Failure.unwritable(
                    file: copy,
                    reason: message ?? String(cString: sqlite3_errstr(status)))
            }
            StoreFiles.syncFolder(fileURL.deletingLastPathComponent())
            return copy
        }
    }

    /// Makes the database `file`, whose pages SQLite finds damaged, again from every row it can
    /// read: every table and index as its `CREATE` statement says, each row copied exactly, in
    /// a file beside it, which SQLite then copies over the database (SQLite's backup), in one
    /// transaction. Every other connection to it, in this process and others, must be closed:
    /// this one holds it alone from the start (`locked` otherwise), so that nothing written
    /// meanwhile is lost. The database as it was, which alone holds the rows of a damaged page,
    /// is first copied beside it (``keepCopy()``); each run of rows not read is also recorded
    /// in the new database's `store_damaged_rows`. Returns the copy and the rows not read.
    /// Nothing is changed, and the copy removed, when anything fails, or when the result does
    /// not pass `quick_check`.
    static func rebuild(file: URL) throws -> (copy: URL, unread: [UnreadRows]) {
        // Whether SQLite reads the whole schema: when it does not, a table whose record it lost
        // would be left out of the database made again.
        let readsTheWholeSchema =
            (try? SQLiteDatabase(file: file, busyTimeout: 100)).map {
                $0.close()
                return true
            } ?? false
        // The schema is read as it is: a row that a write through a damaged pointer left in it
        // (which SQLite would otherwise refuse the whole schema for) is passed by below.
        let damaged = try SQLiteDatabase(
            file: file, busyTimeout: 100, readingTheSchemaAsItIs: true)
        defer { damaged.close() }
        try damaged.execute("PRAGMA locking_mode=EXCLUSIVE")
        // In that mode, the lock stays after the transaction, until the connection closes.
        try damaged.execute("BEGIN EXCLUSIVE")
        try damaged.execute("COMMIT")
        let copy = try damaged.keepCopy()
        let rebuiltFile = URL(fileURLWithPath: file.path + ".rebuilding")
        let removeRebuilt = {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: rebuiltFile.path + suffix)
            }
        }
        var isCopiedOver = false
        defer {
            removeRebuilt()
            if !isCopiedOver { try? FileManager.default.removeItem(at: copy) }
        }
        // What a rebuild that a crash stopped left.
        removeRebuilt()
        let rebuilt = try SQLiteDatabase(file: rebuiltFile)
        defer { rebuilt.close() }
        // A crash leaves a file that the next rebuild removes: syncing it would only be slower.
        try rebuilt.execute("PRAGMA synchronous=OFF")
        // SQLite copies a database over one in WAL mode only page for page of the same size.
        let pageSize = { (database: SQLiteDatabase) in
            var size: Int64 = 0
            try database.run("PRAGMA page_size") { size = $0.int64(at: 0) }
            return size
        }
        guard try pageSize(damaged) == pageSize(rebuilt) else {
            throw Failure.corrupt(
                file: file, offset: 0,
                reason: "its pages are not of SQLite's default size, which a database made "
                    + "again from its rows has: nothing was changed")
        }
        var objects: [(isTable: Bool, sql: String, name: String)] = []
        try damaged.run(
            """
            SELECT type = 'table', sql, name FROM sqlite_master
            WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite~_%' ESCAPE '~' ORDER BY rowid
            """
        ) { objects.append(($0.int64(at: 0) != 0, $0.text(at: 1), $0.text(at: 2))) }
        try damaged.refuseTablesLeftOut(
            objects.filter(\.isTable).map(\.name), readsTheWholeSchema: readsTheWholeSchema)
        var unread: [UnreadRows] = []
        try rebuilt.transaction {
            for table in objects where table.isTable {
                try rebuilt.execute(table.sql)
                unread += try damaged.copyReadableRows(of: table.name, into: rebuilt)
            }
            // Indexes (and anything else) once their tables are full.
            for object in objects where !object.isTable { try rebuilt.execute(object.sql) }
            // Kept in the database too, so that a crash before the caller hears of them does
            // not lose what they say.
            try rebuilt.execute(setAsideTableSQL)
            for rows in unread {
                try rebuilt.run(
                    "INSERT INTO \(setAsideTable) (name, id, reason) VALUES (?, ?, ?)",
                    bind: { statement in
                        statement.bind(rows.table, at: 1)
                        statement.bind(rows.key ?? .null, at: 2)
                        statement.bind(rows.reason(copy: copy), at: 3)
                    }, row: { _ in })
            }
            // A repository that reopens (or resumes) reads those tables again: which rows went
            // is not known. Past any number the log gave before (its last rows may be among
            // those lost), so that an observer that read up to one of them hears of it, and as
            // no process's write (writer 0), so that this process's suspended ones hear it too.
            if objects.contains(where: { $0.isTable && $0.name == SQLiteChangeLog.table }) {
                for table in Set(unread.map(\.table)).sorted() {
                    try rebuilt.run(
                        """
                        INSERT INTO \(SQLiteChangeLog.table) (seq, name, keys, writer)
                        VALUES ((SELECT coalesce(max(seq), 0) + ? FROM \(SQLiteChangeLog.table)),
                            ?, 'null', ?)
                        """,
                        bind: { statement in
                            statement.bind(SQLiteChangeLog.capacity, at: 1)
                            statement.bind(table, at: 2)
                            statement.bind(Int64(0), at: 3)
                        }, row: { _ in })
                }
            }
        }
        guard rebuilt.isEveryPageSound() else {
            throw Failure.corrupt(
                file: file, offset: 0,
                reason: "the database made again from its readable rows fails PRAGMA "
                    + "quick_check: nothing was changed")
        }
        // Its log back into the file: one copy of the database beside it, not two.
        try rebuilt.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try rebuilt.copyContents(into: damaged)
        isCopiedOver = true
        return (copy, unread)
    }

    /// Throws `corrupt` when a database made again from `tables` (those whose record in the
    /// schema SQLite read) would leave a table out, and its values with it: one the store
    /// records (`store_tables`) that is not among them, or any, when SQLite read only part of
    /// the schema and not that record.
    private func refuseTablesLeftOut(_ tables: [String], readsTheWholeSchema: Bool) throws {
        var recorded: [String] = []
        let readsTheRecord =
            tables.contains("store_tables")
            && (try? run("SELECT name FROM store_tables") { recorded.append($0.text(at: 0)) })
                != nil
        let missing = recorded.filter { !tables.contains($0) }.sorted()
        guard missing.isEmpty, readsTheRecord || readsTheWholeSchema else {
            let which =
                missing.isEmpty
                ? "its record of the store's tables"
                : "its record of \(missing.joined(separator: ", "))"
            throw Failure.corrupt(
                file: fileURL, offset: 0,
                reason: "SQLite cannot read \(which) in the database's schema (a damaged page): "
                    + "a database made again would leave those values out, so nothing was changed")
        }
    }

    /// The table in which a recovery keeps what it took out of a model's table: the table's
    /// name, the row's columns exactly as they were stored (NULL when unread), and why.
    static var setAsideTable: String { "store_damaged_rows" }

    /// The statement that makes ``setAsideTable``.
    static var setAsideTableSQL: String {
        """
        CREATE TABLE IF NOT EXISTS \(setAsideTable) (
            seq INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            id, version, value, checksum,
            reason TEXT NOT NULL
        )
        """
    }

    /// Copies every row of `table` that SQLite can read into the same table of `rebuilt`,
    /// exactly; returns the rows it could not. A read in key order stops at a damaged page;
    /// one in reverse order from the end stops at the last one. Between them, SQLite's search
    /// from keys of the key's type (bisecting the range, the widest parts first) finds a row
    /// past a damaged page, and each row found is read on from in both directions, until
    /// every range left is one where no search finds a row (or a search budget is spent: the
    /// range is then reported too). A table keyed by several columns is read from both ends.
    private func copyReadableRows(
        of table: String, into rebuilt: SQLiteDatabase
    ) throws -> [UnreadRows] {
        var keys: [(name: String, type: String)] = []
        var columnCount: Int32 = 0
        try run(
            "SELECT name, upper(type), pk FROM pragma_table_info(?)",
            bind: { $0.bind(table, at: 1) },
            row: { column in
                columnCount += 1
                if column.int64(at: 2) > 0 { keys.append((column.text(at: 0), column.text(at: 1))) }
            })
        let marks = Array(repeating: "?", count: Int(columnCount)).joined(separator: ", ")
        let insert = "INSERT OR IGNORE INTO \"\(table)\" VALUES (\(marks))"
        var unread: [UnreadRows] = []
        // Each row is read as `key, *`: its columns from the second on.
        let copy = { (row: Statement) in
            try rebuilt.run(
                insert,
                bind: { statement in
                    for column in 0..<columnCount {
                        statement.bind(column: column + 1, of: row, at: column + 1)
                    }
                }, row: { _ in })
            if rebuilt.changedRows == 0 {
                unread.append(UnreadRows(table: table, key: row.argument(at: 0), isRefused: true))
            }
        }
        guard keys.count <= 1 else {
            let order = { (direction: String) in
                keys.map { "\"\($0.name)\"\(direction)" }.joined(separator: ", ")
            }
            do {
                try run("SELECT NULL, * FROM \"\(table)\" ORDER BY \(order(""))", row: copy)
                return unread
            } catch  where lastFailureIsCorrupt {}
            // From the end, down to the damage.
            do {
                try run("SELECT NULL, * FROM \"\(table)\" ORDER BY \(order(" DESC"))", row: copy)
            } catch  where lastFailureIsCorrupt {}
            return unread + [UnreadRows(table: table)]
        }
        let key = keys.first ?? (name: "rowid", type: "INTEGER")
        let column = "\"\(key.name)\""
        // Reads rows in one direction (up, from `start` when given: a key, read first),
        // strictly within the bounds and strictly in order (damage can make SQLite return rows
        // out of order), up to damage or the end; returns the last key read and whether it
        // reached the end.
        func read(
            from start: SQLiteProbe?, up: Bool, above low: SQLiteProbe?, below high: SQLiteProbe?
        ) throws -> (last: SQLiteProbe?, isComplete: Bool) {
            var conditions: [String] = []
            var bounds: [SQLiteProbe] = []
            if let start, up {
                conditions.append("\(column) >= ?")
                bounds.append(start)
            }
            if let low {
                conditions.append("\(column) > ?")
                bounds.append(low)
            }
            if let high {
                conditions.append("\(column) < ?")
                bounds.append(high)
            }
            let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            var last: SQLiteProbe?
            do {
                try run(
                    "SELECT \(column), * FROM \"\(table)\"\(filter) ORDER BY \(column)\(up ? "" : " DESC")",
                    bind: { statement in
                        for (index, bound) in bounds.enumerated() {
                            bound.bind(to: statement, at: Int32(index + 1))
                        }
                    },
                    row: { row in
                        let key = SQLiteProbe(column: 0, of: row)
                        if let last, up ? !last.precedes(key) : !key.precedes(last) {
                            throw OutOfOrder()
                        }
                        try copy(row)
                        last = key
                    })
                return (last, true)
            } catch  where lastFailureIsCorrupt || error is OutOfOrder {
                return (last, false)
            }
        }
        let forward = try read(from: nil, up: true, above: nil, below: nil)
        if forward.isComplete { return unread }
        let backward = try read(from: nil, up: false, above: forward.last, below: nil)
        // Ranges between rows read, where a search is still to find a row; a row found splits
        // its range in two.
        // Ranges between rows read, where a search is still to find a row, and whether a read
        // stopped at damage there (else the range lies beside a row SQLite cannot read, and
        // may hold nothing); a row found splits its range in two.
        var ranges: [(low: SQLiteProbe?, high: SQLiteProbe?, isDamaged: Bool)] = []
        if !backward.isComplete { ranges.append((forward.last, backward.last, true)) }
        while let (low, high, isDamaged) = ranges.popLast() {
            switch try anyRow(of: table, column: column, type: key.type, above: low, below: high)
            {
            case .empty where !isDamaged: continue
            case .empty, .unreachable:
                unread.append(
                    UnreadRows(table: table, after: low?.argument, before: high?.argument))
            case .found(let found):
                let up = try read(from: found, up: true, above: low, below: high)
                guard let last = up.last else {
                    // SQLite finds its key, and cannot read the rest of it.
                    unread.append(UnreadRows(table: table, key: found.argument))
                    ranges += [(low, found, false), (found, high, false)]
                    continue
                }
                let down = try read(from: nil, up: false, above: low, below: found)
                if !down.isComplete { ranges.append((low, down.last ?? found, true)) }
                if !up.isComplete { ranges.append((last, high, true)) }
            }
        }
        return unread
    }

    /// A read that met a key not after the one before it: damage.
    private struct OutOfOrder: Error {}

    /// What a search of a range of keys found: a key SQLite reaches; no row there; or damage,
    /// where SQLite's search found none.
    private enum Search {
        case found(SQLiteProbe)
        case empty
        case unreachable
    }

    /// A key of `table` strictly between `low` and `high` (nil: no bound) that SQLite's search
    /// reaches: the range of keys of the column's `type` is searched from its middle, then
    /// from the middles of its halves, the widest first, up to 2,000 searches. A search that
    /// finds a key at or past `high`, or none, shows that no row is from there on: that half
    /// is left out. `empty` when every search says so; `unreachable` when one met damage.
    private func anyRow(
        of table: String, column: String, type: String, above low: SQLiteProbe?,
        below high: SQLiteProbe?
    ) throws -> Search {
        let least = low ?? SQLiteProbe.least(columnType: type)
        // Keys a few bytes longer than those around the range: a longer one would have to
        // begin with all of one of them.
        let longest = max(least.length, (high ?? least.top).length) + 8
        var ranges = [(least, high ?? least.top)]
        var next = 0
        var metDamage = false
        while next < ranges.count {
            guard next < 2_000 else { return .unreachable }
            let (from, to) = ranges[next]
            next += 1
            guard let middle = from.middle(to: to, longest: longest) else { continue }
            var key: SQLiteProbe?
            do {
                try run(
                    """
                    SELECT \(column) FROM "\(table)" WHERE \(column) >= ? ORDER BY \(column) LIMIT 1
                    """,
                    bind: { middle.bind(to: $0, at: 1) },
                    row: { key = SQLiteProbe(column: 0, of: $0) })
            } catch  where lastFailureIsCorrupt {
                // The search met damage: a row may be on either side.
                metDamage = true
                ranges += [(from, middle), (middle, to)]
                continue
            }
            if let key, low.map({ $0.precedes(key) }) ?? true,
                high.map({ key.precedes($0) }) ?? true
            {
                return .found(key)
            }
            // Nothing from `middle` up to `high`.
            ranges.append((from, middle))
        }
        return metDamage ? .unreachable : .empty
    }

    /// Replaces the contents of `database` with this database's, page by page (SQLite's
    /// backup), in one transaction of `database`, whose other connections then read the new
    /// contents.
    private func copyContents(into database: SQLiteDatabase) throws {
        guard let source = connection, let destination = database.connection else {
            throw Failure.closed
        }
        guard let backup = sqlite3_backup_init(destination, "main", source, "main") else {
            throw database.failure(sqlite3_errcode(destination), reading: false)
        }
        let status = sqlite3_backup_step(backup, -1)
        let finished = sqlite3_backup_finish(backup)
        guard status == SQLITE_DONE, finished == SQLITE_OK else {
            throw database.failure(status == SQLITE_DONE ? finished : status, reading: false)
        }
    }
}

/// A key exactly as SQLite holds it, in SQLite's order: a number, then text, then a blob, text
/// and blobs by their bytes (the shorter first when one begins the other). A read a page at a
/// time starts after one (a damaged text key may not be UTF-8, which a `String` changes), and
/// ``SQLiteDatabase/rebuild(file:)`` reads and searches a table by them.
private nonisolated enum SQLiteProbe {
    case integer(Int64)
    case real(Double)
    case text([UInt8])
    case blob([UInt8])

    /// The key in column `column` of `row`, with its bytes as stored.
    init<Failure>(column: Int32, of row: SQLiteDatabase<Failure>.Statement) {
        switch row.argument(at: column) {
        case .integer(let value): self = .integer(value)
        case .real(let value): self = .real(value)
        case .text: self = .text(Array(row.data(at: column)))
        case .blob(let value): self = .blob(Array(value))
        case .null: self = .integer(.min)
        }
    }

    /// The least key of the column's type.
    static func least(columnType: String) -> SQLiteProbe {
        switch columnType {
        case "TEXT": .text([])
        case "BLOB": .blob([])
        default: .integer(.min)
        }
    }

    /// The key for a report.
    var argument: SQLiteArgument {
        switch self {
        case .integer(let value): .integer(value)
        case .real(let value): .real(value)
        case .text(let bytes): .text(String(decoding: bytes, as: UTF8.self))
        case .blob(let bytes): .blob(Data(bytes))
        }
    }

    /// Whether `self` sorts before `other` in SQLite's order.
    func precedes(_ other: SQLiteProbe) -> Bool {
        switch (self, other) {
        case (.integer(let first), .integer(let second)): first < second
        case (.text(let first), .text(let second)), (.blob(let first), .blob(let second)):
            first.lexicographicallyPrecedes(second)
        default: argument.sortsBefore(other.argument)
        }
    }

    /// A key past every key of the type that the store writes: `Int64.max`; a byte no UTF-8
    /// text starts with; 17 bytes of `0xFF`, past every 16-byte id.
    var top: SQLiteProbe {
        switch self {
        case .integer, .real: .integer(.max)
        case .text: .text([0xFF])
        case .blob: .blob(Array(repeating: 0xFF, count: 17))
        }
    }

    /// How many bytes the key has (none for a number).
    var length: Int {
        switch self {
        case .integer, .real: 0
        case .text(let bytes), .blob(let bytes): bytes.count
        }
    }

    /// A key strictly between `self` and `other` (above it), of at most `longest` bytes, or nil
    /// when none is (or they are of different kinds).
    func middle(to other: SQLiteProbe, longest: Int) -> SQLiteProbe? {
        switch (self, other) {
        case (.integer(let low), .integer(let high)):
            guard low < high else { return nil }
            let width = UInt64(bitPattern: high) &- UInt64(bitPattern: low)
            guard width > 1 else { return nil }
            // Ids gather near zero, not across the whole range of 64 bits: a wide range is cut
            // at zero, or where its scale grows (by the square root of its width, or doubling
            // from its end nearer zero), so that a few searches reach every scale of key.
            let bits = UInt64.bitWidth - width.leadingZeroBitCount
            guard bits > 24 else { return .integer(low &+ Int64(bitPattern: width / 2)) }
            if low < 0, high > 0 { return .integer(0) }
            let root = UInt64(1) << UInt64(bits / 2)
            let step = min(max(low >= 0 ? low.magnitude : high.magnitude, root), width / 2)
            return .integer(
                low >= 0 ? low &+ Int64(bitPattern: step) : high &- Int64(bitPattern: step))
        case (.text(let low), .text(let high)):
            guard low.lexicographicallyPrecedes(high) else { return nil }
            return Self.middle(low, high, longest: longest).map { .text($0) }
        case (.blob(let low), .blob(let high)):
            guard low.lexicographicallyPrecedes(high) else { return nil }
            return Self.middle(low, high, longest: longest).map { .blob($0) }
        default: return nil
        }
    }

    /// The bytes halfway between `low` and `high`, read as fractions in base 256, at most one
    /// byte longer than the longer of them; nil when that is not strictly between them, or
    /// longer than `longest`.
    private static func middle(_ low: [UInt8], _ high: [UInt8], longest: Int) -> [UInt8]? {
        let length = max(low.count, high.count) + 1
        guard length <= longest else { return nil }
        let padded = { (bytes: [UInt8]) in bytes + Array(repeating: 0, count: length - bytes.count)
        }
        let (first, second) = (padded(low), padded(high))
        var sum = Array(repeating: 0, count: length)
        var carry = 0
        for index in (0..<length).reversed() {
            let total = Int(first[index]) + Int(second[index]) + carry
            sum[index] = total & 0xFF
            carry = total >> 8
        }
        // (carry, sum) / 2, digit by digit from the top.
        var remainder = carry
        let middle = sum.map { digit in
            let value = remainder * 256 + digit
            remainder = value & 1
            return UInt8(value >> 1)
        }
        // Its zeros at the end left off where it stays between them: a middle a byte longer at
        // every halving would reach `longest` after a few, short of keys near the low end (a
        // UUID that starts with 0x00 was never found).
        var short = middle
        while short.last == 0 { short.removeLast() }
        return [short, middle].first {
            low.lexicographicallyPrecedes($0) && $0.lexicographicallyPrecedes(high)
        }
    }

    func bind<Failure>(to statement: SQLiteDatabase<Failure>.Statement, at index: Int32) {
        switch self {
        case .integer(let value): statement.bind(value, at: index)
        case .real(let value): statement.bind(.real(value), at: index)
        case .text(let bytes): statement.bind(utf8: Data(bytes), at: index)
        case .blob(let bytes): statement.bind(Data(bytes), at: index)
        }
    }
}

// MARK: - A WAL that a crash left

/// The WAL that a crash left beside a database (an app killed in the background, a power loss),
/// checked before the first connection of any process reads it.
///
/// SQLite reads a WAL's frames up to the first that fails its checksum (or bears other salts),
/// taking it for the end of a write that a crash cut short, and drops the rest. One byte damaged
/// on the disk in an earlier frame would drop every commit after it, acknowledged ones too. So
/// when the failing frame is damaged in one field only (its salts, its checksum, or its page
/// and header, which the checksum covers), every frame after it verifies against the checksum
/// stored before it, and one of them commits a later transaction than the failing frame's own,
/// the salts and checksums from the failing frame to that commit are written again. (Each
/// commit is synced before the next transaction writes a frame, so the failing frame's
/// transaction had been acknowledged: its frame was damaged afterwards, not cut short.) SQLite
/// then reads every committed frame, and the damaged byte is in one page: a later frame of that
/// page replaces it, or a row's checksum or `PRAGMA quick_check` finds it, and `recover` sets
/// the row aside or makes the database again. A damaged byte of the frame's page number or
/// commit is put back instead (the one value that makes the frame verify), as rechained, the
/// page would land on another. A last transaction cut short was never acknowledged, and is
/// left for SQLite to drop; so is a frame left from another write (other salts and another
/// checksum), and a damaged frame of page 1, the database's header and schema, which the
/// database cannot open without, unless a later frame of page 1 replaces it.
nonisolated enum SQLiteWAL {
    /// The WAL of a database, locked (`flock`) from its check until the connection that opens
    /// the database after it has read it, and so holds SQLite's lock on the `-shm` file: another
    /// process of this engine then finds that lock and leaves the WAL alone.
    final class Check {
        private var descriptor: Int32

        fileprivate init(descriptor: Int32) { self.descriptor = descriptor }

        /// Unlocks the WAL (closing it: SQLite takes no lock of its own on the WAL, so this
        /// drops none of its locks).
        func release() {
            guard descriptor >= 0 else { return }
            _ = close(descriptor)
            descriptor = -1
        }

        deinit { release() }
    }

    /// Mends the WAL of the database `path` as above, unless a connection of another process
    /// has the database open (it read the WAL already: SQLite holds a read lock on byte 128 of
    /// the `-shm` file while connected). Call it while no connection of this process has the
    /// file open, and ``Check/release()`` the result once the connection has read the database.
    /// Anything it cannot do (no WAL, no permission, a failed write) leaves the WAL for SQLite
    /// as it was, or mended in part, which the next open goes on with. `mended` says whether
    /// frames were written.
    static func mendDamagedFrames(ofDatabase path: String) -> (check: Check?, mended: Bool) {
        let descriptor = open(path + "-wal", O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return (nil, false) }
        let check = Check(descriptor: descriptor)
        guard flock(descriptor, LOCK_EX) == 0, !isOpenInAnotherProcess(path + "-shm") else {
            return (check, false)
        }
        guard let size = StoreFiles.size(of: descriptor) else { return (check, false) }
        let read = { (offset: Int, count: Int) -> [UInt8]? in
            var bytes = [UInt8](repeating: 0, count: count)
            let done = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress, count, off_t(offset))
            }
            return done == count ? bytes : nil
        }
        guard let patches = mendingPatches(size: size, read: read) else { return (check, false) }
        do {
            for patch in patches {
                try StoreFiles.write(Data(patch.bytes), to: descriptor, at: patch.offset)
            }
            try StoreFiles.sync(descriptor)
            return (check, true)
        } catch {
            return (check, false)
        }
    }

    /// Whether a process other than this one has a connection to the database whose `-shm`
    /// file is `sharedMemory` (true when that cannot be told).
    private static func isOpenInAnotherProcess(_ sharedMemory: String) -> Bool {
        let descriptor = open(sharedMemory, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return errno != ENOENT }
        defer { _ = close(descriptor) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 128
        lock.l_len = 1
        guard fcntl(descriptor, F_GETLK, &lock) == 0 else { return true }
        return lock.l_type != Int16(F_UNLCK)
    }

    /// ``mendingPatches(size:read:)`` of the WAL `wal`, held in memory.
    static func mendingPatches(for wal: [UInt8]) -> [(offset: Int, bytes: [UInt8])]? {
        mendingPatches(size: wal.count) { offset, count in
            offset + count <= wal.count ? Array(wal[offset..<offset + count]) : nil
        }
    }

    /// The bytes to write into a WAL of `size` bytes, which `read` reads (`count` bytes at an
    /// offset), so that SQLite reads every frame up to its last acknowledged commit; nil when
    /// it reads them all already, or when the rule above does not hold. It reads a frame at a
    /// time, twice at most, so a large WAL is never in memory.
    static func mendingPatches(
        size: Int, read: (_ offset: Int, _ count: Int) -> [UInt8]?
    ) -> [(offset: Int, bytes: [UInt8])]? {
        guard size >= 32, let header = read(0, 32) else { return nil }
        let magic = word(header, at: 0)
        guard magic & 0xFFFF_FFFE == 0x377F_0682, word(header, at: 4) == 3_007_000 else {
            return nil
        }
        let bigEndian = magic & 1 == 1
        let pageSize = word(header, at: 8) == 1 ? 65_536 : Int(word(header, at: 8))
        guard (512...65_536) ~= pageSize, pageSize & (pageSize - 1) == 0 else { return nil }
        let frameSize = 24 + pageSize
        let count = (size - 32) / frameSize
        let salts = Array(header[16..<24])
        let start = { (frame: Int) in 32 + frame * frameSize }
        let sum = { (frame: [UInt8], from: (UInt32, UInt32)) in
            checksum(frame, [0..<8, 24..<frameSize], from: from, bigEndian: bigEndian)
        }
        let headerSum = checksum(header, [0..<24], from: (0, 0), bigEndian: bigEndian)
        let headerStored = (word(header, at: 24), word(header, at: 28))
        // Each frame's page, commit, salts and stored checksum, and whether it verifies against
        // the checksum stored before it.
        var frames: [(page: UInt32, commit: UInt32, hasSalts: Bool, stored: (UInt32, UInt32))] = []
        var verified: [Bool] = []
        var before = headerStored
        for index in 0..<count {
            guard let frame = read(start(index), frameSize) else { return nil }
            let stored = (word(frame, at: 16), word(frame, at: 20))
            let hasSalts = Array(frame[8..<16]) == salts
            frames.append((word(frame, at: 0), word(frame, at: 4), hasSalts, stored))
            verified.append(hasSalts && frames[index].page != 0 && sum(frame, before) == stored)
            before = stored
        }
        let storedBefore = { (index: Int) in index == 0 ? headerStored : frames[index - 1].stored }
        let isHeaderSound = headerSum == headerStored
        // The frame SQLite stops at; with a damaged header, it reads none.
        let failing = isHeaderSound ? (verified.firstIndex(of: false) ?? count) : 0
        guard failing < count,
            let ownCommit = (failing..<count).first(where: { frames[$0].commit != 0 }),
            let lastCommit = (ownCommit + 1..<count).last(where: {
                verified[$0] && frames[$0].commit != 0
            }),
            (failing + 1...lastCommit).dropFirst().allSatisfy({ verified[$0] }),
            let failingFrame = read(start(failing), frameSize),
            let next = read(start(failing + 1), frameSize)
        else { return nil }
        let failingSum = sum(failingFrame, isHeaderSound ? storedBefore(failing) : headerSum)
        let isDamagedInOneField: Bool
        if !isHeaderSound {
            // The header's own bytes, or its checksum: the frames verify from one of them.
            isDamagedInOneField =
                (verified[failing] || failingSum == frames[failing].stored)
                && verified[failing + 1]
        } else if !frames[failing].hasSalts {
            // Its salts: its checksum holds.
            isDamagedInOneField = failingSum == frames[failing].stored && verified[failing + 1]
        } else if verified[failing + 1] {
            // Its page number or commit, or its page (the next frame verifies from the checksum
            // it stores). A byte of the number or commit is put back, the one value that makes
            // the frame verify, and nothing else is written: rechained, the page would land on
            // another page, and its own keep an older version, both unseen.
            if let byte = headerByteThatVerifies(
                failingFrame, from: storedBefore(failing), stored: frames[failing].stored,
                pageSize: pageSize, bigEndian: bigEndian)
            {
                return [(start(failing) + byte.offset, [byte.value])]
            }
            // Its page: not past the database its transaction left, nor the database's header
            // and schema (page 1) unless a later frame up to the last commit holds that page
            // again, which SQLite then reads instead (it reads a page's latest frame).
            let page = frames[failing].page
            let isReplaced = (failing + 1...lastCommit).contains { frames[$0].page == page }
            isDamagedInOneField =
                page <= frames[ownCommit].commit && (page > 1 || isReplaced)
        } else {
            // Its stored checksum: the next frame verifies from the checksum of its bytes.
            isDamagedInOneField =
                frames[failing + 1].hasSalts && sum(next, failingSum) == frames[failing + 1].stored
        }
        guard isDamagedInOneField else { return nil }
        var patches: [(offset: Int, bytes: [UInt8])] = []
        var running = isHeaderSound ? storedBefore(failing) : headerSum
        if !isHeaderSound { patches.append((24, bytes(running))) }
        for index in failing...lastCommit {
            guard let frame = read(start(index), frameSize) else { return nil }
            running = sum(frame, running)
            patches.append((start(index) + 8, salts + bytes(running)))
        }
        return patches
    }

    /// The byte of `frame`'s page number or commit (its first 8 bytes) whose other value makes
    /// the frame's checksum from `start` equal `stored`, with that value; nil when none does.
    static func headerByteThatVerifies(
        _ frame: [UInt8], from start: (UInt32, UInt32), stored: (UInt32, UInt32), pageSize: Int,
        bigEndian: Bool
    ) -> (offset: Int, value: UInt8)? {
        // The page's words change the sum before them by a map that is affine modulo 2^32 (each
        // step adds the two sums and a word): found once, from three starts, for 2,040 trials.
        let page = [24..<24 + pageSize]
        let zero = checksum(frame, page, from: (0, 0), bigEndian: bigEndian)
        let first = checksum(frame, page, from: (1, 0), bigEndian: bigEndian)
        let second = checksum(frame, page, from: (0, 1), bigEndian: bigEndian)
        let throughPage = { (sum: (UInt32, UInt32)) -> (UInt32, UInt32) in
            (
                zero.0 &+ sum.0 &* (first.0 &- zero.0) &+ sum.1 &* (second.0 &- zero.0),
                zero.1 &+ sum.0 &* (first.1 &- zero.1) &+ sum.1 &* (second.1 &- zero.1)
            )
        }
        var header = Array(frame[0..<8])
        for offset in 0..<8 {
            let original = header[offset]
            for value in UInt8.min...UInt8.max where value != original {
                header[offset] = value
                let sum = checksum(header, [0..<8], from: start, bigEndian: bigEndian)
                if throughPage(sum) == stored { return (offset, value) }
            }
            header[offset] = original
        }
        return nil
    }

    /// SQLite's WAL checksum of the bytes `ranges` of `bytes`, from `start`: the bytes as 32-bit
    /// words in the WAL's order, summed two at a time.
    static func checksum(
        _ bytes: [UInt8], _ ranges: [Range<Int>], from start: (UInt32, UInt32), bigEndian: Bool
    ) -> (UInt32, UInt32) {
        var (first, second) = start
        bytes.withUnsafeBufferPointer { bytes in
            let word = { (index: Int) -> UInt32 in
                let value =
                    UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16
                    | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
                return bigEndian ? value : value.byteSwapped
            }
            for range in ranges {
                for index in stride(from: range.lowerBound, to: range.upperBound - 7, by: 8) {
                    first = first &+ word(index) &+ second
                    second = second &+ word(index + 4) &+ first
                }
            }
        }
        return (first, second)
    }

    /// The big-endian 32-bit number at `offset`.
    private static func word(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// `sum` as the WAL stores it: two big-endian 32-bit numbers.
    private static func bytes(_ sum: (UInt32, UInt32)) -> [UInt8] {
        [sum.0, sum.1].flatMap { number in
            (0..<4).map { UInt8(truncatingIfNeeded: number >> (24 - 8 * $0)) }
        }
    }
}

// MARK: - Changes other processes make

/// What other processes (an app's widget, its extensions) commit to the database, for the
/// `changes()` of a repository in this one.
///
/// Every write transaction adds a row per table it changed to the table `store_changes`, in the
/// same transaction: the table's name, the keys of the rows it saved or deleted (with what the
/// delete rules changed) as a JSON array, and this process's ``writer`` number. A repository that
/// is observed polls `PRAGMA data_version` (which changes when another connection commits) and,
/// when it has changed, reads the keys other processes logged since it last looked; writes made
/// in this process reach it through ``SQLiteChangeCenter``. The log keeps the last ``capacity``
/// transactions: a reader that falls further behind (a process suspended for long) reads every
/// value again.
nonisolated enum SQLiteChangeLog {
    /// The log's table in the database.
    static let table = "store_changes"
    /// This process in the log: its own writes are published as it makes them.
    static let writer = Int64.random(in: 1...Int64.max)
    /// How many rows (a row per table a transaction changed) the log keeps.
    static var capacity: Int64 { 10_000 }

    static func createTable<Failure>(in database: SQLiteDatabase<Failure>) throws {
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS \(table) (
                seq INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                keys TEXT NOT NULL,
                writer INTEGER NOT NULL
            )
            """)
    }

    /// Logs the rows `effects` changed, a row per table, in the caller's transaction, and
    /// drops the rows older than the last ``capacity``.
    static func record<Failure>(
        _ effects: SQLiteEffects, in database: SQLiteDatabase<Failure>
    ) throws {
        guard !effects.isEmpty, !database.isInMemory else { return }
        let encoder = JSONEncoder()
        let tables = effects.tables.sorted()
        for name in tables {
            let keys: Data
            do {
                keys = try encoder.encode(effects.keys(in: name).map(LoggedKey.init))
            } catch {
                throw Failure.unwritable(file: database.fileURL, reason: "\(error)")
            }
            try database.run(
                "INSERT INTO \(table) (name, keys, writer) VALUES (?, ?, ?)",
                bind: { statement in
                    statement.bind(name, at: 1)
                    statement.bind(utf8: keys, at: 2)
                    statement.bind(writer, at: 3)
                }, row: { _ in })
        }
        // Each time the rows pass a hundred more, the rows before the last `capacity` go.
        let last = database.lastInsertedRow
        if (last - Int64(tables.count)) / 100 != last / 100 {
            try database.run(
                "DELETE FROM \(table) WHERE seq <= ?", bind: { $0.bind(last - capacity, at: 1) },
                row: { _ in })
        }
    }

    /// Logs that any value of table `name` may have changed, in the caller's transaction: its
    /// keys are `null`, which no reader takes for a list of ids, so it reads the table again.
    static func recordEverything<Failure>(
        in name: String, database: SQLiteDatabase<Failure>
    ) throws {
        guard !database.isInMemory else { return }
        try database.run(
            "INSERT INTO \(table) (name, keys, writer) VALUES (?, 'null', ?)",
            bind: { statement in
                statement.bind(name, at: 1)
                statement.bind(writer, at: 2)
            }, row: { _ in })
    }

    /// A key as JSON: a number, or a string (a UUID's as its string), as the id type decodes.
    private struct LoggedKey: Encodable {
        let key: SQLiteRowKey

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch key.jsonForm {
            case .integer(let number): try container.encode(number)
            case .real(let number): try container.encode(number)
            case .text(let text): try container.encode(text)
            case .blob(let bytes): try container.encode(bytes)
            case .null: try container.encodeNil()
            }
        }
    }
}

nonisolated extension SQLiteDatabase {
    /// A number that changes when another connection, in this process or another, commits.
    func dataVersion() throws -> Int64 {
        var version: Int64 = 0
        try run("PRAGMA data_version") { version = $0.int64(at: 0) }
        return version
    }

    /// Runs `body`'s reads in one read transaction: they see one state of the database.
    func reading<Result>(_ body: () throws -> Result) throws -> Result {
        try execute("BEGIN")
        defer {
            // Never left open: a later write would run inside it, uncommitted.
            if (try? execute("COMMIT")) == nil, isInTransaction { try? execute("ROLLBACK") }
        }
        return try body()
    }
}

nonisolated extension SQLiteTable {
    /// SQLite's `data_version` and the log's last row, read in one read transaction: when the
    /// version is one read before, every row of the log up to `last` is this connection's own
    /// or was read then.
    func dataVersionAndLastLogged() throws -> (version: Int64, last: Int64) {
        try database.reading { (try database.dataVersion(), try lastLogged()) }
    }

    /// The last row of the log: where a reader that starts now begins.
    func lastLogged() throws -> Int64 {
        var last: Int64 = 0
        try database.run("SELECT coalesce(max(seq), 0) FROM \(SQLiteChangeLog.table)") {
            last = $0.int64(at: 0)
        }
        return last
    }

    /// The ids of the rows of this table that other processes changed after the log's row
    /// `seq`, each once, and the last row read; `ids` is nil when the log no longer reaches
    /// back to `seq`, or no longer as far as `seq` (then any value may have changed).
    func idsChangedElsewhere(after seq: Int64) throws -> (ids: [Value.ID]?, last: Int64) {
        try database.reading { try loggedIDs(after: seq, elsewhereOnly: true) }
    }

    /// The ids of the rows of this table that the log names after its row `seq`, each once, and
    /// the last row read, in the caller's transaction: only those other processes changed with
    /// `elsewhereOnly`. `ids` is nil when the log no longer reaches back to `seq`.
    func loggedIDs(
        after seq: Int64, elsewhereOnly: Bool = false
    ) throws -> (ids: [Value.ID]?, last: Int64) {
        var (first, last): (Int64, Int64) = (0, 0)
        try database.run(
            "SELECT coalesce(min(seq), 0), coalesce(max(seq), 0) FROM \(SQLiteChangeLog.table)"
        ) {
            (first, last) = ($0.int64(at: 0), $0.int64(at: 1))
        }
        // A log that went back is not the one `seq` was read from (`recover` made it again
        // without the rows a damaged page lost, or the file was replaced).
        guard last >= seq else { return (nil, last) }
        guard last > seq else { return ([], seq) }
        guard first <= seq + 1 else { return (nil, last) }
        let decoder = JSONDecoder()
        var ids: [Value.ID] = []
        var seen: Set<Value.ID> = []
        var isReadable = true
        try database.run(
            """
            SELECT keys FROM \(SQLiteChangeLog.table)
            WHERE seq > ? AND seq <= ? AND name = ? AND writer != ? ORDER BY seq
            """,
            bind: { statement in
                statement.bind(seq, at: 1)
                statement.bind(last, at: 2)
                statement.bind(name, at: 3)
                statement.bind(elsewhereOnly ? SQLiteChangeLog.writer : 0, at: 4)
            },
            row: { row in
                guard let logged = try? decoder.decode([Value.ID].self, from: row.data(at: 0))
                else {
                    isReadable = false
                    return
                }
                for id in logged where seen.insert(id).inserted { ids.append(id) }
            })
        // A row this code cannot read (another version's ids): any value may have changed.
        return (isReadable ? ids : nil, last)
    }
}
