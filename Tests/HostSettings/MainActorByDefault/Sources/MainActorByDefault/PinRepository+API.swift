public import Foundation

extension PinRepository {
    /// One committed change, as ``changes()`` publishes it once it is on disk: values
    /// ``StoreChange/saved(_:)``, ids ``StoreChange/deleted(_:)``, or
    /// ``StoreChange/removedAll``.
    public typealias Change = StoreChange<Pin>

    // MARK: - Reading: from the database, a query at a time

    /// How many values the store holds.
    public var count: Int {
        get throws { try table.count() }
    }

    /// The value with `id`, or nil when there is none.
    public func find(by id: Int) throws -> Pin? {
        try table.find(id)
    }

    /// Every value, in the order of ``precedes(_:_:)``. This reads the whole table into memory:
    /// for a store that grows, read a page with a ``Query`` and ``loadAll(_:)``.
    public func loadAll() throws -> [Pin] {
        try table.values(Query())
    }

    /// The values that `isIncluded` accepts, in the order of ``loadAll()``: a scan that reads
    /// every row and decides in Swift. A ``Query`` filters in SQL instead.
    public func loadAll(where isIncluded: @Sendable (Pin) -> Bool) throws -> [Pin] {
        var found: [Pin] = []
        try table.scan { if isIncluded($0) { found.append($0) } }
        return found
    }

    /// How many values `isIncluded` accepts: a scan, as ``loadAll(where:)`` is.
    public func count(where isIncluded: @Sendable (Pin) -> Bool) throws -> Int {
        var count = 0
        try table.scan { if isIncluded($0) { count += 1 } }
        return count
    }

    /// A query, run in SQL: filters on ``Fields``, a sort, a limit with an offset, or the page
    /// after a value (``StoreQuery/after(_:)``).
    ///
    ///     let page = try await repository.loadAll(
    ///         Query().filter(Fields.id.isGreater(than: last)).limit(50))
    public typealias Query = StoreQuery<Pin>

    /// The fields of ``Pin`` that a ``Query`` filters and sorts on.
    public nonisolated enum Fields {
        public static let id = QueryField<Pin, Int>(id: { $0.id })
        public static let memoID = QueryField<Pin, Memo.ID>("memoID") { $0.memoID }
        public static let label = QueryField<Pin, String>("label") { $0.label }
        public static let rank = QueryField<Pin, Int>("rank") { $0.rank }
        public static let noteID = QueryField<Pin, Memo.ID?>("noteID") { $0.noteID }
    }

    /// The values `query` selects, in its order: filtered, sorted and limited in SQL.
    public func loadAll(_ query: Query) throws -> [Pin] {
        try table.values(query)
    }

    /// How many values `query`'s filters select, whatever its limit, offset and cursor.
    public func count(_ query: Query) throws -> Int {
        try table.count(query)
    }

    /// For each unique field, the values that more than one stored value holds: they were
    /// stored before the field was `:unique`, and are kept. Saving one of those values throws
    /// ``PinRepositoryError/notUnique(field:value:)`` until its field differs.
    public func duplicates() throws -> [String: [String]] {
        try table.duplicates()
    }

    /// The ids of the values whose reference names no stored value: they were stored before the
    /// field was a reference, and are kept. SQL reads every value's reference and looks it up;
    /// only the values it finds are decoded. Saving one throws
    /// ``PinRepositoryError/missingReference(field:id:)`` until it names a stored value.
    public func danglingReferences() throws -> [Int] {
        try table.dangling()
    }

    /// The values whose `memoID` is `memoID`, read through its index, in `query`'s
    /// order (id order by default), offset and limit: add sorts and a limit to page through them.
    public func pins(
        inMemo memoID: Memo.ID, _ query: Query = Query()
    ) throws -> [Pin] {
        try table.values(query.filter(Fields.memoID.isEqual(to: memoID)))
    }

    /// The value whose `label` is `label`, or nil: unique, and read through its index.
    public func find(byLabel label: String) throws -> Pin? {
        try table.values(Query().filter(Fields.label.isEqual(to: label)).limit(1)).first
    }

