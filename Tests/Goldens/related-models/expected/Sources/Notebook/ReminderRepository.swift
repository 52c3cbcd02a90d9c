public import Foundation

/// What can go wrong when a ``ReminderRepository`` opens, reads or writes the module's database.
public nonisolated enum ReminderRepositoryError: Error, Equatable, CustomStringConvertible {
    /// The database exists but cannot be read.
    case unreadable(file: URL, reason: String)
    /// The database is damaged, or a row of ``Reminder`` values fails its checksum, or the
    /// file is not a database at all. It is left exactly as it is.
    case corrupt(file: URL, offset: Int, reason: String)
    /// A row holds values that do not fit the current ``Reminder``: the model changed in a way
    /// stored data does not follow. The row's bytes are intact (its checksum matched). The file
    /// is left as it is; change the model so that it reads the values again.
    case incompatible(file: URL, reason: String)
    /// The table was written by a newer version of the app, with a schema this code does not
    /// know.
    case newerSchema(file: URL, found: Int, supported: Int)
    /// The table holds values of an earlier schema version that its migration did not carry
    /// over: `migration` (the file, as `#fileID` names it) has not decided `field` yet, or a
    /// value does not convert without loss. The database is left as it is; edit the migration.
    case notMigrated(file: URL, field: String, migration: String, reason: String)
    /// Another connection, in this process or another one, held the database's write lock
    /// past the busy timeout.
    case locked(file: URL)
    /// The database cannot be written (a full disk, a read-only folder). The transaction was
    /// rolled back: the store holds what it held before the call.
    case unwritable(file: URL, reason: String)
    /// Another value already holds `value` in the unique field `field`. Nothing was written.
    case notUnique(field: String, value: String)
    /// The reference `field` holds `id`, which no value of the model it refers to has. Nothing
    /// was written.
    case missingReference(field: String, id: String)
    /// `count` values of `model` still refer to a value being deleted, and their reference's
    /// delete rule is `restrict`. Nothing was deleted: delete or change them first.
    case stillReferenced(by: String, count: Int)
    /// ``ReminderRepository/close()`` was called; open a new repository to read or write again.
    case closed
    /// ``ReminderRepository/suspend()`` was called, and ``ReminderRepository/resume()`` not yet: the
    /// repository holds no connection, so that iOS can suspend the app.
    case suspended

    public var description: String {
        switch self {
        case .unreadable(let file, let reason):
            "cannot read \(file.path): \(reason)"
        case .corrupt(let file, _, let reason):
            "\(file.path) is damaged and was left untouched: \(reason)"
        case .incompatible(let file, let reason):
            "\(file.path) holds Reminder values that do not fit the current model and was left "
                + "untouched: \(reason). Do not delete the file: change the model so it reads "
                + "them again (a default, an optional field, --rename, --migrate), or, when a "
                + "newer build of the app wrote them (an extension not updated yet), update this "
                + "build"
        case .newerSchema(let file, let found, let supported):
            "\(file.path) has schema version \(found), newer than \(supported); update the app"
        case .notMigrated(let file, let field, let migration, let reason):
            // `migration` is `#fileID`: `Module/File.swift`.
            "\(file.path) holds Reminder values of an earlier schema version and was left "
                + "untouched: \(field) \(reason) in \(migration.split(separator: "/").last ?? "") "
                + "(module \(migration.split(separator: "/").first ?? "")). Edit that migration so "
                + "it gives \(field) a value for every stored Reminder"
        case .locked(let file):
            "\(file.path) is being written by another connection; try again"
        case .unwritable(let file, let reason):
            "cannot write \(file.path): \(reason)"
        case .notUnique(let field, let value):
            "another value already has \(field) \(value), which must be unique"
        case .missingReference(let field, let id):
            "\(field) \(id) names no stored value; save that value first"
        case .stillReferenced(let model, let count):
            "\(count) \(model) value\(count == 1 ? " refers" : "s refer") to it, and the rule "
                + "is restrict: delete or change them first"
        case .closed:
            "the ReminderRepository was closed"
        case .suspended:
            "the ReminderRepository is suspended; call resume() first"
        }
    }
}

/// The shared engine in `SQLiteStore.swift` reports its failures in these cases.
nonisolated extension ReminderRepositoryError: SQLiteFailure {}

