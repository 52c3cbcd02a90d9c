internal import Foundation

/// The values of one repository, in memory and on disk in one JSON file. Each snapshot
/// repository in this module keeps one and tells it of each change; the errors it throws are
/// the repository's own.
///
/// Reads come from memory; every change rewrites the whole file before the call returns, by
/// writing a new file and renaming it over the old one, so a crash leaves either the old file
/// or the new one, never a mix. Simple, but a save costs more as the store grows; the journal
/// store (`--storage journal`) does not.
///
/// The file holds `{"fields":[…],"items":[…],"schemaVersion":N}`, then the line
/// `crc32 <8 hex digits>`: the CRC-32 of everything before that line, so a damaged byte is
/// found instead of read as a value. `fields` lists the model's known keys; a file written with
/// a newer build's fields kept (``StoredValues/unknownMembers``) has none, and is written on
/// one line. The lock file holds an advisory lock while the store is open, so that a second
/// repository cannot overwrite this one's saves.
///
/// scaffold-repo writes one copy of this file per module that has a snapshot repository, and
/// `scaffold-repo destroy` removes it with the last of them.
nonisolated struct SnapshotStore<Value: StoredValue, Failure: StoreFiles.Failure> {
    /// The values, sorted by id.
    private(set) var values: StoredValues<Value>
    /// The file that holds the stored values.
    let fileURL: URL
    /// The folder's lock, released by ``close()``.
    private var lock: StoreFiles.Lock?
    /// False for a store in memory only (``init(inMemory:)``), which writes no file.
    private let isOnDisk: Bool
    /// False after ``close()``.
    private var isOpen = true
    /// For a store opened with ``init(readingFrom:file:)``: the stamp of the file it read last.
    private var readStamp: StoreFiles.Stamp??
    /// The lock file, and the file's stamp, when ``suspend()`` released the lock.
    private var suspension: (lock: URL, file: StoreFiles.Stamp?)?
    private var lockURL: URL?

    /// Opens the store in `directory` (created if missing): takes the lock, and reads the file
    /// when there is one. A missing file is an empty store; one that exists but cannot be read
    /// or decoded throws, and is never taken for an empty store, so no later save can overwrite
    /// it.
    init(directory: URL, file: String, lock lockName: String) throws {
        isOnDisk = true
        fileURL = directory.appendingPathComponent(file)
        try StoreFiles.createFolder(directory, reporting: Failure.self)
        lockURL = directory.appendingPathComponent(lockName)
        lock = try StoreFiles.Lock(
            directory.appendingPathComponent(lockName), reporting: Failure.self)
        // What a save cut short by a crash left: the file it would have replaced is whole.
        try? FileManager.default.removeItem(at: fileURL.appendingPathExtension("tmp"))
        let file = try Self.readFile(fileURL)
        values = file.values
        // A file written before files had a checksum, or by an earlier schema version, is
        // rewritten now, when the folder can be written, and by the next save otherwise.
        if !file.isCurrent {
            try? Self.write(file.values, to: fileURL)
        }
    }

    /// A store that keeps `values` in memory only, for previews and an app's tests: it has no
    /// folder, lock or file (its `fileURL` is `/dev/null`), and its changes are gone when it is.
    init(inMemory values: [Value]) {
        var stored = StoredValues<Value>()
        stored.apply(.saved(values))
        self.values = stored
        fileURL = URL(fileURLWithPath: "/dev/null")
        isOnDisk = false
    }

    /// Opens the store in `directory` for reading only, as an app's widget or extension does
    /// while the app writes: it takes no lock and writes no file, so the writer is never locked
    /// out. The writer replaces the file by a rename, so it reads one whole state; ``refresh()``
    /// reads it again when it changed. A missing file is an empty store.
    init(readingFrom directory: URL, file: String) throws {
        isOnDisk = false
        fileURL = directory.appendingPathComponent(file)
        let stamp = StoreFiles.Stamp(fileURL)
        values = try Self.readFile(fileURL, isReading: true).values
        readStamp = .some(stamp)
    }

    /// Moves the values a snapshot store (its `file`) left in `directory` into the store `save`
    /// writes to, once, for a model that moved to another storage, or, with `leftoversOnly`,
    /// takes back this store's own file that a crash left half moved:
    /// ``StoreFiles/importFormerStore(files:in:lock:leftoversOnly:reporting:read:save:)``
    /// with ``storedValues(in:file:)`` as its reader.
    @discardableResult
    static func importStore(
        file: String, in directory: URL, lock: String?, leftoversOnly: Bool = false,
        into save: ([Value]) throws -> Void
    ) throws -> Bool {
        try StoreFiles.importFormerStore(
            files: [file], in: directory, lock: lock, leftoversOnly: leftoversOnly,
            reporting: Failure.self, read: { try storedValues(in: directory, file: $0[0]) },
            save: save)
    }

    /// The values a snapshot store left in `directory`'s `file`.
    static func storedValues(in directory: URL, file: String) throws -> [Value] {
        try readFile(directory.appendingPathComponent(file), isReading: true).values.items
    }

    /// Whether the store was opened with ``init(readingFrom:file:)``.
    var isReadOnly: Bool { readStamp != nil }

    /// For a store opened with ``init(readingFrom:file:)``: reads the file again when the writer
    /// replaced it, and returns what differs as changes. Nothing for the writer.
    mutating func refresh() throws -> [StoreChange<Value>] {
        guard isOpen else { throw Failure.closed }
        guard let stamp = readStamp, case let now = StoreFiles.Stamp(fileURL), now != stamp
        else { return [] }
        let old = values
        values = try Self.readFile(fileURL, isReading: true).values
        readStamp = .some(now)
        return old.changes(to: values)
    }

    /// Whether ``close()`` was called.
    var isClosed: Bool { !isOpen }

    /// Whether ``suspend()`` released the lock, and no ``resume()`` took it again.
    var isSuspended: Bool { suspension != nil }

    /// Releases the folder's lock until ``resume()``: iOS ends an app that is suspended while
    /// it holds a lock on a file in a shared container (`0xdead10cc`). Reads still answer from
    /// memory; writes throw `suspended`. A store in memory, a reader and a closed store stay as
    /// they are.
    mutating func suspend() {
        guard isOpen, lock != nil, let lockURL else { return }
        suspension = (lockURL, StoreFiles.Stamp(fileURL))
        lock = nil
    }

    /// Takes the lock again after ``suspend()``, and reads the file again when another writer
    /// replaced it meanwhile, returning what differs as changes.
    ///
    /// - Throws: `locked` while another repository holds the folder (the store stays
    ///   suspended), or what reading the file throws.
    mutating func resume() throws -> [StoreChange<Value>] {
        guard let suspension else { return [] }
        let lock = try StoreFiles.Lock(suspension.lock, reporting: Failure.self)
        var changes: [StoreChange<Value>] = []
        if StoreFiles.Stamp(fileURL) != suspension.file {
            // Suspended still, and the lock released again, when the file does not read.
            let read = try Self.readFile(fileURL).values
            changes = values.changes(to: read)
            values = read
        }
        self.lock = lock
        self.suspension = nil
        return changes
    }

    /// Releases the folder's lock; later writes throw `closed`.
    mutating func close() {
        isOpen = false
        lock = nil
        suspension = nil
    }

    /// Applies `change` to a copy of the values, writes the copy to the file, and only then
    /// keeps it: when the write fails, the store keeps its previous contents.
    mutating func commit(_ change: StoreChange<Value>) throws {
        guard !isClosed else { throw Failure.closed }
        guard !isSuspended else { throw Failure.suspended }
        if isReadOnly { throw StoreFiles.readOnly(fileURL, reporting: Failure.self) }
        let changed = values.applying(change)
        if isOnDisk { try Self.write(changed, to: fileURL) }
        values = changed
    }

    private typealias CRC32 = StoreFiles.CRC32

    private static func write(_ values: StoredValues<Value>, to fileURL: URL) throws {
        let encoder = JSONEncoder()
        let data: Data
        do {
            if values.unknownMembers.isEmpty {
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                let stored = StoredFile(
                    schemaVersion: Value.schemaVersion, fields: Value.knownKeys?.sorted(),
                    items: values.items)
                data = CRC32.sealed(try StoreFiles.readableJSON(encoder.encode(stored)))
            } else {
                // A newer build's fields, kept: each value with its members, on one line.
                encoder.outputFormatting = [.sortedKeys]
                var json = Data(#"{"items":"#.utf8)
                json.append(
                    try StoreFiles.encodedArray(
                        values.items, adding: values.unknownMembers, with: encoder))
                json.append(contentsOf: #","schemaVersion":\#(Value.schemaVersion)}"#.utf8)
                data = CRC32.sealed(json)
            }
        } catch {
            // A value JSON cannot hold (a Double's or a Decimal's NaN): nothing is written.
            throw Failure.unwritable(file: fileURL, reason: "\(error)")
        }
        try StoreFiles.replaceWhole(fileURL, with: data, reporting: Failure.self)
    }

    // MARK: - Recovering a damaged store

    /// Takes back a store that opening refuses as damaged (``Failure/corrupt``): of a file whose
    /// checksum fails, the values that still decode, in id order, are kept (unverified) and the
    /// others set aside (``StoreFiles/salvagedSnapshot(of:file:decode:)``), or the whole file
    /// when none do (the store is then empty); a file of an older layout is kept as read when
    /// it still decodes. The file is first copied beside itself as it was. A sound store is
    /// left as it is. Takes the folder's lock, or uses `held`.
    static func recover(
        directory: URL, file: String, lock: String, holding held: StoreFiles.Lock? = nil
    ) throws -> StoreRecovery {
        let fileURL = directory.appendingPathComponent(file)
        try StoreFiles.createFolder(directory, reporting: Failure.self)
        let lock =
            try held
            ?? StoreFiles.Lock(directory.appendingPathComponent(lock), reporting: Failure.self)
        return try withExtendedLifetime(lock) {
            let data = try StoreFiles.readIfPresent(fileURL, reporting: Failure.self) ?? Data()
            if let intact = try? readFile(fileURL) {
                return StoreRecovery(
                    valuesKept: intact.values.count, setAside: [], keptUnverified: [],
                    repaired: [], copies: [])
            }
            let json = CRC32.unchecked(data).json
            if !StoreFiles.isDamaged(data), !StoreFiles.holdsABareNaN(json),
                StoreFiles.JSONBytes.isJSON(json)
            {
                // Its checksum matches, or it has none, and it is JSON: what fails is not
                // damage. Thrown as opening throws it. (A file without its checksum line that
                // is not JSON was cut short, or damaged there: it is read as far as it goes.)
                _ = try readFile(fileURL)
            }
            // One flipped bit, put back from the checksum: the file as it was written.
            if let (mended, bit) = StoreFiles.mendedFile(data),
                let read = try StoreFiles.readMended(
                    mended, supported: Value.schemaVersion,
                    read: { try readFile($0, of: fileURL) })
            {
                let copy = try StoreFiles.keepCopy(of: fileURL, reporting: Failure.self)
                try write(read.values, to: fileURL)
                return StoreRecovery(
                    valuesKept: read.values.count, setAside: [],
                    keptUnverified: mended.count > CRC32.certainMendSize ? [fileURL] : [],
                    repaired: [
                        StoreRecovery.Damage(
                            file: fileURL, offset: bit / 8,
                            reason: StoreFiles.oneBitPutBack(in: mended.count))
                    ], copies: [copy])
            }
            // A newer build's values: this build would set every one aside.
            if let newer = StoreFiles.newerVersion(of: data, supported: Value.schemaVersion) {
                throw Failure.newerSchema(
                    file: fileURL, found: newer, supported: Value.schemaVersion)
            }
            // Value by value, in the order it was written (a value whose bytes hold the damage,
            // or whose id is out of that order, is set aside); a file of an older layout (a
            // bare array) is kept as read when it still decodes.
            let read: (values: StoredValues<Value>, setAside: [StoreRecovery.Damage])? =
                StoreFiles.salvagedSnapshot(
                    of: CRC32.unchecked(data).json, file: fileURL,
                    decode: { try JSONDecoder().decode(StoredFile.self, from: $0).items })
                ?? (try? readFile(fileURL, checked: false).values).map { ($0, []) }
            let copy = try StoreFiles.keepCopy(of: fileURL, reporting: Failure.self)
            let values = read?.values ?? StoredValues()
            try write(values, to: fileURL)
            return StoreRecovery(
                valuesKept: values.count,
                setAside: read?.setAside
                    ?? [
                        StoreRecovery.Damage(
                            file: fileURL, offset: 0,
                            reason: StoreRecovery.Damage.undecodable)
                    ],
                keptUnverified: read != nil ? [fileURL] : [], repaired: [], copies: [copy])
        }
    }

    /// Takes back the file that ``importStore(file:in:lock:leftoversOnly:into:)`` would import
    /// when its damage stops the import, as ``recover(directory:file:lock:holding:)`` takes
    /// back a store, under its `.importing` name:
    /// ``StoreFiles/recoverFormerStore(files:in:lock:leftoversOnly:reporting:recover:)``. Nil
    /// when there is nothing to import.
    static func recoverImport(
        file: String, in directory: URL, lock: String, leftoversOnly: Bool = false
    ) throws -> StoreRecovery? {
        try StoreFiles.recoverFormerStore(
            files: [file], in: directory, lock: lock, leftoversOnly: leftoversOnly,
            reporting: Failure.self,
            recover: { names, held in
                try recover(directory: directory, file: names[0], lock: lock, holding: held)
            })
    }

    /// The file's values, migrated to the current schema version, and whether the file is
    /// current: written with a checksum, in this schema version. With `checked` false, a
    /// checksum that does not match is let through, for ``recover(directory:file:lock:holding:)``.
    /// With `isReading`, for a store that never writes, a newer build's fields are not looked
    /// for.
    private static func readFile(
        _ file: URL, checked: Bool = true, isReading: Bool = false
    ) throws -> (values: StoredValues<Value>, isCurrent: Bool) {
        guard let data = try StoreFiles.readIfPresent(file, reporting: Failure.self) else {
            return (StoredValues(), true)
        }
        return try readFile(data, of: file, checked: checked, isReading: isReading)
    }

    /// The file `file`'s bytes `data`, as ``readFile(_:checked:isReading:)`` reads them.
    private static func readFile(
        _ data: Data, of file: URL, checked: Bool = true, isReading: Bool = false
    ) throws -> (values: StoredValues<Value>, isCurrent: Bool) {
        let contents: CRC32.Contents
        do {
            contents = checked ? try CRC32.unsealed(data) : CRC32.unchecked(data)
        } catch {
            throw Failure.corrupt(file: file, offset: 0, reason: "\(error)")
        }
        let stored: StoredFile
        do {
            stored = try JSONDecoder().decode(StoredFile.self, from: contents.json)
        } catch let newer as NewerSchema {
            throw Failure.newerSchema(
                file: file, found: newer.found, supported: Value.schemaVersion)
        } catch {
            throw StoreFiles.misfit(
                error, file: file, json: contents.json, isChecked: contents.isChecked,
                reporting: Failure.self)
        }
        do {
            var values = try StoredValues(stored.items)
            if !isReading, stored.schemaVersion == Value.schemaVersion,
                StoreFiles.mayHoldUnknownKeys(stored.fields, of: Value.self)
            {
                values.setUnknownMembers(
                    StoreFiles.unknownMembers(
                        of: stored.items, in: contents.json, arrayKey: "items",
                        versionKey: "schemaVersion"))
            }
            // One written before files listed their keys is read key by key until the next
            // save rewrites it.
            return (values, contents.isChecked && stored.schemaVersion == Value.schemaVersion)
        } catch {
            throw Failure.corrupt(file: file, offset: 0, reason: "\(error)")
        }
    }

    /// The file's layout. A bare array is a file from before the schema version was stored:
    /// version 1.
    private nonisolated struct StoredFile: Codable {
        var schemaVersion: Int
        /// The writer's known keys; absent when not known (written by an earlier release, or
        /// holding a newer build's keys): ``StoreFiles/mayHoldUnknownKeys(_:of:)``.
        var fields: [String]?
        var items: [Value]

        init(schemaVersion: Int, fields: [String]?, items: [Value]) {
            self.schemaVersion = schemaVersion
            self.fields = fields
            self.items = items
        }

        init(from decoder: any Decoder) throws {
            guard let container = try? decoder.container(keyedBy: CodingKeys.self) else {
                schemaVersion = 1
                items = try Value.decodeStored(1, from: decoder)
                return
            }
            schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
            guard schemaVersion <= Value.schemaVersion else {
                throw NewerSchema(found: schemaVersion)
            }
            fields = try container.decodeIfPresent([String].self, forKey: .fields)
            items = try Value.decodeStored(
                schemaVersion, from: container.superDecoder(forKey: .items))
        }
    }
}