    /// The values whose `rank` is `rank`, read through its index, in `query`'s
    /// order (id order by default), offset and limit: add sorts and a limit to page through them.
    public func pins(
        withRank rank: Int, _ query: Query = Query()
    ) throws -> [Pin] {
        try table.values(query.filter(Fields.rank.isEqual(to: rank)))
    }

    /// The values whose `noteID` is `noteID`, read through its index, in `query`'s
    /// order (id order by default), offset and limit: add sorts and a limit to page through them.
    public func pins(
        inNote noteID: Memo.ID, _ query: Query = Query()
    ) throws -> [Pin] {
        try table.values(query.filter(Fields.noteID.isEqual(to: noteID)))
    }

    /// The order of ids in ``loadAll()`` and in the stored file, the same on every run:
    /// `<`.
    public nonisolated static func precedes(_ first: Int, _ second: Int) -> Bool {
        first < second
    }

    // MARK: - Writing: each call is one durable write

    /// Stores `pin`, replacing the value with the same id.
    public func save(_ pin: Pin) throws {
        try commit(.saved([pin]))
    }

    /// Stores every value in `pins` at once; of values with the same id, the last wins.
    public func save(contentsOf pins: [Pin]) throws {
        guard !pins.isEmpty else { return }
        try commit(.saved(pins))
    }

    /// Changes the value with `id` in place and stores it, as one durable write. The id stays
    /// what it was. Returns false, and writes nothing, when there is no value with `id`.
    @discardableResult
    public func update(
        id: Int, _ change: @Sendable (inout Pin) -> Void
    ) throws -> Bool {
        // Read and written in one transaction: another connection's write cannot fall between.
        let updated = try table.database.transaction { () throws -> (Pin, SQLiteEffects)? in
            guard var value = try table.find(id) else { return nil }
            change(&value)
            value.id = id
            let effects = try table.commit(.saved([value]))
            try SQLiteChangeLog.record(effects, in: table.database)  // For other processes.
            return (value, effects)
        }
        guard let (value, effects) = updated else { return false }
        observers.publish(.saved([value]))
        tellOtherRepositories(effects)
        return true
    }

    /// Removes the value with `id`, if there is one.
    public func delete(_ id: Int) throws {
        try delete(ids: [id])
    }

    /// Removes the values with these ids; ids that are not stored are ignored.
    public func delete(ids: [Int]) throws {
        let stored = try table.stored(ids)
        guard !stored.isEmpty else { return }
        try commit(.deleted(stored))
    }

    /// Removes every value.
    public func removeAll() throws {
        guard try !table.isEmpty() else { return }
        try commit(.removedAll)
    }

    /// Runs `body` in one transaction on this repository's connection: its writes to the
    /// tables of any of the module's sqlite models (`transaction.save(value)`,
    /// `transaction.delete(Pin.self, id: id)`, with their delete rules) reach the disk
    /// together when it returns, or not at all when it throws. Then each repository in this
    /// process tells its ``changes()`` what changed in its table. A reference must name a value
    /// saved before it, in the transaction or earlier.
    ///
    /// - Throws: what `body` throws, each write throwing its own model's repository error.
    @discardableResult
    public func transaction<Result: Sendable>(
        _ body: @Sendable (StoreTransaction) throws -> Result
    ) throws -> Result {
        let transaction = StoreTransaction(database)
        defer { transaction.finish() }
        let result = try database.transaction {
            let result = try body(transaction)
            try SQLiteChangeLog.record(transaction.effects, in: database)
            return result
        }
        tellOtherRepositories(transaction.effects)
        hear(transaction.effects.keys(in: Self.tableName))
        return result
    }

    // MARK: - Observing

    /// The changes committed from now on, in order, each once it is on disk. Every call gives
    /// a stream of its own; it ends when the task reading it is cancelled.
    ///
    /// To show the values and keep them current, call this first, then ``loadAll()``, then
    /// read the stream: a change may then appear in both, and applying it again changes
    /// nothing, but none is missed.
    public func changes() -> AsyncStream<Change> {
        hearOtherWrites()
        followOtherProcesses()
        return observers.changes { [weak self] key in
            Task { await self?.stopObserving(key) }
        }
    }

