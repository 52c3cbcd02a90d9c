import Foundation

/// The values of one repository, in memory and on disk in a snapshot and a journal. Each
/// journal repository in this module keeps one and tells it of each change; the lines it writes
/// and the errors it throws are the repository's own.
///
/// Reads come from memory. Every change is appended to the journal as one record and synced to
/// disk before the call returns, so a save costs the same in a store of 100 values as in one of
/// 100,000. Once the journal has grown past the snapshot (and past the compaction floor), a
/// compaction writes the whole store as a new snapshot, off the repository's turn: reads and
/// writes go on meanwhile, and the journal then keeps only the records written since it began.
///
/// On disk:
/// - the snapshot: `{"fields":[…],"generation":G,"items":[…],"schemaVersion":N}` on one line,
///   then the line `crc32 <8 hex digits>`, the CRC-32 of the first line, so a damaged byte is
///   found instead of read as a value. `fields` lists the model's known keys (none when a
///   newer build's fields are kept: ``StoredValues/unknownMembers``). Replaced atomically:
///   written to `<snapshot>.tmp`, synced, renamed, and the folder synced; a temporary file that
///   a failed write or a crash left is removed, and never read.
/// - the journal: one line per change, `<JSON record> <CRC-32 in hex>`. Opening replays it over
///   the snapshot. A last line without its newline is a write cut short by a crash: the call
///   that wrote it never returned, so it is dropped. Any other damage throws `corrupt`, and the
///   file is left untouched.
/// - the lock file: holds an advisory lock while the store is open, so a second repository
///   cannot interleave its writes with this one's.
///
/// scaffold-repo writes one copy of this file per module that has a journal repository, and
/// `scaffold-repo destroy` removes it with the last of them.
nonisolated struct JournalStore<Value: StoredValue, Failure: StoreFiles.Failure> {
    /// The values, sorted by id.
    private(set) var values: StoredValues<Value>
    /// The open files; none in memory (``init(inMemory:)``) and after ``close()``.
    private var files: StoreFiles.Journal<Failure>?
    /// False after ``close()``.
    private var isOpen = true
    /// The journal may grow to the snapshot's size or to this many bytes, whichever is larger.
    private let compactionFloor: Int
    private var snapshotSize: Int
    private var journalSize: Int
    /// False after an append failed: the journal may end in part of a record, so the next
    /// write replaces the snapshot and empties the journal rather than append after it.
    private var journalIsSound = true
    /// The generation that records written now carry. A compaction takes the next one when it
    /// begins, and its snapshot carries it: the snapshot holds every record of an earlier
    /// generation, which opening skips, and none of its own or later, which opening replays
    /// over it. Opening takes the latest generation any record carries, so a compaction that
    /// never finished cannot make a later snapshot skip its records.
    private var generation: Int
    /// The task that releases the lock once the compaction that the last ``close()`` or
    /// ``suspend()`` cancelled has ended; nil when the lock was released at once.
    private var releasing: _Concurrency.Task<Void, Never>?
    /// The compaction under way, if one is.
    private var compacting: Compaction?
    /// The task of the last compaction finished, and what it threw; a second call that
    /// finishes it throws the same.
    private var lastCompaction:
        (task: _Concurrency.Task<Written, any Error>, failure: (any Error)?)?
    /// The journal's size at which a compaction starts by itself; raised after one fails, so a
    /// full disk does not start another with every save.
    private var compactionSize: Int
    /// Where a store opened with ``init(readingFrom:snapshot:journal:)`` has read to; nil for
    /// the writer.
    private var reader: Reader?
    /// The files that ``suspend()`` closed, as they were then.
    private var suspension: Suspension?

    private nonisolated struct Suspension {
        let directory: URL
        let snapshotURL: URL
        let journalURL: URL
        let lockURL: URL
        let snapshot: StoreFiles.Stamp?
        let journal: StoreFiles.Stamp?
    }

    /// What a reader has read: the snapshot (told apart from its replacement by its stamp),
    /// and the journal up to `journalSize` bytes.
    private nonisolated struct Reader {
        let snapshotURL: URL
        let journalURL: URL
        var stamp: StoreFiles.Stamp?
        var journalSize: Int
        /// The journal as it was when read: unchanged, there is nothing to read.
        var journal: StoreFiles.Stamp?
        var generation: Int
    }

    /// Opens the store in `directory` (created if missing): takes the lock, reads the snapshot,
    /// replays the journal. Missing files are an empty store; damaged ones throw, and are never
    /// taken for an empty store, so no later save can overwrite them.
    init(
        directory: URL, snapshot: String, journal: String, lock: String, compactionFloor: Int
    ) throws {
        try self.init(
            files: StoreFiles.Journal<Failure>(
                directory: directory, snapshot: snapshot, journal: journal, lock: lock),
            compactionFloor: compactionFloor)
    }

    /// Reads the store from `files`, whose lock is taken.
    private init(files: StoreFiles.Journal<Failure>, compactionFloor: Int) throws {
        let snapshot = try Self.readSnapshot(files.snapshotURL)
        var values = snapshot.values
        var replayed = try Self.replayJournal(
            files.journalURL, into: &values, generation: snapshot.generation)
        var snapshotSize = snapshot.size
        var listsItsKeys = snapshot.listsItsKeys
        // A compaction that never put its snapshot in place (a crash, a full disk, a close)
        // left records of a later generation than the snapshot's. Records written from now
        // on carry that later one, and the next snapshot a later one still: a generation that
        // records already carry is never a new snapshot's, so it never skips what they hold.
        var generation = replayed.latestGeneration
        // A snapshot written before snapshots had a checksum, or by an earlier schema version,
        // is rewritten now, when the folder can be written, and by the next compaction
        // otherwise (journal records say their version, so replaying them needs no rewrite).
        if !snapshot.isCurrent,
            let written = try? Self.writeSnapshot(of: values, generation: generation + 1, to: files)
        {
            snapshotSize = written.size
            generation += 1
            listsItsKeys = true
            if written.folderSynced, (try? files.truncate(to: 0)) != nil {
                replayed.validSize = 0
            }
        }
        if replayed.validSize < replayed.fileSize {
            try files.truncate(to: replayed.validSize)
        }
        self.values = values
        self.files = files
        self.compactionFloor = compactionFloor
        self.snapshotSize = snapshotSize
        self.journalSize = replayed.validSize
        self.generation = generation
        // A snapshot written before snapshots listed their keys is read key by key at each open
        // until rewritten: the next save starts a compaction (off the repository's turn),
        // rather than this open rewriting it.
        compactionSize = listsItsKeys ? max(snapshotSize, compactionFloor) : 0
    }

    /// A store that keeps `values` in memory only, for previews and an app's tests: it has no
    /// folder, lock or file, and its changes are gone when it is.
    init(inMemory values: [Value]) {
        var stored = StoredValues<Value>()
        stored.apply(.saved(values))
        self.values = stored
        compactionFloor = 0
        snapshotSize = 0
        journalSize = 0
        generation = 0
        compactionSize = 0
    }

    /// Opens the store in `directory` for reading only, as an app's widget or extension does
    /// while the app writes: it takes no lock and writes no file, so the writer is never
    /// locked out, and it never waits for the writer. It reads one consistent state: the
    /// snapshot, then the journal's whole records (a last line still being written is left
    /// for later), read again when the writer replaced the snapshot meanwhile. ``refresh()``
    /// reads what the writer committed since. Missing files are an empty store.
    init(readingFrom directory: URL, snapshot: String, journal: String) throws {
        var reader = Reader(
            snapshotURL: directory.appendingPathComponent(snapshot),
            journalURL: directory.appendingPathComponent(journal), stamp: nil, journalSize: 0,
            journal: nil, generation: 0)
        values = try Self.readConsistently(&reader)
        self.reader = reader
        compactionFloor = 0
        snapshotSize = 0
        journalSize = 0
        generation = reader.generation
        compactionSize = 0
    }

    /// Moves the values a journal store (its files `snapshot` and `journal`) left in
    /// `directory` into the store `save` writes to, once, for a model that moved to another
    /// storage, or, with `leftoversOnly`, takes back this store's own files that a crash left
    /// half moved: ``StoreFiles/importFormerStore(files:in:lock:leftoversOnly:reporting:read:save:)``
    /// with ``storedValues(in:snapshot:journal:)`` as its reader.
    @discardableResult
    static func importStore(
        snapshot: String, journal: String, in directory: URL, lock: String?,
        leftoversOnly: Bool = false, into save: ([Value]) throws -> Void
    ) throws -> Bool {
        try StoreFiles.importFormerStore(
            files: [snapshot, journal], in: directory, lock: lock, leftoversOnly: leftoversOnly,
            reporting: Failure.self,
            read: { try storedValues(in: directory, snapshot: $0[0], journal: $0[1]) }, save: save)
    }

    /// The values a journal store left in `directory`, read as its writer reads them when it
    /// opens: a last line cut short is dropped, and damage anywhere else throws.
    static func storedValues(in directory: URL, snapshot: String, journal: String) throws -> [Value]
    {
        let read = try readSnapshot(directory.appendingPathComponent(snapshot), isReading: true)
        var values = read.values
        _ = try replayJournal(
            directory.appendingPathComponent(journal), into: &values, generation: read.generation)
        return values.items
    }

    /// Whether the store was opened with ``init(readingFrom:snapshot:journal:)``.
    var isReadOnly: Bool { reader != nil }

    /// For a store opened with ``init(readingFrom:snapshot:journal:)``: reads what the writer
    /// committed since the last read, and returns it as changes, in order. The journal's new
    /// records when the snapshot is the same; else the store is read again and the changes are
    /// what differs. Nothing for the writer, which has every change already.
    mutating func refresh() throws -> [StoreChange<Value>] {
        guard isOpen else { throw Failure.closed }
        guard var reader else { return [] }
        let journal = StoreFiles.Stamp(reader.journalURL)
        if reader.stamp == StoreFiles.Stamp(reader.snapshotURL) {
            if journal == reader.journal { return [] }  // Nothing was written: one stat each.
            // Only the bytes after the records read before, in the same file: a compaction
            // replaces the journal with a new file. When they do not read as records (the
            // writer took back a record it could not sync), the store is read again below,
            // whole.
            if reader.journal == nil || journal?.inode == reader.journal?.inode,
                let tail = try? StoreFiles.read(
                    reader.journalURL, from: reader.journalSize, reporting: Failure.self),
                let read = try? Self.records(
                    in: tail, of: reader.journalURL, from: 0, generation: reader.generation,
                    isReading: true)
            {
                // The snapshot, or the journal, may have been replaced while it was read.
                if reader.stamp == StoreFiles.Stamp(reader.snapshotURL),
                    StoreFiles.Stamp(reader.journalURL)?.inode == journal?.inode
                {
                    values.apply(contentsOf: read.changes)
                    reader.journalSize += read.validSize
                    reader.journal = journal
                    self.reader = reader
                    return read.changes.map(\.change)
                }
            }
        }
        let old = values
        values = try Self.readConsistently(&reader)
        self.reader = reader
        generation = reader.generation
        return old.changes(to: values)
    }

    /// The snapshot and the journal's whole records, read again until the snapshot is the same
    /// before and after (the writer compacts between the two at most a few times in a row).
    private static func readConsistently(_ reader: inout Reader) throws -> StoredValues<Value> {
        for _ in 0..<20 {
            let stamp = StoreFiles.Stamp(reader.snapshotURL)
            let journal = StoreFiles.Stamp(reader.journalURL)
            // The writer frees a file it replaced by cutting it down: a read that began before
            // the replacement may come back short. Either file replaced meanwhile means: again.
            let (snapshotURL, journalURL) = (reader.snapshotURL, reader.journalURL)
            let isSame = {
                stamp == StoreFiles.Stamp(snapshotURL)
                    && journal?.inode == StoreFiles.Stamp(journalURL)?.inode
            }
            let snapshot: Snapshot
            let read: (changes: [StoredChange<Value>], validSize: Int, latestGeneration: Int)
            do {
                snapshot = try readSnapshot(reader.snapshotURL, isReading: true)
                let data = try StoreFiles.readIfPresent(reader.journalURL, reporting: Failure.self)
                read = try records(
                    in: data ?? Data(), of: reader.journalURL, from: 0,
                    generation: snapshot.generation, isReading: true)
            } catch {
                if isSame() { throw error }
                continue
            }
            guard isSame() else { continue }
            var values = snapshot.values
            values.apply(contentsOf: read.changes)
            reader.stamp = stamp
            reader.journal = journal
            reader.journalSize = read.validSize
            reader.generation = snapshot.generation
            return values
        }
        throw Failure.locked(file: reader.snapshotURL)
    }

    /// Whether ``close()`` was called.
    var isClosed: Bool { !isOpen }

    /// Whether ``suspend()`` released the files, and no ``resume()`` took them again.
    var isSuspended: Bool { suspension != nil }

    /// Releases the folder's lock and closes the journal until ``resume()``: iOS ends an app
    /// that is suspended while it holds a lock on a file in a shared container (`0xdead10cc`).
    /// Reads still answer from memory; writes throw `suspended`. A store in memory, a reader
    /// and a closed store stay as they are.
    ///
    /// A compaction under way is cancelled, and the task returned releases the lock once it has
    /// ended (within a few hundred values' writing): wait for it before the app is suspended.
    /// Suspending again, or a closed store, returns the task that still releases it, if any.
    @discardableResult
    mutating func suspend() -> _Concurrency.Task<Void, Never>? {
        // Suspended or closed already: the lock may still wait for a compaction to end.
        guard isOpen, let files else { return releasing }
        let running = abandonCompaction()
        suspension = Suspension(
            directory: files.directory, snapshotURL: files.snapshotURL,
            journalURL: files.journalURL, lockURL: files.lockURL,
            snapshot: StoreFiles.Stamp(files.snapshotURL),
            journal: StoreFiles.Stamp(files.journalURL))
        self.files = nil
        releasing = Self.release(files.lock, after: running)
        return releasing
    }

    /// Takes the lock again after ``suspend()``. When the files changed meanwhile (another
    /// writer held the folder), the store is read again, and the changes that differ are
    /// returned. Nothing happens when the store is not suspended.
    ///
    /// - Throws: `locked` while another repository holds the folder (the store stays
    ///   suspended: call it again later), or what opening the files throws.
    mutating func resume() throws -> [StoreChange<Value>] {
        guard let suspension else { return [] }
        let files = try StoreFiles.Journal<Failure>(
            directory: suspension.directory, snapshot: suspension.snapshotURL.lastPathComponent,
            journal: suspension.journalURL.lastPathComponent,
            lock: suspension.lockURL.lastPathComponent)
        if StoreFiles.Stamp(files.snapshotURL) == suspension.snapshot,
            StoreFiles.Stamp(files.journalURL) == suspension.journal
        {
            self.files = files
            self.suspension = nil
            return []
        }
        // Suspended still, and the lock released again, when the files do not read.
        let old = values
        self = try JournalStore(files: files, compactionFloor: compactionFloor)
        return old.changes(to: values)
    }

    /// Releases the folder's lock and files; later writes throw `closed`. A compaction under
    /// way is cancelled, and the task returned releases the lock once it has ended: wait for it
    /// before the folder is opened again. With none under way, the lock is released at once.
    /// Closing again, or closing while a ``suspend()`` still waits to release the lock, returns
    /// the task that releases it, if one still may.
    @discardableResult
    mutating func close() -> _Concurrency.Task<Void, Never>? {
        let running = abandonCompaction()
        let lock = files?.lock
        isOpen = false
        files = nil
        suspension = nil
        if let lock { releasing = Self.release(lock, after: running) }
        return releasing
    }

    /// Releases `lock`, which a compaction's files share, now; or, when `running` (a cancelled
    /// compaction) may still rename a file, in the task returned, once it has ended.
    private static func release(
        _ lock: StoreFiles.Lock, after running: _Concurrency.Task<Written, any Error>?
    ) -> _Concurrency.Task<Void, Never>? {
        guard let running else {
            lock.release()
            return nil
        }
        return _Concurrency.Task {
            _ = await running.result
            lock.release()
        }
    }

    /// Appends `change` to the journal as one record, then applies it: the change is on disk
    /// before memory shows it. A change that saves at least as many values as the store holds
    /// is written as a new snapshot instead (encoding it as a record would cost as much), unless
    /// a compaction is under way. Once the journal has grown past ``needsCompaction``'s size,
    /// the caller starts a compaction with ``beginCompaction(from:)``.
    mutating func commit(_ change: StoreChange<Value>) throws {
        guard isOpen else { throw Failure.closed }
        guard !isSuspended else { throw Failure.suspended }
        if let reader { throw StoreFiles.readOnly(reader.journalURL, reporting: Failure.self) }
        guard let files else {
            values.apply(change)  // In memory only.
            return
        }
        let record = JournalRecord(change, generation: generation)
        // A failed append took its bytes back; once the journal is cut to its last whole
        // record again, appending after it is safe.
        if !journalIsSound, (try? files.truncate(to: journalSize)) != nil { journalIsSound = true }
        var isLargeBatch = false
        if case .saved(let saved) = change { isLargeBatch = saved.count >= values.count }
        if compacting == nil, isLargeBatch || !journalIsSound {
            let changed = values.applying(change)
            let written = try writeSnapshot(of: changed)
            // The rename may not survive a crash: the change goes in the journal too, under the
            // older generation, which the new snapshot skips and the old one replays.
            if !written.folderSynced, journalIsSound,
                let line = try? record.encodedLine(adding: values.unknownMembers),
                (try? files.append(line, at: journalSize)) != nil
            {
                journalSize += line.count
            }
            return
        }
        guard journalIsSound else {
            throw Failure.unwritable(
                file: files.journalURL,
                reason: "an earlier write failed and the journal could not be cut back to its "
                    + "last whole record; the next write after the compaction replaces it")
        }
        let line: Data
        do {
            line = try record.encodedLine(adding: values.unknownMembers)
        } catch {
            // A value JSON cannot hold (a Double's nan or infinity): nothing is written.
            throw Failure.unwritable(file: files.journalURL, reason: "\(error)")
        }
        do {
            try files.append(line, at: journalSize)
        } catch {
            // A failed append may have left part of its record behind; the next write cuts
            // the journal back, or writes a snapshot instead of appending after it.
            journalIsSound = false
            throw error
        }
        journalSize += line.count
        values.apply(change)  // In place: a copy would cost O(n) per save.
    }

    /// How long the journal may grow before a compaction: the snapshot's size, or the
    /// compaction floor when that is larger.
    private var journalLimit: Int { max(snapshotSize, compactionFloor) }

    /// Whether the journal has outgrown the snapshot (and the compaction floor), and no
    /// compaction is under way: the caller should start one with ``beginCompaction(from:)``.
    var needsCompaction: Bool {
        files != nil && compacting == nil && journalSize > compactionSize
    }

    /// The compaction under way, which ``finishCompaction(_:result:)`` has not finished yet.
    var runningCompaction: Compaction? { compacting }

    /// A new snapshot being written off the repository's turn: the values as they were when it
    /// began, and the task that writes them to a new file and renames it over the snapshot.
    /// Records written meanwhile carry its generation, so the new snapshot skips none of them,
    /// and the old one, until the rename, replays them all.
    nonisolated struct Compaction: Sendable {
        /// The generation of the new snapshot, and of the records written since it began.
        let generation: Int
        /// The journal's size when it began: the records after it are not in the snapshot.
        fileprivate let journalStart: Int
        /// Writes, syncs and installs the snapshot (its file holds the folder's lock until
        /// then). Cancelled when the store closes or is suspended: it stops at its next few
        /// hundred values, or once its rename is done, when it had begun it.
        let task: _Concurrency.Task<Written, any Error>
    }

    /// A snapshot in place: its size, and whether the folder was synced after the rename. For
    /// a compaction, also where the journal's records that the snapshot does not hold, copied
    /// to ``StoreFiles/Journal/journalTemporaryURL``, ended then; nil when there were none, or
    /// they could not be copied.
    nonisolated struct Written: Sendable {
        let size: Int
        let folderSynced: Bool
        var journalCopied: Int? = nil
    }

    /// What a compaction's task asks the repository for, each call a short turn of its own;
    /// each answers nil once the repository is gone.
    nonisolated struct CompactionSource: Sendable {
        /// Up to a run's worth of values whose ids follow the one given (from the first when it
        /// is nil), in id order: `StoredValues.values(after:)`.
        let values: @Sendable (Value.ID?) async -> [Value]?
        /// ``JournalStore/journalEnd``.
        let journalEnd: @Sendable () async -> Int?
    }

    /// The size of the journal's whole records: those of every save that returned.
    var journalEnd: Int { journalSize }

    /// Starts a compaction: a task writes every value to a new snapshot file while this store
    /// goes on reading and writing, renames it over the snapshot, and copies the journal's
    /// records since the compaction began to a new journal file. It asks `source` for the
    /// values a few hundred at a time, so each read is a short turn of the repository, and the
    /// store is never copied whole. A value that changes after the compaction began may be in
    /// the snapshot as it was or as it is now: the journal's records since then, which the
    /// snapshot does not skip, bring it to its latest state either way. Pass the task's result
    /// to ``finishCompaction(_:result:)``. Nil for a store in memory, or when one is under way.
    mutating func beginCompaction(from source: CompactionSource) throws -> Compaction? {
        guard isOpen else { throw Failure.closed }
        guard !isSuspended else { throw Failure.suspended }
        if let reader { throw StoreFiles.readOnly(reader.journalURL, reporting: Failure.self) }
        guard let files, compacting == nil else { return nil }
        let file = try files.newSnapshot()
        let tail: StoreFiles.NewFile
        do {
            tail = try files.newJournal()
        } catch {
            file.discard()
            throw error
        }
        let (journalURL, journalStart) = (files.journalURL, journalSize)
        // From now on records carry the new snapshot's generation: it will not hold them.
        generation += 1
        let generation = generation
        // Only this store writes while it holds the lock, and its saves keep a value's unknown
        // members: those of now are those of every value the compaction reads.
        let unknown = values.unknownMembers
        let compaction = Compaction(
            generation: generation, journalStart: journalSize,
            task: _Concurrency.Task.detached {
                var written: Written
                do {
                    var writer = try SnapshotWriter(
                        to: file, generation: generation, unknown: unknown)
                    var last: Value.ID?
                    while true {
                        try _Concurrency.Task.checkCancellation()
                        guard let values = await source.values(last) else {
                            throw CancellationError()
                        }
                        guard let next = values.last?.id else { break }
                        try writer.append(values)
                        last = next
                    }
                    let size = try writer.finish()
                    try _Concurrency.Task.checkCancellation()
                    written = Written(
                        size: size, folderSynced: try file.install(reporting: Failure.self))
                } catch {
                    file.discard()
                    tail.discard()
                    throw error
                }
                // Most of the records written meanwhile, copied here: the repository's turn
                // then only adds the few after them. Without them, the journal stays whole.
                // The file is left for the repository's turn, which holds the lock then, unless
                // the repository closed meanwhile. With no records since, it stays empty: the
                // journal is still replaced by a rename, never cut in place under a reader.
                if written.folderSynced, !_Concurrency.Task.isCancelled,
                    let end = await source.journalEnd(), end >= journalStart,
                    (try? tail.copy(journalStart..<end, of: journalURL, reporting: Failure.self))
                        != nil, !_Concurrency.Task.isCancelled
                {
                    written.journalCopied = end
                } else {
                    tail.discard()
                }
                return written
            })
        compacting = compaction
        return compaction
    }

    /// Once `compaction`'s task has put the new snapshot in place, replaces the journal with
    /// the records written since the compaction began: the short part of a compaction that
    /// takes the repository's turn. A second call for the same compaction throws what the
    /// first threw.
    ///
    /// - Throws: what writing the snapshot threw (the store stays as it was, the journal
    ///   holding every change, and the next compaction starts once the journal grows further);
    ///   `closed` or `suspended` when the store was closed or suspended meanwhile.
    mutating func finishCompaction(
        _ compaction: Compaction, result: Swift.Result<Written, any Error>
    ) throws {
        guard let current = compacting, current.task == compaction.task, let files else {
            if !isOpen { throw Failure.closed }
            guard let last = lastCompaction, last.task == compaction.task else {
                // Abandoned by a suspend(), whether resumed since or not.
                throw Failure.suspended
            }
            if let failure = last.failure { throw failure }
            return
        }
        compacting = nil
        let written: Written
        do {
            written = try result.get()
        } catch {
            lastCompaction = (compaction.task, error)
            compactionSize = journalSize + journalLimit
            throw error
        }
        lastCompaction = (compaction.task, nil)
        snapshotSize = written.size
        // Once the rename is durable, the journal's records before the compaction began are
        // of older generations, which the new snapshot skips: keep only the later ones. When
        // the folder could not be synced, the whole journal stays, in case the rename is lost,
        // and the next compaction waits until it has grown further.
        if written.folderSynced, let copied = written.journalCopied,
            (try? files.replaceJournal(
                from: compaction.journalStart, copied: copied, through: journalSize)) != nil
        {
            journalSize -= compaction.journalStart
            journalIsSound = true
            compactionSize = journalLimit
        } else {
            files.discardJournalCopy()
            compactionSize = journalSize + journalLimit
        }
    }

    /// Cancels the compaction under way, and returns its task: it ends at its next few hundred
    /// values, unless it is putting its file in place already, and removes its files itself,
    /// holding the folder's lock until it ends.
    private mutating func abandonCompaction() -> _Concurrency.Task<Written, any Error>? {
        defer { compacting = nil }
        compacting?.task.cancel()
        return compacting?.task
    }

    /// Replaces the snapshot with `values` and keeps them, then empties the journal. A crash in
    /// between leaves the new snapshot and the old journal, whose records belong to the older
    /// generation and are skipped when the store opens, so nothing is lost or applied twice.
    @discardableResult
    private mutating func writeSnapshot(of values: StoredValues<Value>) throws -> Written {
        guard isOpen else { throw Failure.closed }
        guard let files else {
            self.values = values  // In memory only.
            return Written(size: 0, folderSynced: true)
        }
        let written = try Self.writeSnapshot(of: values, generation: generation + 1, to: files)
        self.values = values
        snapshotSize = written.size
        compactionSize = journalLimit
        generation += 1
        // The new snapshot is in place. The journal's records are of the older generation now:
        // skipped when the store opens, so a failure to empty it loses nothing. It is kept when
        // the folder could not be synced, in case the rename itself does not survive a crash.
        if written.folderSynced, (try? files.truncate(to: 0)) != nil {
            journalSize = 0
            journalIsSound = true
        }
        return written
    }

    /// Writes `values` to a new snapshot of `generation` and puts it in place, on this turn;
    /// when anything fails, removes the new file and throws.
    private static func writeSnapshot(
        of values: StoredValues<Value>, generation: Int, to files: StoreFiles.Journal<Failure>
    ) throws -> Written {
        let file = try files.newSnapshot()
        do {
            var writer = try SnapshotWriter(
                to: file, generation: generation, unknown: values.unknownMembers)
            try values.forEachRun { try writer.append($0) }
            let size = try writer.finish()
            return Written(size: size, folderSynced: try file.install(reporting: Failure.self))
        } catch {
            file.discard()
            throw error
        }
    }

    // A build of this release finds a snapshot's values by their array's place: after the
    // members before `items`, and before `"schemaVersion":N}` at the end
    // (`StoreFiles.unknownMembers(of:in:arrayKey:versionKey:)`). A member added later must go
    // before `items`, or those builds would not find a newer build's fields to keep.
    /// Writes a snapshot to its file a few hundred values at a time, so that no second copy of
    /// the store, encoded or not, is ever held whole. The bytes are those of encoding the whole
    /// file at once: `{"fields":[…],"generation":…,"items":[…],"schemaVersion":…}` with sorted
    /// keys, then the checksum line. Each value's unknown members follow its own; `fields`,
    /// the model's known keys, is left out when there are any. The file is synced every
    /// megabyte as it goes, so the device never has much of it to flush at once: a save's own
    /// sync, meanwhile, may wait for all of it.
    private nonisolated struct SnapshotWriter {
        private let file: StoreFiles.NewFile
        private let encoder = JournalStore.encoder()
        private var pending: Data
        private var size = 0
        private var synced = 0
        private var checksum = UInt32(0)
        private var isFirst = true
        /// The unknown members of the values (``StoredValues/unknownMembers``).
        private let unknown: [Value.ID: [Data]]

        init(to file: StoreFiles.NewFile, generation: Int, unknown: [Value.ID: [Data]]) throws {
            self.file = file
            self.unknown = unknown
            pending = Data("{".utf8)
            if let known = Value.knownKeys, unknown.isEmpty {
                let fields = known.sorted().map { "\"\($0)\"" }.joined(separator: ",")
                pending.append(contentsOf: "\"fields\":[\(fields)],".utf8)
            }
            pending.append(contentsOf: "\"generation\":\(generation),\"items\":[".utf8)
        }

        /// Appends `values`, which follow the values appended before in id order.
        mutating func append(_ values: [Value]) throws {
            let json: Data
            do {
                json = try StoreFiles.encodedArray(values, adding: unknown, with: encoder)
            } catch {
                throw Failure.unwritable(file: file.url, reason: "\(error)")
            }
            if !isFirst { pending.append(UInt8(ascii: ",")) }
            pending.append(json.dropFirst().dropLast())  // The array's `[` and `]`.
            isFirst = false
            if pending.count >= 256 * 1024 { try flush() }
        }

        /// Ends the JSON, adds the checksum line and syncs the file; returns its size.
        mutating func finish() throws -> Int {
            pending.append(contentsOf: "],\"schemaVersion\":\(Value.schemaVersion)}".utf8)
            try flush()
            let seal = CRC32.seal(checksum)
            try file.write(seal, at: size, reporting: Failure.self)
            try file.sync(reporting: Failure.self)
            return size + seal.count
        }

        private mutating func flush() throws {
            try file.write(pending, at: size, reporting: Failure.self)
            checksum = CRC32.checksum(pending, continuing: checksum)
            size += pending.count
            pending.removeAll(keepingCapacity: true)
            if size - synced >= 1 << 20 {
                try file.sync(reporting: Failure.self, toDrive: false)
                synced = size
            }
        }
    }

    // MARK: - Loading

    private typealias CRC32 = StoreFiles.CRC32

    /// A snapshot as read: ``readSnapshot(_:checked:isReading:)``.
    private typealias Snapshot = (
        values: StoredValues<Value>, size: Int, isCurrent: Bool, generation: Int,
        listsItsKeys: Bool
    )

    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    /// The snapshot's values (migrated to the current schema version) and size, whether it is
    /// current (written with a checksum, in this schema version: one that is not is read once,
    /// so that it can be rewritten), and whether it lists its values' keys (one that does not
    /// is read key by key). With `checked` false, a checksum that does not match is let
    /// through, for ``recover(directory:snapshot:journal:lock:holding:)``. With `isReading`, for
    /// a store that never writes, a newer build's fields are not looked for.
    private static func readSnapshot(
        _ file: URL, checked: Bool = true, isReading: Bool = false
    ) throws -> Snapshot {
        guard let data = try StoreFiles.readIfPresent(file, reporting: Failure.self) else {
            return (StoredValues(), 0, true, 0, true)
        }
        return try readSnapshot(data, of: file, checked: checked, isReading: isReading)
    }

    /// The snapshot `data`, the file `file`'s bytes, as
    /// ``readSnapshot(_:checked:isReading:)`` reads it.
    private static func readSnapshot(
        _ data: Data, of file: URL, checked: Bool = true, isReading: Bool = false
    ) throws -> Snapshot {
        let contents: CRC32.Contents
        do {
            contents = checked ? try CRC32.unsealed(data) : CRC32.unchecked(data)
        } catch {
            throw Failure.corrupt(file: file, offset: 0, reason: "\(error)")
        }
        let snapshot: SnapshotFile
        do {
            snapshot = try JSONDecoder().decode(SnapshotFile.self, from: contents.json)
        } catch let newer as NewerSchema {
            throw Failure.newerSchema(
                file: file, found: newer.found, supported: Value.schemaVersion)
        } catch {
            throw StoreFiles.misfit(
                error, file: file, json: contents.json, isChecked: contents.isChecked,
                reporting: Failure.self)
        }
        var values: StoredValues<Value>
        do {
            values = try StoredValues(snapshot.items)
        } catch {
            throw Failure.corrupt(file: file, offset: 0, reason: "\(error)")
        }
        if !isReading, snapshot.schemaVersion == Value.schemaVersion,
            StoreFiles.mayHoldUnknownKeys(snapshot.fields, of: Value.self)
        {
            values.setUnknownMembers(
                StoreFiles.unknownMembers(
                    of: snapshot.items, in: contents.json, arrayKey: "items",
                    versionKey: "schemaVersion"))
        }
        return (
            values, data.count,
            contents.isChecked && snapshot.schemaVersion == Value.schemaVersion,
            Self.generation(snapshot.generation),
            snapshot.fields != nil || Value.knownKeys == nil
        )
    }

    /// A generation as read: none is 0, and one past 2^53, which a store never reaches (one
    /// per compaction) but a damaged byte under an intact checksum could write, is 2^53, so
    /// that taking the next one cannot overflow.
    private static func generation(_ read: Int?) -> Int {
        min(max(read ?? 0, 0), 1 << 53)
    }

    /// Applies the journal's records of `generation` (the snapshot's) or later to `values`,
    /// skipping older ones, which the snapshot already holds; returns how many bytes are whole
    /// records, and the latest generation a record carries.
    private static func replayJournal(
        _ file: URL, into values: inout StoredValues<Value>, generation: Int
    ) throws -> (validSize: Int, fileSize: Int, latestGeneration: Int) {
        guard let data = try StoreFiles.readIfPresent(file, reporting: Failure.self) else {
            return (0, 0, generation)
        }
        let read = try records(in: data, of: file, from: 0, generation: generation)
        values.apply(contentsOf: read.changes)
        return (read.validSize, data.count, read.latestGeneration)
    }

    /// The changes of the records of `generation` or later in `data` (the journal `file`) from
    /// byte `start` on, and the size of the whole records up to where they end.
    ///
    /// A last line without its newline is dropped: for the writer, an append a crash cut short,
    /// whose save never returned; for a reader (`isReading`), possibly one being written now.
    ///
    /// With `setAside`, a damaged line is handed to it (its byte offset and why) and skipped,
    /// unless one flipped bit is put back (``mendedRecord(_:)``); that record, and a whole
    /// record whose newline is damaged, is read and handed to `repaired`; an intact record
    /// holding a bare NaN keeps its other values. All for
    /// ``recover(directory:snapshot:journal:lock:holding:)``; without, each throws.
    private static func records(
        in data: Data, of file: URL, from start: Int, generation: Int, isReading: Bool = false,
        setAside: ((Int, String) -> Void)? = nil, repaired: ((Int, String) -> Void)? = nil
    ) throws -> (changes: [StoredChange<Value>], validSize: Int, latestGeneration: Int) {
        let decoder = JSONDecoder()
        var changes: [StoredChange<Value>] = []
        var latestGeneration = generation
        /// Applies the intact record `payload` that starts at byte `position`.
        func apply(_ payload: Data, at position: Int) throws {
            do {
                let record = try decoder.decode(JournalRecord.self, from: payload)
                let recorded = Self.generation(record.generation)
                if recorded >= generation {
                    // A writer keeps a newer build's fields of the values saved; a reader
                    // never writes them.
                    var unknown: [Value.ID: [Data]] = [:]
                    if !isReading, let save = record.save, record.version == Value.schemaVersion {
                        unknown = StoreFiles.unknownMembers(
                            of: save, in: payload, arrayKey: "save", versionKey: "version")
                    }
                    changes += record.changes.map {
                        StoredChange(change: $0, unknownMembers: unknown)
                    }
                }
                latestGeneration = max(latestGeneration, recorded)
            } catch let newer as NewerSchema {
                throw Failure.newerSchema(
                    file: file, found: newer.found, supported: Value.schemaVersion)
            } catch let unmigrated as UnmigratedValue {
                throw unmigrated.failure(file: file, reporting: Failure.self)
            } catch {
                throw Failure.incompatible(
                    file: file,
                    reason: "the record at byte \(position): \(StoreFiles.decodingReason(error))")
            }
        }
        var offset = data.startIndex + start
        while let newline = data[offset...].firstIndex(of: UInt8(ascii: "\n")) {
            let position = offset - data.startIndex
            let line = data[offset..<newline]
            offset = newline + 1
            switch checkedRecord(line) {
            case .intact(let payload) where !StoreFiles.holdsABareNaN(payload):
                try apply(payload, at: position)
            case .intact(let payload):
                // A value JSON cannot hold, which earlier releases saved (a Decimal's NaN),
                // keeps an intact record from reading: damage, not a model to change. Its
                // bytes are as written, so every other value of it is kept.
                guard let setAside else {
                    throw Failure.corrupt(file: file, offset: position, reason: StoreFiles.bareNaN)
                }
                guard let salvaged = valuesWithoutNaN(payload, of: file, at: position) else {
                    setAside(position, StoreFiles.bareNaN)
                    continue
                }
                if salvaged.generation >= generation { changes += salvaged.changes }
                latestGeneration = max(latestGeneration, salvaged.generation)
                for damage in salvaged.setAside { setAside(damage.offset, damage.reason) }
            case .damaged(let reason):
                guard let setAside else {
                    throw Failure.corrupt(file: file, offset: position, reason: reason)
                }
                // One flipped bit is put back, from the checksum; any other damage sets the
                // record aside: read as it is, it could delete or replace another value.
                guard let mended = mendedRecord(line) else {
                    setAside(position, reason)
                    continue
                }
                repaired?(position, StoreFiles.oneBitPutBack(in: mended.count))
                try apply(mended, at: position)
            }
        }
        // A cut-short append cannot end in anything but a prefix of its line; a whole record
        // without its newline is a damaged line end. A reader may see a line being written.
        let body = data[offset...].dropLast()
        if !isReading, case .intact(let payload) = checkedRecord(body) {
            let position = offset - data.startIndex
            guard let repaired else {
                throw Failure.corrupt(file: file, offset: position, reason: "damaged line end")
            }
            repaired(position, "damaged line end; its record is whole and kept")
            try apply(payload, at: position)
        }
        return (changes, offset - data.startIndex, latestGeneration)
    }

    /// The record `line` (damaged: its checksum does not match) with its one damaged bit put
    /// back: a bit of its JSON (``StoreFiles/CRC32/flippedBit(in:expected:)``), of its
    /// checksum's digits, or its space, when that makes the checksum match and the record
    /// decode with its generation and version. Nil otherwise.
    private static func mendedRecord(_ line: Data.SubSequence) -> Data? {
        guard line.count > 9 else { return nil }
        let payload = Data(line.dropLast(9))
        let digits = Data(line.suffix(8))
        let isSpaced = line[line.endIndex - 9] == UInt8(ascii: " ")
        let sum = CRC32.checksum(payload)
        var mended: Data?
        if CRC32.parse(digits) == sum {
            mended = payload  // The space was the damaged byte.
        } else if isSpaced {
            for bit in 0..<64 {
                var flipped = digits
                flipped[flipped.startIndex + bit / 8] ^= 1 << (bit % 8)
                if CRC32.parse(flipped) == sum { mended = payload }
            }
            if mended == nil, let stored = CRC32.parse(digits),
                let bit = CRC32.flippedBit(in: payload, expected: stored)
            {
                var flipped = payload
                flipped[flipped.startIndex + bit / 8] ^= 1 << (bit % 8)
                mended = flipped
            }
        }
        guard let mended else { return nil }
        do {
            let record = try JSONDecoder().decode(JournalRecord.self, from: mended)
            return record.generation != nil && record.version != nil ? mended : nil
        } catch is NewerSchema {
            // A newer build's record: it throws when it is read, as opening would, rather than
            // have it set aside.
            let header = try? JSONDecoder().decode(RecordHeader.self, from: mended)
            return header?.generation != nil ? mended : nil
        } catch {
            return nil
        }
    }

    /// The values of an intact record (`payload`, at byte `position` of `file`) that saves
    /// them, but for those that hold a bare NaN, which earlier releases saved
    /// (``StoreFiles/salvagedValues(of:file:at:arrayKey:versionKey:decode:)``); those are set
    /// aside. Nil when it is not such a record.
    private static func valuesWithoutNaN(
        _ payload: Data, of file: URL, at position: Int
    ) -> (changes: [StoredChange<Value>], generation: Int, setAside: [StoreRecovery.Damage])? {
        let bytes = [UInt8](payload)
        let head = Array(#"{"generation":"#.utf8)
        let digits = bytes.dropFirst(head.count).prefix {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        }
        let decoder = JSONDecoder()
        guard bytes.starts(with: head), (1...18).contains(digits.count),
            let recorded = Int(String(decoding: digits, as: UTF8.self)),
            bytes[(head.count + digits.count)...].starts(with: #","save":["#.utf8),
            let salvaged = StoreFiles.salvagedValues(
                of: payload, file: file, at: position, arrayKey: "save", versionKey: "version",
                decode: { items, version in
                    var record = Data(#"{"generation":\#(recorded),"save":"#.utf8)
                    record.append(items)
                    record.append(contentsOf: #","version":\#(version)}"#.utf8)
                    return try decoder.decode(JournalRecord.self, from: record).save ?? []
                }),
            !salvaged.values.isEmpty
        else { return nil }
        let version = StoreFiles.JSONBytes.arrayEnd(in: bytes, before: "version")?.1
        let unknown =
            version == Value.schemaVersion
            ? StoreFiles.unknownMembers(of: salvaged.values.map { ($0.value, bytes[$0.bytes]) })
            : [:]
        return (
            [StoredChange(change: .saved(salvaged.values.map(\.value)), unknownMembers: unknown)],
            generation(recorded), salvaged.setAside
        )
    }

    /// A journal line without its newline: its record's JSON when its checksum matches.
    private enum CheckedRecord {
        case intact(Data)
        case damaged(String)
    }

    private static func checkedRecord(_ line: Data.SubSequence) -> CheckedRecord {
        guard let space = line.lastIndex(of: UInt8(ascii: " ")), line.endIndex - space == 9,
            let checksum = CRC32.parse(line[(space + 1)...])
        else { return .damaged("no checksum") }
        let payload = line[..<space]
        guard CRC32.checksum(payload) == checksum else { return .damaged("wrong checksum") }
        return .intact(payload)
    }

    // MARK: - Recovering a damaged store

    /// Takes back a store that opening refuses as damaged (``Failure/corrupt``), keeping every
    /// value that can still be read: one flipped bit of a record or of the snapshot is put back
    /// from its checksum (``StoreFiles/CRC32/flippedBit(in:expected:)``); other damaged records
    /// are set aside (the values they saved stay as the records before them left them); of a
    /// snapshot with other damage, the values that still decode, in id order, are kept
    /// (unverified) and the others set aside (``StoreFiles/salvagedSnapshot(of:file:decode:)``),
    /// or the whole file when none do. The damaged files are copied beside them first, as they
    /// were, and the values are written as a new snapshot, of a later generation than any
    /// record, and the journal emptied. A sound store is left as it is. Takes the folder's
    /// lock, or uses `held`.
    static func recover(
        directory: URL, snapshot: String, journal: String, lock: String,
        holding held: StoreFiles.Lock? = nil
    ) throws -> StoreRecovery {
        let files = try StoreFiles.Journal<Failure>(
            directory: directory, snapshot: snapshot, journal: journal, lock: lock, holding: held)
        var setAside: [StoreRecovery.Damage] = []
        var unverified: [URL] = []
        var repaired: [StoreRecovery.Damage] = []
        var values = StoredValues<Value>()
        var generation = 0
        // The file's bytes are read again only when the snapshot does not read: held here,
        // they would add the file's size to everything that follows.
        if let intact = try? readSnapshot(files.snapshotURL) {
            (values, _, _, generation, _) = intact
        } else if let data = try StoreFiles.readIfPresent(
            files.snapshotURL, reporting: Failure.self),
            !StoreFiles.isDamaged(data), !StoreFiles.holdsABareNaN(CRC32.unchecked(data).json),
            StoreFiles.JSONBytes.isJSON(CRC32.unchecked(data).json)
        {
            // Its checksum matches, or it has none, and it is JSON: what fails is not damage.
            // Thrown as opening throws it. (A file without its checksum line that is not JSON
            // was cut short, or damaged there: it is read as far as it goes, below.)
            (values, _, _, generation, _) = try readSnapshot(files.snapshotURL)
        } else if let data = try StoreFiles.readIfPresent(
            files.snapshotURL, reporting: Failure.self),
            let (mended, bit) = StoreFiles.mendedFile(data),
            let read = try StoreFiles.readMended(
                mended, supported: Value.schemaVersion,
                read: { try readSnapshot($0, of: files.snapshotURL) })
        {
            // One flipped bit, put back from the checksum: the snapshot as it was written.
            (values, _, _, generation, _) = read
            repaired.append(
                StoreRecovery.Damage(
                    file: files.snapshotURL, offset: bit / 8,
                    reason: StoreFiles.oneBitPutBack(in: mended.count)))
            if mended.count > CRC32.certainMendSize { unverified.append(files.snapshotURL) }
        } else if let data = try StoreFiles.readIfPresent(
            files.snapshotURL, reporting: Failure.self),
            let newer = StoreFiles.newerVersion(of: data, supported: Value.schemaVersion)
        {
            // A newer build's values: this build would set every one aside.
            throw Failure.newerSchema(
                file: files.snapshotURL, found: newer, supported: Value.schemaVersion)
        } else if let data = try StoreFiles.readIfPresent(
            files.snapshotURL, reporting: Failure.self),
            let salvaged = StoreFiles.salvagedSnapshot(
                of: CRC32.unchecked(data).json, file: files.snapshotURL,
                decode: { try JSONDecoder().decode(SnapshotFile.self, from: $0).items })
        {
            // Value by value, in the order it was written: a value whose bytes hold the damage,
            // or whose id is out of that order, is set aside. Its generation may hold the
            // damaged byte too: every record is replayed over it, which leaves each value as
            // its last record did.
            values = salvaged.values
            unverified.append(files.snapshotURL)
            setAside += salvaged.setAside
        } else if let read = try? readSnapshot(files.snapshotURL, checked: false) {
            // An older layout (no schema version at its end): kept as read, as above.
            values = read.values
            unverified.append(files.snapshotURL)
        } else {
            setAside.append(
                StoreRecovery.Damage(
                    file: files.snapshotURL, offset: 0,
                    reason: StoreRecovery.Damage.undecodable))
        }
        let journalData =
            try StoreFiles.readIfPresent(files.journalURL, reporting: Failure.self) ?? Data()
        let replayed = try records(
            in: journalData, of: files.journalURL, from: 0, generation: generation,
            setAside: {
                setAside.append(
                    StoreRecovery.Damage(file: files.journalURL, offset: $0, reason: $1))
            },
            repaired: {
                repaired.append(
                    StoreRecovery.Damage(file: files.journalURL, offset: $0, reason: $1))
                // A bit put back in a large record: its values are to check.
                if $1.hasSuffix("check its values)"), !unverified.contains(files.journalURL) {
                    unverified.append(files.journalURL)
                }
            })
        values.apply(contentsOf: replayed.changes)
        let damaged = Set(setAside.map(\.file) + repaired.map(\.file) + unverified)
        guard !damaged.isEmpty else {
            return StoreRecovery(
                valuesKept: values.count, setAside: [], keptUnverified: [], repaired: [],
                copies: [])
        }
        var copies: [URL] = []
        for file in [files.snapshotURL, files.journalURL] where damaged.contains(file) {
            copies.append(try StoreFiles.keepCopy(of: file, reporting: Failure.self))
        }
        let written = try writeSnapshot(
            of: values, generation: max(generation, replayed.latestGeneration) + 1, to: files)
        // Until the journal is emptied, opening still meets its damaged record.
        guard written.folderSynced else {
            throw Failure.unwritable(
                file: directory, reason: "the folder could not be synced; recover it again")
        }
        try files.truncate(to: 0)
        return StoreRecovery(
            valuesKept: values.count, setAside: setAside, keptUnverified: unverified,
            repaired: repaired, copies: copies)
    }

    /// Takes back the files that ``importStore(snapshot:journal:in:lock:leftoversOnly:into:)``
    /// would import when a damaged one stops the import, as
    /// ``recover(directory:snapshot:journal:lock:holding:)`` takes back a store, under their
    /// `.importing` names: ``StoreFiles/recoverFormerStore(files:in:lock:leftoversOnly:reporting:recover:)``.
    /// Nil when there is nothing to import.
    static func recoverImport(
        snapshot: String, journal: String, in directory: URL, lock: String,
        leftoversOnly: Bool = false
    ) throws -> StoreRecovery? {
        try StoreFiles.recoverFormerStore(
            files: [snapshot, journal], in: directory, lock: lock, leftoversOnly: leftoversOnly,
            reporting: Failure.self,
            recover: { names, held in
                try recover(
                    directory: directory, snapshot: names[0], journal: names[1], lock: lock,
                    holding: held)
            })
    }

    // MARK: - File formats

    /// The snapshot file. Its schema version is decoded first, so a newer layout is refused
    /// before its values are misread.
    /// ``SnapshotWriter`` writes it.
    private nonisolated struct SnapshotFile: Decodable {
        var schemaVersion: Int
        /// Absent in snapshots written before generations: 0.
        var generation: Int?
        /// The writer's known keys; absent when not known (written by an earlier release, or
        /// holding a newer build's keys): ``StoreFiles/mayHoldUnknownKeys(_:of:)``.
        var fields: [String]?
        var items: [Value]

        private enum CodingKeys: String, CodingKey {
            case schemaVersion, generation, fields, items
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
            guard schemaVersion <= Value.schemaVersion else {
                throw NewerSchema(found: schemaVersion)
            }
            generation = try container.decodeIfPresent(Int.self, forKey: .generation)
            fields = try container.decodeIfPresent([String].self, forKey: .fields)
            items = try Value.decodeStored(
                schemaVersion, from: container.superDecoder(forKey: .items))
        }
    }

    /// A record's generation and schema version, without its values.
    private nonisolated struct RecordHeader: Decodable {
        var generation: Int?
        var version: Int?
    }

    /// One change in the journal: values saved, ids deleted, or everything removed. The schema
    /// version is in every record, so a record an earlier version wrote is migrated when it is
    /// replayed (say, after a crash between a new snapshot and emptying the journal).
    private nonisolated struct JournalRecord: Codable {
        var version: Int?
        /// The generation of the snapshot this record follows; absent in older records: 0.
        var generation: Int?
        var save: [Value]?
        var delete: [Value.ID]?
        var removeAll: Bool?

        init(_ change: StoreChange<Value>, generation: Int) {
            self.version = Value.schemaVersion
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
            guard stored <= Value.schemaVersion else {
                throw NewerSchema(found: stored)
            }
            save =
                try container.contains(.save) && !container.decodeNil(forKey: .save)
                ? Value.decodeStored(stored, from: container.superDecoder(forKey: .save))
                : nil
            delete = try container.decodeIfPresent([Value.ID].self, forKey: .delete)
            removeAll = try container.decodeIfPresent(Bool.self, forKey: .removeAll)
        }

        /// What the record changes, in the order it applies them. A record written by this
        /// code holds one change.
        var changes: [StoreChange<Value>] {
            (removeAll == true ? [.removedAll] : [])
                + (delete.map { [.deleted($0)] } ?? []) + (save.map { [.saved($0)] } ?? [])
        }

        /// `<JSON> <CRC-32 of the JSON, 8 hex digits>\n`; the JSON has no newline in it. Each
        /// value saved has its members in `unknown` (``StoredValues/unknownMembers``) after its
        /// own.
        func encodedLine(adding unknown: [Value.ID: [Data]] = [:]) throws -> Data {
            let encoder = JournalStore.encoder()
            var line: Data
            if let save, delete == nil, removeAll == nil, let generation, let version,
                save.contains(where: { unknown[$0.id] != nil })
            {
                // As the encoder writes it (sorted keys), the values with their members.
                line = Data("{\"generation\":\(generation),\"save\":".utf8)
                line.append(try StoreFiles.encodedArray(save, adding: unknown, with: encoder))
                line.append(contentsOf: ",\"version\":\(version)}".utf8)
            } else {
                line = try StoreFiles.readableJSON(encoder.encode(self))
            }
            line.append(contentsOf: Array(" \(CRC32.format(CRC32.checksum(line)))\n".utf8))
            return line
        }
    }
}