/// Stores ``Reminder`` values in the table `reminders` of the module's SQLite database,
/// `Notebook.sqlite`, which every sqlite repository of `Notebook` shares in a folder.
///
/// An actor runs one call at a time on its own connection. The API callers use (reading,
/// queries, writing, ``changes()``, ``shared(in:)``) is in `ReminderRepository+API.swift`; the
/// connection, the table and its rows are in `SQLiteStore.swift`, and queries in
/// `StoreQuery.swift`, which every sqlite repository in this module shares. Reads go to the
/// database, a query or a page at a time; nothing keeps every value in memory. Each write is
/// one transaction in WAL mode with `synchronous=FULL` (and `fullfsync` on Apple platforms): it
/// is on disk before the call returns, or rolled back. Readers never wait for a writer, and
/// other repositories, in this process or another, may open the same database: a write waits
/// for another's to end, up to a busy timeout, then throws
/// ``ReminderRepositoryError/locked(file:)``.
///
/// Every row carries a CRC-32 of its id and JSON, so a damaged byte throws
/// ``ReminderRepositoryError/corrupt(file:offset:reason:)`` instead of being read as a value.
public actor ReminderRepository {
    /// The schema version of the stored values. scaffold-repo keeps it in the manifest and
    /// raises it with each `--migrate`; do not edit it here. A table written by an earlier
    /// version is migrated when it opens; a higher version is refused instead of misread.
    public static let schemaVersion = 1
    /// The database that every sqlite repository of the module shares in a folder.
    public static let databaseFileName = "Notebook.sqlite"
    /// The table that holds the values.
    public static let tableName = "reminders"
    /// The fields the table keeps an index on, what it checks on each write (values are unique,
    /// references name a stored value), and the keys of the JSON its rows hold (with `?` those
    /// that decode as nil when missing). `SQLiteRelations.swift` keeps them.
    static let schema = SQLiteSchema<Reminder>(
        model: "Reminder",
        references: [
            SQLiteReference(
                field: "noteID", table: NoteRepository.tableName, rule: .restrict,
                parentID: \.noteID)
        ],
        // A row stored before a field was renamed or added with a default is rewritten with
        // these keys when the table opens, so that queries read what Swift decodes.
        storedKeys: [
            "id",
            "noteID",
            "due",
        ],
        // Raised by each change of the model: an older build of the app that opens the
        // database leaves the references and indexes that a newer one recorded.
        revision: 1)

    /// The folder that holds the database.
    public nonisolated let directory: URL
    /// The database file.
    public nonisolated var databaseURL: URL {
        directory.appendingPathComponent(Self.databaseFileName)
    }

    /// The connection, and this model's table in it: `SQLiteStore.swift`.
    let database: SQLiteDatabase<ReminderRepositoryError>
    let table: SQLiteTable<Reminder, ReminderRepositoryError>
    /// The open streams of `changes()`.
    var observers = Observers<Reminder>()
    /// Whether this repository hears of the writes other repositories in this process make to
    /// its table (a cascade, a transaction), once something observes it.
    var hearsOtherWrites = false
    /// Whether a task reads what other processes commit to the table, while ``changes()``
    /// has a reader; the log's last row it read, and the database's `data_version` then.
    var followsOtherProcesses = false
    var lastLogRowHeard: Int64 = 0
    var dataVersionHeard: Int64?
    /// The rows that changed elsewhere and are not published yet: changed while this
    /// repository was suspended (read when it resumes), or unreadable when heard (busy, or
    /// damaged: tried again at the next look).
    var keysNotHeardYet: [SQLiteRowKey] = []
    /// While every value is published again, a page at a time (the log no longer reached back
    /// to the last row heard): the key of the last row published, nil before the first page.
    /// Nil when not publishing.
    var everyValueCursor: SQLiteTable<Reminder, ReminderRepositoryError>.PageCursor?
    /// How often, in nanoseconds, an observed repository looks for what other processes
    /// committed: a change made there reaches ``changes()`` within about this long.
    public static let otherProcessesInterval: UInt64 = 100_000_000

    /// Opens the database in `directory` (both created if missing), creating the table, or
    /// migrating it when an earlier schema version wrote it.
    ///
    /// - Throws: ``ReminderRepositoryError`` when the file cannot be read, is not a database or is
    ///   damaged, or holds a newer schema or values a migration has not decided. It is never
    ///   taken for an empty store, and is left as it is.
    public init(directory: URL) throws {
        self.directory = directory
        let database = try SQLiteDatabase<ReminderRepositoryError>(
            file: directory.appendingPathComponent(Self.databaseFileName))
        self.database = database
        table = try SQLiteTable(Self.tableName, in: database, schema: Self.schema)
    }

    /// A repository that keeps `values` in a database in memory only, for SwiftUI previews and
    /// an app's own tests: the same API, and `changes()` and view-models work with it, but
    /// nothing touches the disk (its `directory` is `/dev/null`), and its changes are gone with
    /// it.
    public nonisolated static func inMemory(_ values: [Reminder] = []) -> ReminderRepository {
        ReminderRepository(inMemory: values)
    }

    private init(inMemory values: [Reminder]) {
        directory = URL(fileURLWithPath: "/dev/null")
        database = SQLiteDatabase(inMemory: ())
        table = SQLiteTable(
            inMemory: Self.tableName, in: database, schema: Self.schema, values: values)
    }

    deinit {
        SQLiteChangeCenter.shared.stopListening(ObjectIdentifier(self))
    }

    /// Takes the rows of ``tableName`` whose checksum fails out of the table, so that every
    /// other value reads again: a read that reaches such a row (``loadAll()``, a query, the
    /// view-model's page) throws ``ReminderRepositoryError/corrupt(file:offset:reason:)`` naming it.
    /// Each row is first copied, exactly as it was stored, to the database's table
    /// `store_damaged_rows`, all in one transaction. No delete rule runs: values that refer to a
    /// row set aside keep their reference. A row whose record SQLite cannot read at all (a
    /// damaged byte of its layout) is taken out too, its key kept in `store_damaged_rows`, after
    /// the database is copied beside itself (`<file>.damaged`, in ``StoreRecovery/copies``).
    /// Repositories may stay open, in this process and others: their `changes()` publish the
    /// rows set aside as deleted. A sound table is read without taking the write lock, and left
    /// as it is.
    ///
    /// When SQLite finds a page of the database damaged (where no row can be written safely),
    /// the whole database is first made again from every row SQLite can read, which needs
    /// every repository of the database closed, in every process; the rows of a damaged page
    /// are named in ``StoreRecovery/setAside`` by the ids around them, and kept, with the rest,
    /// in a copy of the file as it was (``StoreRecovery/copies``).
    ///
    /// - Returns: how many values the table holds now, and the rows set aside.
    /// - Throws: ``ReminderRepositoryError`` as ``init(directory:)`` does (which opens, and migrates,
    ///   the table first: `newerSchema`, `notMigrated`); `locked` when another connection holds
    ///   the write lock past the busy timeout, or has the database open while a damaged page
    ///   needs it made again; `corrupt`, with nothing written, when SQLite cannot read its list
    ///   of tables, or the database made again fails SQLite's check; `unwritable` when there is
    ///   no room for the copy or the database made again.
    public nonisolated static func recover(directory: URL) throws -> StoreRecovery {
        try SQLiteTable<Reminder, ReminderRepositoryError>.recover(
            tableName, schema: schema, file: directory.appendingPathComponent(databaseFileName))
    }

    /// Opens the store in ``defaultDirectory()``.
    public init() throws {
        try self.init(directory: Self.defaultDirectory())
    }

    /// The folder `Notebook` in the user's Application Support directory: in the app's
    /// container on Apple platforms, and `$XDG_DATA_HOME` or `~/.local/share` on Linux.
    public static func defaultDirectory() throws -> URL {
        try FileManager.default
            .url(
                for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil,
                create: true
            )
            .appendingPathComponent("Notebook", isDirectory: true)
    }

    /// The folder `Notebook` in the App Group container `group` (`group.com.example.shared`),
    /// which an app shares with its widgets and extensions: each opens the same database there.
    /// On Apple platforms every target that opens it needs the App Groups capability with
    /// `group`; on Linux, which has no App Groups, it is the folder `group/Notebook` in
    /// ``defaultDirectory()``'s parent.
    ///
    /// - Throws: ``ReminderRepositoryError/unreadable(file:reason:)`` when the target does not
    ///   have the App Group.
    public static func defaultDirectory(appGroup group: String) throws -> URL {
        try StoreFiles.appGroupFolder(group, reporting: ReminderRepositoryError.self)
            .appendingPathComponent("Notebook", isDirectory: true)
    }

    /// Closes the connection: later reads and writes throw ``ReminderRepositoryError/closed``.
    /// (`async`, as in every storage: the journal's waits for a compaction to stop.)
    public func close() async {
        database.close()
        // Other repositories' writes are no longer heard: a view-model that still holds this
        // one would otherwise keep every key they post, to read from a closed database.
        SQLiteChangeCenter.shared.stopListening(ObjectIdentifier(self))
    }

    /// Closes the database connection until ``resume()``, releasing every lock it holds on the
    /// files, so that iOS can suspend an app whose database is in an App Group container. Call
    /// it when the scene goes to the background; calls meanwhile throw
    /// ``ReminderRepositoryError/suspended``. Nothing is lost: every write returned before was
    /// committed. A repository in memory, or a closed one, stays as it is. (`async`, as in
    /// every storage: the journal's waits for a compaction to stop.)
    public func suspend() async {
        database.suspend()
    }

    /// Opens the connection again after ``suspend()``; ``changes()`` then publishes what other
    /// processes committed meanwhile. Nothing happens when the repository is not suspended.
    ///
    /// - Throws: ``ReminderRepositoryError`` when the database cannot be opened again.
    public func resume() throws {
        try database.resume()
        hearWhatWasMissed()
    }

    /// Whether ``close()`` was called.
    var isClosed: Bool { database.isClosed }

    /// Writes `change` in one transaction and publishes it to `changes()` once it is committed:
    /// when the write fails, the transaction is rolled back and nothing is published. What a
    /// delete rule changed in other tables goes to their repositories in this process.
    func commit(_ change: Change) throws {
        let effects = try table.commit(change)
        observers.publish(change)
        tellOtherRepositories(effects)
    }
}