    /// The first `size` values of `query`, whether more follow, and ``changes()`` with the
    /// revision each change made, read together: a change in the stream with a revision up to
    /// the one returned is in the values already. The view-model shows a window with it.
    func firstPageAndChanges(
        _ query: Query, size: Int
    ) throws -> (
        values: [Pin], isComplete: Bool, revision: Int,
        changes: AsyncStream<Revised<Pin>>
    ) {
        // Heard from before the page is read: a cascade that commits meanwhile is not missed.
        hearOtherWrites()
        followOtherProcesses()
        let page = try table.values(query.limit(size + 1))
        let stream = observers.revisions { [weak self] key in
            Task { await self?.stopObserving(key) }
        }
        return (Array(page.prefix(size)), page.count <= size, observers.revision, stream)
    }

    /// Starts hearing, once, what other repositories in this process write to this table: a
    /// cascade or nullify from a delete in another model, a transaction. Each write reaches
    /// ``hear(_:)`` in order.
    private func hearOtherWrites() {
        guard !hearsOtherWrites, !database.isInMemory else { return }
        hearsOtherWrites = true
        let (writes, heard) = AsyncStream.makeStream(of: [SQLiteArgument].self)
        SQLiteChangeCenter.shared.listen(
            ObjectIdentifier(self), file: databaseURL, table: Self.tableName,
            receive: { heard.yield($0) }, stop: { heard.finish() })
        Task { [weak self] in
            for await keys in writes { await self?.hear(keys) }
        }
    }

    /// Starts a task that, every ``otherProcessesInterval`` while ``changes()`` has a reader,
    /// publishes what other processes committed to this table since it started.
    private func followOtherProcesses() {
        guard !followsOtherProcesses, !database.isInMemory else { return }
        // From now: what a page read after this shows may come again, which changes nothing,
        // but nothing committed after it is missed (the version first: a commit between the
        // two reads is then read from the log).
        dataVersionHeard = try? database.dataVersion()
        lastLogRowHeard = (try? table.lastLogged()) ?? lastLogRowHeard
        pollOtherProcesses()
    }

    /// The task of ``followOtherProcesses()``, which ``resume()`` starts again.
    private func pollOtherProcesses() {
        guard !followsOtherProcesses else { return }
        followsOtherProcesses = true
        let interval = Self.otherProcessesInterval
        Task { [weak self] in
            while true {
                try? await Task.sleep(nanoseconds: interval)
                guard let self, await self.hearOtherProcesses() else { return }
            }
        }
    }

    /// Publishes what other processes committed since the last look, when `data_version` says
    /// another connection committed, and the rows that could not be read before. Returns
    /// false, ending the task, once nothing observes.
    private func hearOtherProcesses() async -> Bool {
        guard !database.isSuspended else { return true }
        guard observers.count > 0, !database.isClosed else {
            followsOtherProcesses = false
            return false
        }
        if !keysNotHeardYet.isEmpty { hear([]) }
        await goOnPublishingEveryValue()
        guard !database.isClosed else {
            followsOtherProcesses = false
            return false
        }
        guard let (version, lastLogged) = try? table.dataVersionAndLastLogged() else {
            return true
        }
        guard version != dataVersionHeard else {
            // No other connection committed since: the log's rows since are this one's own,
            // heard already. Past them, so that once the log has dropped them (10,000 rows on),
            // the next write elsewhere is read by its ids, not by reading every value again.
            lastLogRowHeard = max(lastLogRowHeard, lastLogged)
            return true
        }
        // Read, or tried again at the next look.
        let heard: [SQLiteArgument]?
        do { heard = try readWhatOtherProcessesChanged() } catch { return true }
        dataVersionHeard = version
        guard let keys = heard else {
            startPublishingEveryValue()
            await goOnPublishingEveryValue()
            return true
        }
        // A thousand rows at a time, letting this repository's other calls (a save) run
        // between: another process's write of a million values does not hold them up.
        var start = 0
        while start < keys.count {
            if start > 0 { await Task.yield() }
            // Closed meanwhile: nothing is read again, nor kept to read.
            guard !database.isClosed else {
                followsOtherProcesses = false
                return false
            }
            hear(Array(keys[start..<min(keys.count, start + 1_000)]))
            start += 1_000
        }
        return true
    }

