public import Foundation

/// What can go wrong when a ``LabelRepository`` reads or writes its file.
public nonisolated enum LabelRepositoryError: Error, Equatable, CustomStringConvertible {
    /// The file exists but cannot be read.
    case unreadable(file: URL, reason: String)
    /// The file was read but does not hold a list of ``Label`` values, or its checksum does
    /// not match. It is left as it is.
    case corrupt(file: URL, offset: Int, reason: String)
    /// A file holds values that do not fit the current ``Label``: the model changed in a
    /// way stored data does not follow. When the file has a checksum, its bytes are intact
    /// (an older file without one may also be damaged). The file is left as it is; change the
    /// model so that it reads the values again.
    case incompatible(file: URL, reason: String)
    /// The file was written by a newer version of the app, with a schema this code does not know.
    case newerSchema(file: URL, found: Int, supported: Int)
    /// Another repository, in this process or another one, has the folder open.
    case locked(file: URL)
    /// The file cannot be written. The repository keeps the contents it had before the call.
    case unwritable(file: URL, reason: String)
    /// ``LabelRepository/close()`` was called; open a new repository to write again.
    case closed

    public var description: String {
        switch self {
        case .unreadable(let file, let reason):
            "cannot read \(file.path): \(reason)"
        case .corrupt(let file, _, let reason):
            "\(file.path) is damaged and was left untouched: \(reason)"
        case .incompatible(let file, let reason):
            "\(file.path) holds Label values that do not fit the current model and was left "
                + "untouched: \(reason). Do not delete the file: change the model so it reads "
                + "them again (a default, an optional field, --rename, --migrate)"
        case .newerSchema(let file, let found, let supported):
            "\(file.path) has schema version \(found), newer than \(supported); update the app"
        case .locked(let file):
            "\(file.path) is held by another LabelRepository; close that one first"
        case .unwritable(let file, let reason):
            "cannot write \(file.path): \(reason)"
        case .closed:
            "the LabelRepository was closed"
        }
    }
}

/// The shared file handling in `StoreFiles.swift` reports its failures in these cases.
extension LabelRepositoryError: StoreFiles.Failure {}

