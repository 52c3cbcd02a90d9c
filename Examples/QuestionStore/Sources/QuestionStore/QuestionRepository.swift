public import Foundation

/// What can go wrong when a ``QuestionRepository`` opens, reads or writes its files.
public nonisolated enum QuestionRepositoryError: Error, Equatable, CustomStringConvertible {
    /// A file exists but cannot be read.
    case unreadable(file: URL, reason: String)
    /// A file holds something other than what the repository wrote, starting at byte `offset`.
    /// The file is left exactly as it is.
    case corrupt(file: URL, offset: Int, reason: String)
    /// A file holds values that do not fit the current ``Question``: the model changed in a
    /// way stored data does not follow. When the file has a checksum, its bytes are intact
    /// (an older file without one may also be damaged). The file is left as it is; change the
    /// model so that it reads the values again.
    case incompatible(file: URL, reason: String)
    /// The snapshot was written by a newer version of the app, with a schema this code does not know.
    case newerSchema(file: URL, found: Int, supported: Int)
    /// Another repository, in this process or another one, has the folder open for writing.
    case locked(file: URL)
    /// A file cannot be written. The repository keeps the contents it had before the call.
    case unwritable(file: URL, reason: String)
    /// ``QuestionRepository/close()`` was called; open a new repository to write again.
    case closed

    public var description: String {
        switch self {
        case .unreadable(let file, let reason):
            "cannot read \(file.path): \(reason)"
        case .corrupt(let file, let offset, let reason):
            "\(file.path) is damaged at byte \(offset) and was left untouched: \(reason)"
        case .incompatible(let file, let reason):
            "\(file.path) holds Question values that do not fit the current model and was left "
                + "untouched: \(reason). Do not delete the file: change the model so it reads "
                + "them again (a default, an optional field, --rename, --migrate)"
        case .newerSchema(let file, let found, let supported):
            "\(file.path) has schema version \(found), newer than \(supported); update the app"
        case .locked(let file):
            "\(file.path) is held by another QuestionRepository; close that one first"
        case .unwritable(let file, let reason):
            "cannot write \(file.path): \(reason)"
        case .closed:
            "the QuestionRepository was closed"
        }
    }
}

/// The shared file handling in `StoreFiles.swift` reports its failures in these cases.
extension QuestionRepositoryError: StoreFiles.Failure {}

