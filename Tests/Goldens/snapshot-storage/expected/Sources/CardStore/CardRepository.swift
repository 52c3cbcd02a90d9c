public import Foundation

/// What can go wrong when a ``CardRepository`` opens, reads or writes its files.
public nonisolated enum CardRepositoryError: Error, Equatable, CustomStringConvertible {
    /// A file exists but cannot be read.
    case unreadable(file: URL, reason: String)
    /// The file was read but does not hold a list of ``Card`` values, or its checksum does
    /// not match. It is left as it is.
    case corrupt(file: URL, offset: Int, reason: String)
    /// A file holds values that do not fit the current ``Card``: the model changed in a
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
    /// ``CardRepository/close()`` was called; open a new repository to write again.
    case closed
    /// ``CardRepository/suspend()`` released the folder's lock, and
    /// ``CardRepository/resume()`` has not taken it again: reads answer from memory, writes
    /// throw this.
    case suspended

    public var description: String {
        switch self {
        case .unreadable(let file, let reason):
            "cannot read \(file.path): \(reason)"
        case .corrupt(let file, _, let reason):
            "\(file.path) is damaged and was left untouched: \(reason)"
        case .incompatible(let file, let reason):
            "\(file.path) holds Card values that do not fit the current model and was left "
                + "untouched: \(reason). Do not delete the file: change the model so it reads "
                + "them again (a default, an optional field, --rename, --migrate), or, when a "
                + "newer build of the app wrote them (an extension not updated yet), update this "
                + "build"
        case .newerSchema(let file, let found, let supported):
            "\(file.path) has schema version \(found), newer than \(supported); update the app"
        case .notMigrated(let file, let field, let migration, let reason):
            // `migration` is `#fileID`: `Module/File.swift`.
            "\(file.path) holds Card values of an earlier schema version and was left "
                + "untouched: \(field) \(reason) in \(migration.split(separator: "/").last ?? "") "
                + "(module \(migration.split(separator: "/").first ?? "")). Edit that migration so "
                + "it gives \(field) a value for every stored Card"
        case .locked(let file):
            "\(file.path) is held by another CardRepository; close that one first"
        case .unwritable(let file, let reason):
            "cannot write \(file.path): \(reason)"
        case .closed:
            "the CardRepository was closed"
        case .suspended:
            "the CardRepository is suspended; call resume() first"
        }
    }
}

/// The shared file handling in `StoreFiles.swift` reports its failures in these cases.
nonisolated extension CardRepositoryError: StoreFiles.Failure {}

