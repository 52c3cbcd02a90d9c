public import Foundation

/// What can go wrong when a ``CardRepository`` reads or writes its file. Its cases and their
/// messages are those of ``StoreError``, which every repository in this module shares.
public typealias CardRepositoryError = StoreError<Card>

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

    /// Opens the store in `directory` (created if missing): takes the lock, and reads the file
    /// when there is one. A missing file is an empty store.
    ///
    /// - Throws: ``CardRepositoryError`` when another repository holds the folder, or the file
    ///   exists but cannot be read or decoded. It is never taken for an empty store, so no later
    ///   save can overwrite it.
    public init(directory: URL) throws {
        store = try SnapshotStore(
            directory: directory, file: Self.fileName, lock: Self.lockFileName)
        fileURL = store.fileURL
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
    /// Reads still answer from memory.
    public func close() {
        store.close()
    }

    /// Whether ``close()`` was called.
    var isClosed: Bool { store.isClosed }

    /// Applies `change` to a copy of the values, writes the copy to the file, and only then
    /// keeps it and publishes the change to `changes()`: when the write fails, the store keeps
    /// its previous contents.
    func commit(_ change: Change) throws {
        try store.commit(change)
        observers.publish(change)
    }
}