/// Stores ``Label`` values: in memory for fast reads, in one JSON file for durability.
///
/// An actor runs one call at a time, so concurrent saves cannot race on the values in memory
/// or the file. The API callers use (reading, writing, ``changes()``, ``shared(in:)``) is in
/// `LabelRepository+API.swift`, the same for every storage; this file decides how a change
/// reaches the disk. Reads come from memory; every change rewrites the whole file before the call
/// returns, by writing a new file and renaming it over the old one, so a crash leaves either
/// the old file or the new one, never a mix. Simple, but a save costs more as the store grows;
/// the journal store (`--storage journal`) does not.
///
/// The file, `labels.json`, holds `{"items":[…],"schemaVersion":N}`, then the line
/// `crc32 <8 hex digits>`: the CRC-32 of everything before that line, so a damaged byte is
/// found instead of read as a value. `labels.lock` holds an advisory lock while the
/// repository is open, so that a second repository cannot overwrite this one's saves.
public actor LabelRepository {
    /// The name of the file the repository keeps in its directory.
    public static let fileName = "labels.json"
    public static let lockFileName = "labels.lock"
    /// The schema version of the stored values. scaffold-repo keeps it in the manifest and
    /// raises it with each `--migrate`; do not edit it here. A file written by an earlier
    /// version is migrated when it opens; a higher version is refused instead of misread.
    public static let schemaVersion = 1

    /// The file that holds the stored values.
    public nonisolated let fileURL: URL

    /// The values, sorted by id, which `LabelRepository+API.swift` reads.
    var values: Values
    /// The open streams of `changes()`.
    var observers = Observers()
    /// The folder's lock, released by ``close()``.
    private var lock: StoreFiles.Lock?

    /// Opens the store in `directory` (created if missing): takes the lock, and reads the file
    /// when there is one. A missing file is an empty store.
    ///
    /// - Throws: ``LabelRepositoryError`` when another repository holds the folder, or the file
    ///   exists but cannot be read or decoded. It is never taken for an empty store, so no later
    ///   save can overwrite it.
    public init(directory: URL) throws {
        fileURL = directory.appendingPathComponent(Self.fileName)
        try StoreFiles.createFolder(directory, reporting: FileError.self)
        lock = try StoreFiles.Lock(
            directory.appendingPathComponent(Self.lockFileName), reporting: FileError.self)
        let file = try Self.readFile(fileURL)
        values = file.values
        // A file written before files had a checksum, or by an earlier schema version, is
        // rewritten now, when the folder can be written, and by the next save otherwise.
        if !file.isCurrent {
            try? Self.write(file.values, to: fileURL)
        }
    }

    /// Opens the store in ``defaultDirectory()``.
    public init() throws {
        try self.init(directory: Self.defaultDirectory())
    }

    /// The folder `MainActorByDefault` in the user's Application Support directory: in the app's
    /// container on Apple platforms, and `$XDG_DATA_HOME` or `~/.local/share` on Linux.
    public static func defaultDirectory() throws -> URL {
        try FileManager.default
            .url(
                for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil,
                create: true
            )
            .appendingPathComponent("MainActorByDefault", isDirectory: true)
    }

    /// Releases the folder's lock, and makes later writes throw ``LabelRepositoryError/closed``.
    /// Reads still answer from memory.
    public func close() {
        lock = nil
    }

    /// Applies `change` to a copy of the values, writes the copy to the file, and only then
    /// keeps it and publishes the change to `changes()`: when the write fails, the store keeps
    /// its previous contents.
    func commit(_ change: Change) throws {
        guard !isClosed else { throw LabelRepositoryError.closed }
        let changed = values.applying(change)
        try Self.write(changed, to: fileURL)
        values = changed
        observers.publish(change)
    }

    /// Whether ``close()`` was called.
    var isClosed: Bool { lock == nil }

    private typealias CRC32 = StoreFiles.CRC32
    /// The error type in which `StoreFiles` reports a file it cannot read or write.
    private typealias FileError = LabelRepositoryError

    private static func write(_ values: Values, to fileURL: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            let stored = StoredFile(schemaVersion: schemaVersion, items: values.items)
            let data = CRC32.sealed(try encoder.encode(stored))
            try FileManager.default.createDirectory(
                at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: fileURL, options: .atomic)
        } catch {
            throw LabelRepositoryError.unwritable(
                file: fileURL, reason: StoreFiles.systemReason(error))
        }
    }

    /// The file's values, migrated to the current schema version, and whether the file is
    /// current: written with a checksum, in this schema version.
    private static func readFile(
        _ file: URL
    ) throws -> (values: Values, isCurrent: Bool) {
        guard let data = try StoreFiles.readIfPresent(file, reporting: FileError.self) else {
            return (Values(), true)
        }
        let contents: CRC32.Contents
        do {
            contents = try CRC32.unsealed(data)
        } catch {
            throw LabelRepositoryError.corrupt(file: file, offset: 0, reason: "\(error)")
        }
        let stored: StoredFile
        do {
            stored = try JSONDecoder().decode(StoredFile.self, from: contents.json)
        } catch let newer as NewerSchema {
            throw LabelRepositoryError.newerSchema(
                file: file, found: newer.found, supported: schemaVersion)
        } catch {
            // Intact bytes (the checksum matched) that do not decode do not fit the model; so
            // do values of the wrong type or with keys missing in a file without a checksum.
            if !contents.isChecked, case DecodingError.dataCorrupted = error {
                throw LabelRepositoryError.corrupt(file: file, offset: 0, reason: "\(error)")
            }
            throw LabelRepositoryError.incompatible(file: file, reason: "\(error)")
        }
        do {
            let values = try Values(stored.items)
            return (values, contents.isChecked && stored.schemaVersion == schemaVersion)
        } catch {
            throw LabelRepositoryError.corrupt(file: file, offset: 0, reason: "\(error)")
        }
    }

    /// The file's layout. A bare array is a file from before the schema version was stored:
    /// version 1.
    private nonisolated struct StoredFile: Codable {
        var schemaVersion: Int
        var items: [Label]

        init(schemaVersion: Int, items: [Label]) {
            self.schemaVersion = schemaVersion
            self.items = items
        }

        init(from decoder: any Decoder) throws {
            guard let container = try? decoder.container(keyedBy: CodingKeys.self) else {
                schemaVersion = 1
                items = try [Label](from: decoder)
                return
            }
            schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
            guard schemaVersion <= LabelRepository.schemaVersion else {
                throw NewerSchema(found: schemaVersion)
            }
            items = try container.decode([Label].self, forKey: .items)
        }
    }

    private nonisolated struct NewerSchema: Error {
        let found: Int
    }
}