/// Stores ``Card`` values: in memory for fast reads, in one JSON file for durability.
///
/// An actor runs one call at a time, so concurrent saves cannot race on the values in memory
/// or the file. The API callers use (reading, writing, ``changes()``, ``shared(in:)``) is in
/// `CardRepository+API.swift`; how values reach the disk is in `SnapshotStore.swift`, which
/// every snapshot repository in this module shares. Reads come from memory; every change
/// rewrites the whole file before the call returns, by writing a new file and renaming it over
/// the old one, so a crash leaves either the old file or the new one, never a mix. Simple, but
/// a save costs more as the store grows; the journal store (`--storage journal`) does not.
///
/// The file, `cards.json`, ends in a CRC-32 of its values, so a damaged byte throws
/// ``CardRepositoryError/corrupt(file:offset:reason:)`` instead of being read as a value.
/// `cards.lock` holds an advisory lock while the repository is open, so that a second
/// repository cannot overwrite this one's saves.
public actor CardRepository {
    /// The name of the file the repository keeps in its directory.
    public static let fileName = "cards.json"
    public static let lockFileName = "cards.lock"
    /// The schema version of the stored values. scaffold-repo keeps it in the manifest and
    /// raises it with each `--migrate`; do not edit it here. A file written by an earlier
    /// version is migrated when it opens; a higher version is refused instead of misread.
    public static let schemaVersion = 1

    /// The file that holds the stored values.
    public nonisolated let fileURL: URL

    /// The values in memory and their file: `SnapshotStore.swift`, which every snapshot
    /// repository in this module shares.
    private var store: SnapshotStore<Card, CardRepositoryError>
    /// The values, sorted by id, which `CardRepository+API.swift` reads.
    var values: StoredValues<Card> { store.values }
    /// The open streams of `changes()`.
    var observers = Observers<Card>()
    /// Whether a task refreshes this reader (``init(readingFrom:)``) while ``changes()`` has a
    /// reader.
    var followsWriter = false
    /// How often, in nanoseconds, an observed reader (``init(readingFrom:)``) reads what the
    /// writer committed: a change reaches its ``changes()`` within about this long.
    public static let otherProcessesInterval: UInt64 = 100_000_000
    /// Whether this repository was opened with ``init(readingFrom:)``.
    var isReader: Bool { store.isReadOnly }

    /// Opens the store in `directory` (created if missing): takes the lock, and reads the file
    /// when there is one. A missing file is an empty store.
    ///
    /// - Throws: ``CardRepositoryError`` when another repository holds the folder, or the file
    ///   exists but cannot be read or decoded. It is never taken for an empty store, so no later
    ///   save can overwrite it.
    ///   `unreadable` also when a newer build of the app moved Card to another storage
    ///   (its files are there as `<name>.imported`, or `.importing`): this build would see
    ///   none of it.
    public init(directory: URL) throws {
        // A newer build of the app that moved Card to another storage left these files as
        // `<name>.imported` (`.importing` while it imports): this build would see none of the
        // values, and what it saved there would be imported over the newer build's.
        try StoreFiles.checkNotMovedAway(
            [Self.fileName], in: directory, reporting: CardRepositoryError.self)
        store = try SnapshotStore(
            directory: directory, file: Self.fileName, lock: Self.lockFileName)
        fileURL = store.fileURL
        // Again under the folder's lock: the newer build may have imported it meanwhile.
        try StoreFiles.checkNotMovedAway(
            [Self.fileName], in: directory, reporting: CardRepositoryError.self)
    }

    /// A repository that keeps `values` in memory only, for SwiftUI previews and an app's own
    /// tests: the same API, and `changes()` and view-models work with it, but nothing touches
    /// the disk (no folder, lock or file; its `fileURL` is `/dev/null`), and its changes are gone
    /// with it.
    public nonisolated static func inMemory(_ values: [Card] = []) -> CardRepository {
        CardRepository(inMemory: values)
    }

    private init(inMemory values: [Card]) {
        store = SnapshotStore(inMemory: values)
        fileURL = store.fileURL
    }

    /// Opens the store in `directory` for reading only, for an app's widget or extension while
    /// the app writes there: it takes no lock and writes nothing, so the app's repository is
    /// never locked out, and it reads one consistent state of the files. Call ``refresh()`` to
    /// read what the app committed since. Writes throw
    /// ``CardRepositoryError/unwritable(file:reason:)``. Missing files are an empty store.
    ///
    /// - Throws: ``CardRepositoryError`` when a file cannot be read or is damaged.
    ///   `unreadable` also when a newer build of the app moved Card to another storage
    ///   (its files are there as `<name>.imported`, or `.importing`): this build would see
    ///   none of it.
    public init(readingFrom directory: URL) throws {
        try StoreFiles.checkNotMovedAway(
            [Self.fileName], in: directory, reporting: CardRepositoryError.self)
        store = try SnapshotStore(readingFrom: directory, file: Self.fileName)
        fileURL = store.fileURL
    }

    /// Takes back the store in `directory` that ``init(directory:)`` refuses as damaged
    /// (``CardRepositoryError/corrupt(file:offset:reason:)``), so that it opens again: call it
    /// with no repository open on the folder, then open one. The file's checksum covers the
    /// whole file: one flipped bit is put back from it (``StoreRecovery/repaired``); otherwise
    /// the values that still decode are kept as read, and one of them may hold the damaged byte
    /// (``StoreRecovery/keptUnverified``); only the values whose bytes do not decode are set
    /// aside (the whole file when its schema version reads newer than the model's, and the
    /// store is then empty). Either way the file is first copied beside itself as it was
    /// (`<name>.damaged`), and never removed. A sound store is left as it is.
    ///
    /// - Returns: what was kept and set aside, and where the copy is.
    /// - Throws: ``CardRepositoryError`` when a repository has the folder open (`locked`), the
    ///   file cannot be read or written, or intact values do not fit the model
    ///   (`incompatible`, `newerSchema`, `notMigrated`), which recovering does not change;
    ///   `newerSchema` also for a damaged file of a newer build, whose values it would
    ///   otherwise set aside.
    public nonisolated static func recover(directory: URL) throws -> StoreRecovery {
        try StoreFiles.checkNotMovedAway(
            [fileName], in: directory, reporting: CardRepositoryError.self)
        return try SnapshotStore<Card, CardRepositoryError>.recover(
            directory: directory, file: fileName, lock: lockFileName)
    }

    /// Opens the store in ``defaultDirectory()``.
    public init() throws {
        try self.init(directory: Self.defaultDirectory())
    }

    /// The folder `CardStore` in the user's Application Support directory: in the app's
    /// container on Apple platforms, and `$XDG_DATA_HOME` or `~/.local/share` on Linux.
    public static func defaultDirectory() throws -> URL {
        try FileManager.default
            .url(
                for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil,
                create: true
            )
            .appendingPathComponent("CardStore", isDirectory: true)
    }

    /// Releases the folder's lock, and makes later writes throw ``CardRepositoryError/closed``.
    /// Reads still answer from memory. (`async`, as in every storage: the journal's waits for
    /// a compaction to stop.)
    public func close() async {
        store.close()
    }

    /// Whether ``close()`` was called.
    var isClosed: Bool { store.isClosed }

    /// The folder `CardStore` in the App Group container `group` (`group.com.example.shared`),
    /// which an app shares with its widgets and extensions: the app writes there, and they read
    /// with ``init(readingFrom:)``. On Apple platforms every target that opens it needs the App
    /// Groups capability with `group`; on Linux, which has no App Groups, it is the folder
    /// `group/CardStore` in ``defaultDirectory()``'s parent.
    ///
    /// - Throws: ``CardRepositoryError/unreadable(file:reason:)`` when the target does not
    ///   have the App Group.
    public static func defaultDirectory(appGroup group: String) throws -> URL {
        try StoreFiles.appGroupFolder(group, reporting: CardRepositoryError.self)
            .appendingPathComponent("CardStore", isDirectory: true)
    }

    /// Releases the folder's lock and files until ``resume()``, so that iOS can suspend an app
    /// whose store is in an App Group container (it ends an app that holds a file lock there
    /// while suspended: `0xdead10cc`). Call it when the scene goes to the background. Reads
    /// still answer from memory; writes throw ``CardRepositoryError/suspended``. A repository
    /// in memory, a reader and a closed repository stay as they are. It returns once the lock
    /// is released (a compaction under way is stopped first).
    public func suspend() async {
        store.suspend()
    }

    /// Takes the folder's lock again after ``suspend()``. When another repository wrote the
    /// folder meanwhile, the files are read again and what differs is published to
    /// ``changes()``. Nothing happens when the repository is not suspended.
    ///
    /// - Throws: ``CardRepositoryError/locked(file:)`` while another repository holds the
    ///   folder (this one stays suspended; call it again later), or what reading throws.
    public func resume() throws {
        publish(try store.resume())
    }

    /// For a repository opened with ``init(readingFrom:)``: reads what the writer committed
    /// since the last read, applies it, and publishes it to ``changes()`` (and so to
    /// view-models). Call it when the widget or extension wakes, or on a timer; nothing happens
    /// for a repository that writes, which has every change already.
    ///
    /// - Throws: ``CardRepositoryError`` when a file cannot be read or is damaged; the values
    ///   read before stay.
    public func refresh() throws {
        publish(try store.refresh())
    }

    /// Publishes changes read from the files, which the indexes were not told of one by one.
    private func publish(_ changes: [Change]) {
        guard !changes.isEmpty else { return }
        for change in changes { observers.publish(change) }
    }

    /// Applies `change` to a copy of the values, writes the copy to the file, and only then
    /// keeps it and publishes the change to `changes()`: when the write fails, the store keeps
    /// its previous contents.
    func commit(_ change: Change) throws {
        try store.commit(change)
        observers.publish(change)
    }
}
