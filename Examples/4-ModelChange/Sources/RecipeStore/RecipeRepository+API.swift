public import Foundation

// Workshop: this file is what callers use, the same for every storage: reading from memory,
// writing through `commit`, the stream of changes, and one instance per folder.
// RecipeRepository.swift opens the storage, which puts each change on disk.

extension RecipeRepository {
    /// One committed change, as ``changes()`` publishes it once it is on disk: values
    /// ``StoreChange/saved(_:)``, ids ``StoreChange/deleted(_:)``, or
    /// ``StoreChange/removedAll``.
    public typealias Change = StoreChange<Recipe>

    // MARK: - Reading: from memory, in id order

    /// How many values the store holds.
    public var count: Int { values.count }

    /// The value with `id`, or nil when there is none.
    public func find(by id: UUID) -> Recipe? {
        values[id]
    }

    /// Every value, in the order of ``precedes(_:_:)``. The store keeps them in that order, so
    /// this is a copy, not a sort.
    public func loadAll() -> [Recipe] {
        values.items
    }

    /// The values that `isIncluded` accepts, in the order of ``loadAll()``.
    public func loadAll(where isIncluded: @Sendable (Recipe) -> Bool) -> [Recipe] {
        values.filter(isIncluded)
    }

    /// How many values `isIncluded` accepts.
    public func count(where isIncluded: @Sendable (Recipe) -> Bool) -> Int {
        values.count(where: isIncluded)
    }

    /// The order of ids in ``loadAll()`` and in the stored file, the same on every run:
    /// UUIDs compare by their 16 bytes, which is the order of their `uuidString`, without
    /// building a string per comparison.
    public nonisolated static func precedes(_ first: UUID, _ second: UUID) -> Bool {
        withUnsafeBytes(of: first.uuid) { first in
            withUnsafeBytes(of: second.uuid) { second in
                first.lexicographicallyPrecedes(second)
            }
        }
    }

    // MARK: - Writing: each call is one durable write

    /// Stores `recipe`, replacing the value with the same id.
    public func save(_ recipe: Recipe) throws {
        try commit(.saved([recipe]))
    }

    /// Stores every value in `recipes` at once; of values with the same id, the last wins.
    public func save(contentsOf recipes: [Recipe]) throws {
        guard !recipes.isEmpty else { return }
        try commit(.saved(recipes))
    }

    /// Changes the value with `id` in place and stores it, as one durable write. The id stays
    /// what it was. Returns false, and writes nothing, when there is no value with `id`.
    @discardableResult
    public func update(
        id: UUID, _ change: @Sendable (inout Recipe) -> Void
    ) throws -> Bool {
        guard var value = values[id] else { return false }
        change(&value)
        value.id = id
        try save(value)
        return true
    }

    /// Removes the value with `id`, if there is one.
    public func delete(_ id: UUID) throws {
        try delete(ids: [id])
    }

    /// Removes the values with these ids; ids that are not stored are ignored.
    public func delete(ids: [UUID]) throws {
        let stored = ids.filter { values[$0] != nil }
        guard !stored.isEmpty else { return }
        try commit(.deleted(stored))
    }

    /// Removes every value.
    public func removeAll() throws {
        guard !values.isEmpty else { return }
        try commit(.removedAll)
    }

    // Workshop: a view-model subscribes here and applies each change to its list, so two
    // screens, and saves made straight on the repository, stay in step without reloading.

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

    // Workshop: a reader in another process holds no lock and hears nothing: while something
    // observes it, it reads the files again, which costs two `stat` calls when nothing changed.

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
        where isIncluded: (@Sendable (Recipe) -> Bool)?
    ) -> (values: [Recipe], revision: Int, changes: AsyncStream<Revised<Recipe>>) {
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
    /// throw ``RecipeRepositoryError/locked(file:)``. It is opened on first use (or again after
    /// ``close()``), off the caller's actor, so the main thread never waits for the disk.
    public static func shared(in directory: URL) async throws -> RecipeRepository {
        try await openRepositories.repository(in: directory)
    }

    /// The shared repository in ``defaultDirectory()``.
    public static func shared() async throws -> RecipeRepository {
        try await shared(in: defaultDirectory())
    }

    private static let openRepositories = OpenRepositories<RecipeRepository>()
}

/// ``RecipeRepository/shared(in:)`` keeps one open instance per folder.
extension RecipeRepository: SharedRepository {}

/// How the store code that every repository in this module shares (`StoredValues.swift`)
/// orders and reads ``Recipe`` values.
nonisolated extension Recipe: StoredValue {
    static var schemaVersion: Int { RecipeRepository.schemaVersion }

    /// The keys of the JSON this build knows: its fields', their former ones, and those of
    /// fields dropped since this schema version began (their values are to go). A stored
    /// value's others are a newer build's fields (an app extension not updated yet shares the
    /// folder): the store writes them back as they were whenever it writes the value again.
    static let knownKeys: Set<String>? = [
        "id",
        "level",
        "minutes",
        "name",
        "servings",
        "title",
        "title>name",
    ]

    static func precedes(_ first: UUID, _ second: UUID) -> Bool {
        RecipeRepository.precedes(first, second)
    }

    // `decodeVersion` is in RecipeVersions.swift: a build without that file (not added to
    // the app's target) fails here, rather than read earlier versions' values as the current
    // model, which the store would refuse to open with.
    static func decodeStored(_ version: Int, from decoder: any Swift.Decoder) throws -> [Recipe] {
        try decodeVersion(version, from: decoder)
    }
}