    /// The keys of the rows other processes changed after the last log row heard, for
    /// ``hear(_:)``; nil when the log no longer reaches that far (this process was suspended
    /// while others wrote more than it keeps): every value is published again.
    private func readWhatOtherProcessesChanged() throws -> [SQLiteArgument]? {
        let (ids, last) = try table.idsChangedElsewhere(after: lastLogRowHeard)
        lastLogRowHeard = last
        return ids?.map(\.argument)
    }

    /// Publishes ``StoreChange/removedAll``, then the first page of every value again;
    /// ``goOnPublishingEveryValue()`` publishes the others.
    private func startPublishingEveryValue() {
        observers.publish(.removedAll)
        everyValueCursor = .init(after: nil)
        _ = publishNextPageOfEveryValue()
    }

    /// Publishes more of every value, a thousand at a time, letting this repository's other
    /// calls (a save) run between: a store of a million values is never read, nor held, at
    /// once. A look publishes a hundred pages at most, so that other processes' changes, read
    /// after them, wait for no more; it stops while the repository is suspended or a page
    /// cannot be read, to go on at the next look.
    private func goOnPublishingEveryValue() async {
        var pages = 0
        while pages < 100, publishNextPageOfEveryValue() {
            pages += 1
            await Task.yield()
        }
    }

    /// Publishes the next thousand values after ``everyValueCursor``; false when there is none
    /// to publish, none could be read now, or nothing observes any more (which ends the
    /// publishing). A row that cannot be read now is published once it can be (after
    /// `recover`).
    private func publishNextPageOfEveryValue() -> Bool {
        guard let cursor = everyValueCursor else { return false }
        guard observers.count > 0 else {
            everyValueCursor = nil
            return false
        }
        guard !database.isSuspended, !database.isClosed,
            let page = try? table.readableValues(after: cursor.after, limit: 1_000)
        else { return false }
        keysNotHeardYet += page.unread.map(\.argument)
        if !page.values.isEmpty { observers.publish(.saved(page.values)) }
        everyValueCursor = page.last.map { .init(after: $0) }
        return true
    }

    /// After ``resume()``: what other repositories in this process wrote meanwhile, and what
    /// other processes committed.
    func hearWhatWasMissed() {
        hear([])
        // The new connection counts `data_version` afresh.
        dataVersionHeard = nil
        guard observers.count > 0, !database.isInMemory else { return }
        do {
            if let keys = try readWhatOtherProcessesChanged() {
                hear(keys)
            } else {
                startPublishingEveryValue()
            }
        } catch {
            // Read again at the next look.
        }
        pollOtherProcesses()
    }

    /// Publishes the rows `keys` of this table, which another repository's write changed, as
    /// they are now: saved, or deleted, with the rows that could not be read before. A row that
    /// cannot be read now waits for the next look; while the repository is suspended, every
    /// key waits for ``resume()``.
    private func hear(_ keys: [SQLiteArgument]) {
        keysNotHeardYet += keys
        guard !database.isSuspended, !keysNotHeardYet.isEmpty else { return }
        let ids = keysNotHeardYet.compactMap(Int.init(argument:))
        keysNotHeardYet = []
        let (saved, deleted, unread) = table.current(ids)
        keysNotHeardYet = unread.map(\.argument)
        if !deleted.isEmpty { observers.publish(.deleted(deleted)) }
        if !saved.isEmpty { observers.publish(.saved(saved)) }
    }