/// Stores ``Question`` values: in memory for fast reads, on disk in a snapshot and a journal.
///
/// An actor runs one call at a time, so concurrent saves cannot race on the values in memory
/// or the files. The API callers use (reading, writing, ``changes()``, ``shared(in:)``) is in
/// `QuestionRepository+API.swift`, the same for every storage; this file decides how a change
/// reaches the disk. Reads come from memory. Every change is appended to the journal as one record
/// and synced to disk before the call returns, so a save costs the same in a store of 100
/// values as in one of 100,000. When the journal would grow past the snapshot (and past
/// ``compactionFloor``), the whole store is written as a new snapshot instead, and the journal
/// is emptied.
///
/// On disk, in ``directory``:
/// - `questions.snapshot.json`: `{"items":[…],"schemaVersion":N}` on one line, then the line
///   `crc32 <8 hex digits>`, the CRC-32 of the first line, so a damaged byte is found instead
///   of read as a value. Replaced atomically: written to `questions.snapshot.json.tmp`, synced,
///   renamed, and the folder synced; a temporary file that a failed write or a crash left is
///   removed, and never read.
/// - `questions.journal`: one line per change, `<JSON record> <CRC-32 in hex>`. Opening replays
///   it over the snapshot. A last line without its newline is a write cut short by a crash:
///   the call that wrote it never returned, so it is dropped. Any other damage throws
///   ``QuestionRepositoryError/corrupt(file:offset:reason:)`` and the file is left untouched.
/// - `questions.lock`: holds an advisory lock while the repository is open, so a second
///   repository cannot interleave its writes with this one's.
public actor QuestionRepository {
    /// The schema version of the stored values. scaffold-repo keeps it in the manifest and
    /// raises it with each `--migrate`; do not edit it here. Stores written by an earlier
    /// version are migrated when they open; a higher version is refused instead of misread.
    public static let schemaVersion = 1
    public static let snapshotFileName = "questions.snapshot.json"
    public static let journalFileName = "questions.journal"
    public static let lockFileName = "questions.lock"
    /// The journal may grow to the snapshot's size or to this many bytes, whichever is larger,
    /// before the store is compacted into a new snapshot.
    public static let compactionFloor = 64 * 1024

    /// The folder that holds the repository's files.
    public nonisolated let directory: URL
    public nonisolated var snapshotURL: URL {
        directory.appendingPathComponent(Self.snapshotFileName)
    }
    public nonisolated var journalURL: URL {
        directory.appendingPathComponent(Self.journalFileName)
    }

    /// The values, sorted by id, which `QuestionRepository+API.swift` reads.
    var values: Values
    /// The open streams of `changes()`.
    var observers = Observers()
    private var files: StoreFiles.Journal<FileError>?
    private var snapshotSize: Int
    private var journalSize: Int
    /// False after an append failed: the journal may end in part of a record, so the next
    /// write replaces the snapshot and empties the journal rather than append after it.
    private var journalIsSound = true
    /// Which snapshot the journal's records follow. Each snapshot gets the next number and each
    /// record carries the current one, so records that an older snapshot left in the journal
    /// (a crash, or a failed truncation, after a compaction) are skipped, not replayed over
    /// newer values.
    private var generation: Int

    /// Opens the store in `directory` (created if missing): takes the lock, reads the snapshot,
    /// replays the journal. Missing files are an empty store.
    ///
    /// - Throws: ``QuestionRepositoryError`` when another repository holds the folder, or a file
    ///   cannot be read or is damaged. Damaged files are never taken for an empty store, so no
    ///   later save can overwrite them.
    public init(directory: URL) throws {
        self.directory = directory
        let files = try StoreFiles.Journal<FileError>(
            directory: directory, snapshot: Self.snapshotFileName, journal: Self.journalFileName,
            lock: Self.lockFileName)
        let snapshot = try Self.readSnapshot(files.snapshotURL)
        var values = snapshot.values
        var replayed = try Self.replayJournal(
            files.journalURL, into: &values, generation: snapshot.generation)
        var snapshotSize = snapshot.size
        var generation = snapshot.generation
        // A snapshot written before snapshots had a checksum, or by an earlier schema version,
        // is rewritten now, when the folder can be written, and by the next compaction
        // otherwise (journal records say their version, so replaying them needs no rewrite).
        if !snapshot.isCurrent,
            let data = try? Self.snapshotData(of: values, generation: generation + 1),
            let folderSynced = try? files.replaceSnapshot(with: data)
        {
            snapshotSize = data.count
            generation += 1
            if folderSynced, (try? files.truncate(to: 0)) != nil { replayed.validSize = 0 }
        }
        if replayed.validSize < replayed.fileSize {
            try files.truncate(to: replayed.validSize)
        }
        self.values = values
        self.files = files
        self.snapshotSize = snapshotSize
        self.journalSize = replayed.validSize
        self.generation = generation
    }

    /// Opens the store in ``defaultDirectory()``.
    public init() throws {
        try self.init(directory: Self.defaultDirectory())
    }

    /// The folder `QuestionStore` in the user's Application Support directory: in the app's
    /// container on Apple platforms, and `$XDG_DATA_HOME` or `~/.local/share` on Linux.
    public static func defaultDirectory() throws -> URL {
        try FileManager.default
            .url(
                for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil,
                create: true
            )
            .appendingPathComponent("QuestionStore", isDirectory: true)
    }

    /// Writes every value to a new snapshot and empties the journal. Writes do this by
    /// themselves when the journal grows too long; call it to do it now.
    public func compact() throws {
        try writeSnapshot(of: values)
    }

    /// Releases the folder's lock and files. Reads still answer from memory; writes throw
    /// ``QuestionRepositoryError/closed``.
    public func close() {
        files = nil
    }

    /// Whether ``close()`` was called.
    var isClosed: Bool { files == nil }

    /// Appends `change` to the journal as one record, applies it, and publishes it to
    /// `changes()`. Writes a snapshot of the changed store instead when the journal would
    /// outgrow the snapshot, or when the change saves at least as many values as the store
    /// holds (encoding them costs about as much as the snapshot). Either way the change is on
    /// disk before memory, or any observer, shows it.
    func commit(_ change: Change) throws {
        guard let files else { throw QuestionRepositoryError.closed }
        let record = JournalRecord(change, generation: generation)
        var isLargeBatch = false
        if case .saved(let saved) = change { isLargeBatch = saved.count >= values.count }
        // Encoding a large batch as a record would cost as much as the snapshot it becomes.
        let line = isLargeBatch || !journalIsSound ? nil : try record.encodedLine()
        if let line, journalSize + line.count <= max(snapshotSize, Self.compactionFloor) {
            do {
                try files.append(line, at: journalSize)
            } catch {
                // A failed append may have left part of its record behind; the next write
                // starts a new snapshot and an empty journal instead of appending after it.
                journalIsSound = false
                throw error
            }
            journalSize += line.count
            values.apply(change)  // In place: a copy would cost O(n) per save.
        } else {
            let folderSynced = try writeSnapshot(of: values.applying(change))
            // The rename may not survive a crash: the change goes in the journal too, under the
            // older generation, which the new snapshot skips and the old one replays.
            if !folderSynced, journalIsSound, let line = line ?? (try? record.encodedLine()),
                (try? files.append(line, at: journalSize)) != nil
            {
                journalSize += line.count
            }
        }
        observers.publish(change)
    }

    /// Replaces the snapshot with `values` and keeps them, then empties the journal. A crash in
    /// between leaves the new snapshot and the old journal, whose records belong to the older
    /// generation and are skipped when the store opens, so nothing is lost or applied twice.
    @discardableResult
    private func writeSnapshot(of values: Values) throws -> Bool {
        guard let files else { throw QuestionRepositoryError.closed }
        let data: Data
        do {
            data = try Self.snapshotData(of: values, generation: generation + 1)
        } catch {
            throw QuestionRepositoryError.unwritable(file: snapshotURL, reason: "\(error)")
        }
        let folderSynced = try files.replaceSnapshot(with: data)
        self.values = values
        snapshotSize = data.count
        generation += 1
        // The new snapshot is in place. The journal's records are of the older generation now:
        // skipped when the store opens, so a failure to empty it loses nothing. It is kept when
        // the folder could not be synced, in case the rename itself does not survive a crash.
        if folderSynced, (try? files.truncate(to: 0)) != nil {
            journalSize = 0
            journalIsSound = true
        }
        return folderSynced
    }

    // MARK: - Loading

    private typealias CRC32 = StoreFiles.CRC32
    /// The error type in which `StoreFiles` reports a file it cannot read or write.
    private typealias FileError = QuestionRepositoryError

    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    /// The snapshot file's bytes for `values`: the JSON line, then its checksum line.
    private static func snapshotData(of values: Values, generation: Int) throws -> Data {
        let snapshot = SnapshotFile(
            schemaVersion: schemaVersion, generation: generation, items: values.items)
        return CRC32.sealed(try encoder().encode(snapshot))
    }

    /// The snapshot's values (migrated to the current schema version) and size, and whether it
    /// is current: written with a checksum, in this schema version. One that is not is read
    /// once, so that it can be rewritten.
    private static func readSnapshot(
        _ file: URL
    ) throws -> (values: Values, size: Int, isCurrent: Bool, generation: Int) {
        guard let data = try StoreFiles.readIfPresent(file, reporting: FileError.self) else {
            return (Values(), 0, true, 0)
        }
        let contents: CRC32.Contents
        do {
            contents = try CRC32.unsealed(data)
        } catch {
            throw QuestionRepositoryError.corrupt(file: file, offset: 0, reason: "\(error)")
        }
        let snapshot: SnapshotFile
        do {
            snapshot = try JSONDecoder().decode(SnapshotFile.self, from: contents.json)
        } catch let newer as NewerSchema {
            throw QuestionRepositoryError.newerSchema(
                file: file, found: newer.found, supported: schemaVersion)
        } catch {
            throw misfit(error, file: file, isChecked: contents.isChecked)
        }
        let values: Values
        do {
            values = try Values(snapshot.items)
        } catch {
            throw QuestionRepositoryError.corrupt(file: file, offset: 0, reason: "\(error)")
        }
        return (
            values, data.count, contents.isChecked && snapshot.schemaVersion == schemaVersion,
            snapshot.generation ?? 0
        )
    }

    /// Applies the journal's records of `generation` (the snapshot's) to `values`, skipping
    /// older ones, which the snapshot already holds; returns how many bytes are whole records.
    private static func replayJournal(
        _ file: URL, into values: inout Values, generation: Int
    ) throws -> (validSize: Int, fileSize: Int) {
        guard let data = try StoreFiles.readIfPresent(file, reporting: FileError.self) else {
            return (0, 0)
        }
        let decoder = JSONDecoder()
        var changes: [Change] = []
        var offset = data.startIndex
        while let newline = data[offset...].firstIndex(of: UInt8(ascii: "\n")) {
            let position = offset - data.startIndex
            let line = data[offset..<newline]
            let damaged = { (reason: String) in
                QuestionRepositoryError.corrupt(file: file, offset: position, reason: reason)
            }
            guard let space = line.lastIndex(of: UInt8(ascii: " ")),
                let checksum = CRC32.parse(line[(space + 1)...])
            else { throw damaged("no checksum") }
            let payload = line[..<space]
            guard CRC32.checksum(payload) == checksum else { throw damaged("wrong checksum") }
            do {
                let record = try decoder.decode(JournalRecord.self, from: payload)
                if record.generation ?? 0 >= generation { changes += record.changes }
            } catch let newer as NewerSchema {
                throw QuestionRepositoryError.newerSchema(
                    file: file, found: newer.found, supported: schemaVersion)
            } catch {
                throw QuestionRepositoryError.incompatible(
                    file: file, reason: "the record at byte \(position): \(error)")
            }
            offset = newline + 1
        }
        values.apply(contentsOf: changes)
        // What follows the last newline is a record whose append was cut short: it is dropped.
        // Unless it is a whole record whose newline was damaged: a cut-short append cannot end
        // in anything but a prefix of its line.
        let body = data[offset...].dropLast()
        if let space = body.lastIndex(of: UInt8(ascii: " ")), body.endIndex - space == 9,
            let checksum = CRC32.parse(body[(space + 1)...]),
            CRC32.checksum(body[..<space]) == checksum
        {
            throw QuestionRepositoryError.corrupt(
                file: file, offset: offset - data.startIndex, reason: "damaged line end")
        }
        return (offset - data.startIndex, data.count)
    }

    /// The error for JSON that did not decode. A file whose checksum matched is intact, so its
    /// values do not fit the model; so do values of the wrong type or with keys missing in an
    /// older file without a checksum, whose broken JSON is damage.
    private static func misfit(
        _ error: any Error, file: URL, isChecked: Bool
    ) -> QuestionRepositoryError {
        if !isChecked, case DecodingError.dataCorrupted = error {
            return .corrupt(file: file, offset: 0, reason: "\(error)")
        }
        return .incompatible(file: file, reason: "\(error)")
    }

    // MARK: - File formats

    /// The snapshot file. Its schema version is decoded first, so a newer layout is refused
    /// before its values are misread.
    private nonisolated struct SnapshotFile: Codable {
        var schemaVersion: Int
        /// Absent in snapshots written before generations: 0.
        var generation: Int?
        var items: [Question]

        init(schemaVersion: Int, generation: Int, items: [Question]) {
            self.schemaVersion = schemaVersion
            self.generation = generation
            self.items = items
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
            guard schemaVersion <= QuestionRepository.schemaVersion else {
                throw NewerSchema(found: schemaVersion)
            }
            generation = try container.decodeIfPresent(Int.self, forKey: .generation)
            items = try container.decode([Question].self, forKey: .items)
        }
    }

    private nonisolated struct NewerSchema: Error {
        let found: Int
    }

    /// One change in the journal: values saved, ids deleted, or everything removed.
    /// The schema version is in every record, so a record an earlier version wrote is
    /// migrated when it is replayed (say, after a crash between a new snapshot and emptying
    /// the journal).
    private nonisolated struct JournalRecord: Codable {
        var version: Int?
        /// The generation of the snapshot this record follows; absent in older records: 0.
        var generation: Int?
        var save: [Question]?
        var delete: [String]?
        var removeAll: Bool?

        init(_ change: Change, generation: Int) {
            self.version = QuestionRepository.schemaVersion
            self.generation = generation
            switch change {
            case .saved(let values): save = values
            case .deleted(let ids): delete = ids
            case .removedAll: removeAll = true
            }
        }

        /// A record without a version was written before records had one: version 1.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            version = try container.decodeIfPresent(Int.self, forKey: .version)
            generation = try container.decodeIfPresent(Int.self, forKey: .generation)
            let stored = version ?? 1
            guard stored <= QuestionRepository.schemaVersion else {
                throw NewerSchema(found: stored)
            }
            save = try container.decodeIfPresent([Question].self, forKey: .save)
            delete = try container.decodeIfPresent([String].self, forKey: .delete)
            removeAll = try container.decodeIfPresent(Bool.self, forKey: .removeAll)
        }

        /// What the record changes, in the order it applies them. A record written by this
        /// code holds one change.
        var changes: [Change] {
            (removeAll == true ? [.removedAll] : [])
                + (delete.map { [.deleted($0)] } ?? []) + (save.map { [.saved($0)] } ?? [])
        }

        /// `<JSON> <CRC-32 of the JSON, 8 hex digits>\n`; the JSON has no newline in it.
        func encodedLine() throws -> Data {
            var line = try QuestionRepository.encoder().encode(self)
            line.append(contentsOf: Array(" \(CRC32.format(CRC32.checksum(line)))\n".utf8))
            return line
        }
    }
}
