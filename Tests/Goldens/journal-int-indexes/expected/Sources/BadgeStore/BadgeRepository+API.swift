public import Foundation

extension BadgeRepository {
    /// One committed change, as ``changes()`` publishes it once it is on disk: values
    /// ``StoreChange/saved(_:)``, ids ``StoreChange/deleted(_:)``, or
    /// ``StoreChange/removedAll``.
    public typealias Change = StoreChange<Badge>

    // MARK: - Reading: from memory, in id order

    /// How many values the store holds.
    public var count: Int { values.count }

    /// The value with `id`, or nil when there is none.
    public func find(by id: Int) -> Badge? {
        values[id]
    }

    /// Every value, in the order of ``precedes(_:_:)``. The store keeps them in that order, so
    /// this is a copy, not a sort.
    public func loadAll() -> [Badge] {
        values.items
    }

    /// The values that `isIncluded` accepts, in the order of ``loadAll()``.
    public func loadAll(where isIncluded: @Sendable (Badge) -> Bool) -> [Badge] {
        values.filter(isIncluded)
    }

    /// How many values `isIncluded` accepts.
    public func count(where isIncluded: @Sendable (Badge) -> Bool) -> Int {
        values.count(where: isIncluded)
    }

    /// For each unique field, the values that more than one stored value holds: they were
    /// stored before the field was `:unique`, and are kept. Saving one of those values throws
    /// ``BadgeRepositoryError/notUnique(field:value:)`` until its field differs.
    public func duplicates() -> [String: [String]] {
        indexes.duplicates(in: values)
    }

    /// The value whose `code` is `code`, or nil: unique, and read through its index.
    public func find(byCode code: String) -> Badge? {
        indexes.ids("code", AnyHashable(code), in: values).first.flatMap { values[$0] }
    }

    /// The values whose `level` is `level`, in id order, read through its index.
    public func badges(withLevel level: Int) -> [Badge] {
        indexes.ids("level", AnyHashable(level), in: values).compactMap { values[$0] }
    }

    /// The order of ids in ``loadAll()`` and in the stored file, the same on every run:
    /// `<`.
    public nonisolated static func precedes(_ first: Int, _ second: Int) -> Bool {
        first < second
    }

    // MARK: - Writing: each call is one durable write

    /// Stores `badge`, replacing the value with the same id.
    public func save(_ badge: Badge) throws {
        try commit(.saved([badge]))
    }

    /// Stores every value in `badges` at once; of values with the same id, the last wins.
    public func save(contentsOf badges: [Badge]) throws {
        guard !badges.isEmpty else { return }
        try commit(.saved(badges))
    }

    /// Changes the value with `id` in place and stores it, as one durable write. The id stays
    /// what it was. Returns false, and writes nothing, when there is no value with `id`.
    @discardableResult
    public func update(
        id: Int, _ change: @Sendable (inout Badge) -> Void
    ) throws -> Bool {
        guard var value = values[id] else { return false }
        change(&value)
        value.id = id
        try save(value)
        return true
    }

    /// Removes the value with `id`, if there is one.
    public func delete(_ id: Int) throws {
        try delete(ids: [id])
    }

    /// Removes the values with these ids; ids that are not stored are ignored.
    public func delete(ids: [Int]) throws {
        let stored = ids.filter { values[$0] != nil }
        guard !stored.isEmpty else { return }
        try commit(.deleted(stored))
    }

    /// Removes every value.
    public func removeAll() throws {
        guard !values.isEmpty else { return }
        try commit(.removedAll)
    }

    // MARK: - Observing

    /// The changes committed from now on, in order, each once it is on disk. Every call gives
    /// a stream of its own; it ends when the task reading it is cancelled.
    ///
    /// To show the values and keep them current, call this first, then ``loadAll()``, then
    /// read the stream: a change may then appear in both, and applying it again changes
    /// nothing, but none is missed.
    public func changes() -> AsyncStream<Change> {
        followWriter()
        return observers.changes { [weak self] key in
            Task { await self?.stopObserving(key) }
        }
    }

    /// For a repository opened with ``init(readingFrom:)``: starts a task that calls
    /// ``refresh()`` every ``otherProcessesInterval`` while ``changes()`` has a reader, so that
    /// observers and view-models follow the writer by themselves.
    private func followWriter() {
        guard isReader, !followsWriter else { return }
        followsWriter = true
        let interval = Self.otherProcessesInterval
        Task { [weak self] in
            while true {
                try? await Task.sleep(nanoseconds: interval)
                guard let self, await self.refreshWhileObserved() else { return }
            }
        }
    }

    /// Refreshes; false, ending the task, once nothing observes or the repository is closed.
    private func refreshWhileObserved() -> Bool {
        guard observers.count > 0, !isClosed else {
            followsWriter = false
            return false
        }
        try? refresh()  // Tried again at the next look.
        return true
    }

    /// ``changes()`` with the revision each change made, and the values and revision as of now,
    /// read together: a change in the stream with a revision up to that one is in the values
    /// already. The view-model uses it to skip changes it has, and to know when it has one.
    func valuesAndChanges(
        where isIncluded: (@Sendable (Badge) -> Bool)?
    ) -> (values: [Badge], revision: Int, changes: AsyncStream<Revised<Badge>>) {
        followWriter()
        let stream = observers.revisions { [weak self] key in
            Task { await self?.stopObserving(key) }
        }
        let shown = isIncluded.map { values.filter($0) } ?? values.items
        return (shown, observers.revision, stream)
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
    /// for the same folder get the same instance, where a second ``init(directory:)`` would
    /// throw ``BadgeRepositoryError/locked(file:)``. It is opened on first use (or again after
    /// ``close()``), off the caller's actor, so the main thread never waits for the disk.
    public static func shared(in directory: URL) async throws -> BadgeRepository {
        try await openRepositories.repository(in: directory)
    }

    /// The shared repository in ``defaultDirectory()``.
    public static func shared() async throws -> BadgeRepository {
        try await shared(in: defaultDirectory())
    }

    private static let openRepositories = OpenRepositories<BadgeRepository>()
}

/// ``BadgeRepository/shared(in:)`` keeps one open instance per folder.
extension BadgeRepository: SharedRepository {}

/// How the store code that every repository in this module shares (`StoredValues.swift`)
/// orders and reads ``Badge`` values.
nonisolated extension Badge: StoredValue {
    static var schemaVersion: Int { BadgeRepository.schemaVersion }

    /// The keys of the JSON this build knows: its fields', their former ones, and those of
    /// fields dropped since this schema version began (their values are to go). A stored
    /// value's others are a newer build's fields (an app extension not updated yet shares the
    /// folder): the store writes them back as they were whenever it writes the value again.
    static let knownKeys: Set<String>? = [
        "code",
        "id",
        "level",
    ]

    static func precedes(_ first: Int, _ second: Int) -> Bool {
        BadgeRepository.precedes(first, second)
    }
}