    /// Tells the other repositories in this process what a write changed in their tables.
    func tellOtherRepositories(_ effects: SQLiteEffects) {
        guard !database.isInMemory else { return }
        SQLiteChangeCenter.shared.post(
            effects, file: databaseURL, origin: ObjectIdentifier(self), table: Self.tableName)
    }

    /// The `size` values after the last of a window (`query`'s cursor), whether more follow,
    /// and the revision they were read at.
    func page(
        _ query: Query, size: Int
    ) throws -> (values: [Pin], isComplete: Bool, revision: Int) {
        let page = try table.values(query.limit(size + 1))
        return (Array(page.prefix(size)), page.count <= size, observers.revision)
    }

    /// How many changes this instance has committed: the revision of the last one.
    var revision: Int { observers.revision }

    private func stopObserving(_ key: Int) {
        observers.remove(key)
    }

    /// How many streams from ``changes()`` are open.
    public var observerCount: Int { observers.count }

    // MARK: - One instance per folder

    /// The repository for `directory`, shared by every caller in this process: screens that ask
    /// for the same folder get the same instance, so each sees the others' changes through
    /// ``changes()``. It is opened on first use (or again after ``close()``), off the caller's
    /// actor, so the main thread never waits for the disk.
    public static func shared(in directory: URL) async throws -> PinRepository {
        try await openRepositories.repository(in: directory)
    }

    /// The shared repository in ``defaultDirectory()``.
    public static func shared() async throws -> PinRepository {
        try await shared(in: defaultDirectory())
    }

    private static let openRepositories = OpenRepositories<PinRepository>()
}

/// ``PinRepository/shared(in:)`` keeps one open instance per folder.
extension PinRepository: SharedRepository {}

/// How the store code that every repository in this module shares (`StoredValues.swift`)
/// orders and reads ``Pin`` values.
nonisolated extension Pin: StoredValue {
    static var schemaVersion: Int { PinRepository.schemaVersion }

    /// The keys of the JSON this build knows: its fields', their former ones, and those of
    /// fields dropped since this schema version began (their values are to go). A stored
    /// value's others are a newer build's fields (an app extension not updated yet shares the
    /// folder): the store writes them back as they were whenever it writes the value again.
    static let knownKeys: Set<String>? = [
        "id",
        "label",
        "memoID",
        "noteID",
        "rank",
    ]

    static func precedes(_ first: Int, _ second: Int) -> Bool {
        PinRepository.precedes(first, second)
    }
}

/// ``Pin`` in a ``PinRepository/transaction(_:)``: its table, on the connection of the
/// repository that runs it.
nonisolated extension StoreTransaction {
    /// Stores `pin`, replacing the value with the same id.
    public func save(_ pin: Pin) throws {
        try save(contentsOf: [pin])
    }

    /// Stores every value in `pins`; of values with the same id, the last wins.
    public func save(contentsOf pins: [Pin]) throws {
        let table = try pinsTable()
        // In a savepoint: a call that throws undoes its own writes, even when the closure
        // catches the error and goes on.
        try table.database.transaction { try table.save(pins) }
        record(saved: pins.map(\.id.argument), in: PinRepository.tableName)
    }

    /// Removes the Pin values with these ids, and follows the delete rules of the
    /// references to them; ids that are not stored are ignored.
    public func delete(_: Pin.Type, ids: [Int]) throws {
        let table = try pinsTable()
        record(try table.database.transaction { try table.delete(ids) })
    }

    /// Removes the Pin value with `id`, if there is one, as ``delete(_:ids:)`` does.
    public func delete(_: Pin.Type, id: Int) throws {
        try delete(Pin.self, ids: [id])
    }

    /// The Pin value with `id` as the transaction has it so far, or nil.
    public func find(_: Pin.Type, id: Int) throws -> Pin? {
        try pinsTable().find(id)
    }

    private func pinsTable() throws -> SQLiteTable<Pin, PinRepositoryError> {
        try table(PinRepository.tableName) { database in
            return try SQLiteTable(
                PinRepository.tableName, in: database, schema: PinRepository.schema)
        }
    }
}
