public import Foundation

/// What can go wrong when a ``BadgeRepository`` opens, reads or writes its files.
public nonisolated enum BadgeRepositoryError: Error, Equatable, CustomStringConvertible {
    /// A file exists but cannot be read.
    case unreadable(file: URL, reason: String)
    /// A file holds something other than what the repository wrote, starting at byte `offset`.
    /// The file is left exactly as it is.
    case corrupt(file: URL, offset: Int, reason: String)
    /// A file holds values that do not fit the current ``Badge``: the model changed in a
    /// way stored data does not follow. When the file has a checksum, its bytes are intact
    /// (an older file without one may also be damaged). The file is left as it is; change the
    /// model so that it reads the values again.
    case incompatible(file: URL, reason: String)
    /// A file was written by a newer version of the app, with a schema this code does not
    /// know.
    case newerSchema(file: URL, found: Int, supported: Int)
    /// A file holds values of an earlier schema version that its migration did not carry over:
    /// `migration` (the file, as `#fileID` names it) has not decided `field` yet, or a value
    /// does not convert without loss. The file is left as it is; edit the migration.
    case notMigrated(file: URL, field: String, migration: String, reason: String)
    /// Another repository, in this process or another one, has the folder open.
    case locked(file: URL)
    /// A file cannot be written. The repository keeps the contents it had before the call.
    case unwritable(file: URL, reason: String)
    /// Another value already holds `value` in the unique field `field`. Nothing was written.
    case notUnique(field: String, value: String)
    /// ``BadgeRepository/close()`` was called; open a new repository to write again.
    case closed
    /// ``BadgeRepository/suspend()`` released the folder's lock, and
    /// ``BadgeRepository/resume()`` has not taken it again: reads answer from memory, writes
    /// throw this.
    case suspended

    public var description: String {
        switch self {
        case .unreadable(let file, let reason):
            "cannot read \(file.path): \(reason)"
        case .corrupt(let file, let offset, let reason):
            "\(file.path) is damaged at byte \(offset) and was left untouched: \(reason)"
        case .incompatible(let file, let reason):
            "\(file.path) holds Badge values that do not fit the current model and was left "
                + "untouched: \(reason). Do not delete the file: change the model so it reads "
                + "them again (a default, an optional field, --rename, --migrate), or, when a "
                + "newer build of the app wrote them (an extension not updated yet), update this "
                + "build"
        case .newerSchema(let file, let found, let supported):
            "\(file.path) has schema version \(found), newer than \(supported); update the app"
        case .notMigrated(let file, let field, let migration, let reason):
            // `migration` is `#fileID`: `Module/File.swift`.
            "\(file.path) holds Badge values of an earlier schema version and was left "
                + "untouched: \(field) \(reason) in \(migration.split(separator: "/").last ?? "") "
                + "(module \(migration.split(separator: "/").first ?? "")). Edit that migration so "
                + "it gives \(field) a value for every stored Badge"
        case .locked(let file):
            "\(file.path) is held by another BadgeRepository; close that one first"
        case .unwritable(let file, let reason):
            "cannot write \(file.path): \(reason)"
        case .notUnique(let field, let value):
            "another value already has \(field) \(value), which must be unique"
        case .closed:
            "the BadgeRepository was closed"
        case .suspended:
            "the BadgeRepository is suspended; call resume() first"
        }
    }
}

/// The shared file handling in `StoreFiles.swift` reports its failures in these cases.
nonisolated extension BadgeRepositoryError: StoreFiles.Failure {}

/// Stores ``Badge`` values: in memory for fast reads, on disk in a snapshot and a journal.
///
/// An actor runs one call at a time, so concurrent saves cannot race on the values in memory
/// or the files. The API callers use (reading, writing, ``changes()``, ``shared(in:)``) is in
/// `BadgeRepository+API.swift`; how values reach the disk is in `JournalStore.swift`, which
/// every journal repository in this module shares. Reads come from memory. Every change is
/// appended to the journal as one record and synced before the call returns, so a save costs
/// the same in a store of 100 values as in one of 100,000. Once the journal has grown past the
/// snapshot (and past ``compactionFloor``), a task writes the whole store as a new snapshot
/// while this repository goes on answering calls (``compact()``).
///
/// On disk, in ``directory``: the snapshot `badges.snapshot.json` and the journal
/// `badges.journal`, whose every line carries a CRC-32, so that a damaged byte throws
/// ``BadgeRepositoryError/corrupt(file:offset:reason:)`` instead of being read as a value, and
/// the file is left untouched; and `badges.lock`, whose lock keeps a second repository
/// from writing to the folder while this one is open.
public actor BadgeRepository {
    /// The schema version of the stored values. scaffold-repo keeps it in the manifest and
    /// raises it with each `--migrate`; do not edit it here. Stores written by an earlier
    /// version are migrated when they open; a higher version is refused instead of misread.
    public static let schemaVersion = 1
    public static let snapshotFileName = "badges.snapshot.json"
    public static let journalFileName = "badges.journal"
    public static let lockFileName = "badges.lock"
    /// The journal may grow to the snapshot's size or to this many bytes, whichever is larger,
    /// before a compaction writes a new snapshot.
    public static let compactionFloor = 64 * 1024

    /// The folder that holds the repository's files.
    public nonisolated let directory: URL
    public nonisolated var snapshotURL: URL {
        directory.appendingPathComponent(Self.snapshotFileName)
    }
    public nonisolated var journalURL: URL {
        directory.appendingPathComponent(Self.journalFileName)
    }

    /// The values in memory and their files: `JournalStore.swift`, which every journal
    /// repository in this module shares.
    private var store: JournalStore<Badge, BadgeRepositoryError>
    /// The values, sorted by id, which `BadgeRepository+API.swift` reads.
    var values: StoredValues<Badge> { store.values }
    /// The open streams of `changes()`.
    var observers = Observers<Badge>()
    /// Whether a task refreshes this reader (``init(readingFrom:)``) while ``changes()`` has a
    /// reader.
    var followsWriter = false
    /// How often, in nanoseconds, an observed reader (``init(readingFrom:)``) reads what the
    /// writer committed: a change reaches its ``changes()`` within about this long.
    public static let otherProcessesInterval: UInt64 = 100_000_000
    /// Whether this repository was opened with ``init(readingFrom:)``.
    var isReader: Bool { store.isReadOnly }
    /// The `:index` and `:unique` fields, each an index of the values in memory, built on first
    /// use and kept with every change (`StoredValues.swift`).
    var indexes = FieldIndexes<Badge>([
        .init("code", isUnique: true) { AnyHashable($0.code) },
        .init("level") { AnyHashable($0.level) },
    ])

    /// Opens the store in `directory` (created if missing): takes the lock, reads the snapshot,
    /// replays the journal. Missing files are an empty store.
    ///
    /// - Throws: ``BadgeRepositoryError`` when another repository holds the folder, or a file
    ///   cannot be read or is damaged. Damaged files are never taken for an empty store, so no
    ///   later save can overwrite them.
    ///   `unreadable` also when a newer build of the app moved Badge to another storage
    ///   (its files are there as `<name>.imported`, or `.importing`): this build would see
    ///   none of it.
    public init(directory: URL) throws {
        self.directory = directory
        // A newer build of the app that moved Badge to another storage left these files as
        // `<name>.imported` (`.importing` while it imports): this build would see none of the
        // values, and what it saved there would be imported over the newer build's.
        try StoreFiles.checkNotMovedAway(
            [Self.snapshotFileName, Self.journalFileName], in: directory,
            reporting: BadgeRepositoryError.self)
        store = try JournalStore(
            directory: directory, snapshot: Self.snapshotFileName, journal: Self.journalFileName,
            lock: Self.lockFileName, compactionFloor: Self.compactionFloor)
        // Again under the folder's lock: the newer build may have imported them meanwhile.
        try StoreFiles.checkNotMovedAway(
            [Self.snapshotFileName, Self.journalFileName], in: directory, removingEmpty: true,
            reporting: BadgeRepositoryError.self)
    }

    /// A repository that keeps `values` in memory only, for SwiftUI previews and an app's own
    /// tests: the same API, and `changes()` and view-models work with it, but nothing touches
    /// the disk (no folder, lock or file; its `directory` is `/dev/null`), and its changes are gone
    /// with it.
    public nonisolated static func inMemory(_ values: [Badge] = []) -> BadgeRepository {
        BadgeRepository(inMemory: values)
    }

    private init(inMemory values: [Badge]) {
        directory = URL(fileURLWithPath: "/dev/null")
        store = JournalStore(inMemory: values)
    }

    /// Opens the store in `directory` for reading only, for an app's widget or extension while
    /// the app writes there: it takes no lock and writes nothing, so the app's repository is
    /// never locked out, and it reads one consistent state of the files. Call ``refresh()`` to
    /// read what the app committed since. Writes throw
    /// ``BadgeRepositoryError/unwritable(file:reason:)``. Missing files are an empty store.
    ///
    /// - Throws: ``BadgeRepositoryError`` when a file cannot be read or is damaged.
    ///   `unreadable` also when a newer build of the app moved Badge to another storage
    ///   (its files are there as `<name>.imported`, or `.importing`): this build would see
    ///   none of it.
    public init(readingFrom directory: URL) throws {
        self.directory = directory
        try StoreFiles.checkNotMovedAway(
            [Self.snapshotFileName, Self.journalFileName], in: directory,
            reporting: BadgeRepositoryError.self)
        store = try JournalStore(
            readingFrom: directory, snapshot: Self.snapshotFileName,
            journal: Self.journalFileName)
    }

    /// Takes back the store in `directory` that ``init(directory:)`` refuses as damaged
    /// (``BadgeRepositoryError/corrupt(file:offset:reason:)``), keeping every value that can
    /// still be read, so that it opens again: call it with no repository open on the folder,
    /// then open one. Each journal record has its own checksum, and the snapshot one: one
    /// flipped bit is put back from it (``StoreRecovery/repaired``). Otherwise a damaged record
    /// is set aside, and what it did is undone (the values it saved are as the records before
    /// it left them, and those it deleted are back); of a damaged snapshot, the values that
    /// still decode are kept as read (one of them may then hold the damaged byte:
    /// ``StoreRecovery/keptUnverified``), and only the others are set aside. The damaged files
    /// are first copied beside them as they were (`<name>.damaged`), and never removed. A sound
    /// store is left as it is.
    ///
    /// - Returns: what was kept and set aside, and where the copies are.
    /// - Throws: ``BadgeRepositoryError`` when a repository has the folder open (`locked`), a
    ///   file cannot be read or written, or intact values do not fit the model
    ///   (`incompatible`, `newerSchema`, `notMigrated`), which recovering does not change;
    ///   `newerSchema` also for a damaged file of a newer build, whose values it would
    ///   otherwise set aside.
    public nonisolated static func recover(directory: URL) throws -> StoreRecovery {
        try StoreFiles.checkNotMovedAway(
            [snapshotFileName, journalFileName], in: directory,
            reporting: BadgeRepositoryError.self)
        return try JournalStore<Badge, BadgeRepositoryError>.recover(
            directory: directory, snapshot: snapshotFileName, journal: journalFileName,
            lock: lockFileName)
    }

    /// Opens the store in ``defaultDirectory()``.
    public init() throws {
        try self.init(directory: Self.defaultDirectory())
    }

    /// The folder `BadgeStore` in the user's Application Support directory: in the app's
    /// container on Apple platforms, and `$XDG_DATA_HOME` or `~/.local/share` on Linux.
    public static func defaultDirectory() throws -> URL {
        try FileManager.default
            .url(
                for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil,
                create: true
            )
            .appendingPathComponent("BadgeStore", isDirectory: true)
    }

    /// Writes every value to a new snapshot and empties the journal of what the snapshot
    /// holds. Saves start this by themselves when the journal grows long; call it to do it now.
    /// The snapshot is written off this repository's turn: reads and writes go on meanwhile,
    /// and the journal keeps the changes they make. Returns once the new snapshot is in place.
    ///
    /// - Throws: ``BadgeRepositoryError/unwritable(file:reason:)`` when the snapshot cannot be
    ///   written (a full disk, say): every change stays in the journal, and nothing is lost;
    ///   ``BadgeRepositoryError/closed`` or ``BadgeRepositoryError/suspended`` when the
    ///   repository was closed or suspended before the snapshot was in place.
    public func compact() async throws {
        // One under way holds only the values of when it began: let it end, then start anew.
        while let running = store.runningCompaction {
            try? await finishCompaction(running)
        }
        guard let compaction = try beginCompaction() else { return }
        try await finishCompaction(compaction)
    }

    /// Starts a compaction, whose task reads the values from this repository a few hundred at
    /// a time, each read a short turn of its own.
    private func beginCompaction() throws
        -> JournalStore<Badge, BadgeRepositoryError>.Compaction?
    {
        try store.beginCompaction(
            from: .init(
                values: { [weak self] id in await self?.valuesToCompact(after: id) },
                journalEnd: { [weak self] in await self?.journalEnd }))
    }

    /// The next few hundred values after `id`, for a compaction.
    private func valuesToCompact(after id: Int?) -> [Badge] {
        values.values(after: id)
    }

    /// Where the journal's records end, for a compaction, which copies them up to there.
    private var journalEnd: Int { store.journalEnd }

    /// Waits for `compaction`'s snapshot to be written, then puts it in place.
    private func finishCompaction(
        _ compaction: JournalStore<Badge, BadgeRepositoryError>.Compaction
    ) async throws {
        let written = await compaction.task.result
        try store.finishCompaction(compaction, result: written)
    }

    /// Releases the folder's lock and files. Reads still answer from memory; writes throw
    /// ``BadgeRepositoryError/closed``. A compaction under way is stopped: this returns once it
    /// has, and the lock is free for the next repository to open the folder.
    public func close() async {
        await store.close()?.value
    }

    /// Whether ``close()`` was called.
    var isClosed: Bool { store.isClosed }

    /// The folder `BadgeStore` in the App Group container `group` (`group.com.example.shared`),
    /// which an app shares with its widgets and extensions: the app writes there, and they read
    /// with ``init(readingFrom:)``. On Apple platforms every target that opens it needs the App
    /// Groups capability with `group`; on Linux, which has no App Groups, it is the folder
    /// `group/BadgeStore` in ``defaultDirectory()``'s parent.
    ///
    /// - Throws: ``BadgeRepositoryError/unreadable(file:reason:)`` when the target does not
    ///   have the App Group.
    public static func defaultDirectory(appGroup group: String) throws -> URL {
        try StoreFiles.appGroupFolder(group, reporting: BadgeRepositoryError.self)
            .appendingPathComponent("BadgeStore", isDirectory: true)
    }

    /// Releases the folder's lock and files until ``resume()``, so that iOS can suspend an app
    /// whose store is in an App Group container (it ends an app that holds a file lock there
    /// while suspended: `0xdead10cc`). Call it when the scene goes to the background. Reads
    /// still answer from memory; writes throw ``BadgeRepositoryError/suspended``. A repository
    /// in memory, a reader and a closed repository stay as they are. It returns once the lock
    /// is released (a compaction under way is stopped first).
    public func suspend() async {
        // A compaction under way is stopped; the lock is free once it has.
        await store.suspend()?.value
    }

    /// Takes the folder's lock again after ``suspend()``. When another repository wrote the
    /// folder meanwhile, the files are read again and what differs is published to
    /// ``changes()``. Nothing happens when the repository is not suspended.
    ///
    /// - Throws: ``BadgeRepositoryError/locked(file:)`` while another repository holds the
    ///   folder (this one stays suspended; call it again later), or what reading throws.
    public func resume() throws {
        publish(try store.resume())
    }

    /// For a repository opened with ``init(readingFrom:)``: reads what the writer committed
    /// since the last read, applies it, and publishes it to ``changes()`` (and so to
    /// view-models). Call it when the widget or extension wakes, or on a timer; nothing happens
    /// for a repository that writes, which has every change already.
    ///
    /// - Throws: ``BadgeRepositoryError`` when a file cannot be read or is damaged; the values
    ///   read before stay.
    public func refresh() throws {
        publish(try store.refresh())
    }

    /// Publishes changes read from the files, which the indexes were not told of one by one.
    private func publish(_ changes: [Change]) {
        guard !changes.isEmpty else { return }
        indexes.invalidate()
        for change in changes { observers.publish(change) }
    }

    /// Appends `change` to the journal (or, for a batch as large as the store, writes a new
    /// snapshot), applies it, and publishes it to `changes()`: the change is on disk before
    /// memory, or any observer, shows it. When the journal has grown long, starts a compaction.
    func commit(_ change: Change) throws {
        // Closed first: a closed repository's write is `closed`, whatever it holds.
        guard !isClosed else { throw BadgeRepositoryError.closed }
        if let (field, value) = indexes.conflict(in: change, with: values) {
            throw BadgeRepositoryError.notUnique(field: field, value: value)
        }
        let replaced = indexes.replaced(by: change, in: values)
        try store.commit(change)
        indexes.apply(change, replacing: replaced)
        observers.publish(change)
        if store.needsCompaction, let compaction = try? beginCompaction() {
            // A failure leaves every change in the journal; the next one is tried later.
            Task { try? await finishCompaction(compaction) }
        }
    }
}
