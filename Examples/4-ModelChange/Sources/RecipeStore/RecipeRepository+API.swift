public import Foundation

// Workshop: this file is what callers use, the same for every storage: reading from memory,
// writing through `commit`, the stream of changes, and one instance per folder.
// RecipeRepository.swift decides how a change reaches the disk.

extension RecipeRepository {
    /// One committed change, as ``changes()`` publishes it once it is on disk.
    public nonisolated enum Change: Sendable, Hashable {
        /// These values were stored: added, or replacing the values with their ids.
        case saved([Recipe])
        /// The values with these ids were removed.
        case deleted([UUID])
        /// Every value was removed.
        case removedAll
    }

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
        values.items.filter(isIncluded)
    }

    /// How many values `isIncluded` accepts.
    public func count(where isIncluded: @Sendable (Recipe) -> Bool) -> Int {
        values.items.count(where: isIncluded)
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
        let (stream, continuation) = AsyncStream.makeStream(of: Change.self)
        let key = observers.add(continuation)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.stopObserving(key) }
        }
        return stream
    }

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

    private static let openRepositories = OpenRepositories()

    /// The repositories that ``shared(in:)`` opened, by folder. It does not keep them alive: a
    /// repository no one holds any more is closed, and the next call opens it again.
    private actor OpenRepositories {
        private struct WeakReference {
            weak var repository: RecipeRepository?
        }

        private var entries: [String: WeakReference] = [:]

        func repository(in directory: URL) async throws -> RecipeRepository {
            let key = directory.standardizedFileURL.resolvingSymlinksInPath().path
            while let open = entries[key]?.repository {
                if await !open.isClosed { return open }
                // Another call may have replaced it while this one waited.
                if entries[key]?.repository === open { break }
            }
            let repository = try RecipeRepository(directory: directory)
            entries[key] = WeakReference(repository: repository)
            return repository
        }
    }

    // MARK: - In memory

    /// The stored values, kept sorted by id (``precedes(_:_:)``): reading them all is a copy,
    /// a snapshot is written without sorting, and a change moves only what it must.
    nonisolated struct Values {
        private(set) var items: [Recipe] = []

        init() {}

        /// `items` in any order. Throws when an id appears twice: the file is damaged.
        init(_ items: [Recipe]) throws {
            self.items = items
            if !Self.isSorted(items) {
                self.items.sort { RecipeRepository.precedes($0.id, $1.id) }
            }
            if let index = Self.firstRepeat(in: self.items) {
                throw RepeatedID(description: "id \(self.items[index].id) appears twice")
            }
        }

        var count: Int { items.count }
        var isEmpty: Bool { items.isEmpty }

        subscript(id: UUID) -> Recipe? {
            let index = position(of: id)
            return index < items.endIndex && items[index].id == id ? items[index] : nil
        }

        /// Applies `change` in place.
        mutating func apply(_ change: Change) {
            switch change {
            case .saved(let saved) where saved.count > 16:
                merge(saved)
            case .saved(let saved):
                for value in saved {
                    let index = position(of: value.id)
                    if index < items.endIndex, items[index].id == value.id {
                        items[index] = value
                    } else {
                        items.insert(value, at: index)
                    }
                }
            case .deleted(let ids) where ids.count > 16:
                let removed = Set(ids)
                items.removeAll { removed.contains($0.id) }
            case .deleted(let ids):
                for id in ids {
                    let index = position(of: id)
                    if index < items.endIndex, items[index].id == id { items.remove(at: index) }
                }
            case .removedAll:
                items.removeAll()
            }
        }

        /// Applies `changes` in order, as opening replays a journal: their net effect is
        /// merged in one pass, instead of moving values once per change.
        mutating func apply(contentsOf changes: [Change]) {
            var saved: [UUID: Recipe] = [:]
            var deleted: Set<UUID> = []
            for change in changes {
                switch change {
                case .saved(let values):
                    for value in values {
                        saved[value.id] = value
                        deleted.remove(value.id)
                    }
                case .deleted(let ids):
                    for id in ids {
                        saved[id] = nil
                        deleted.insert(id)
                    }
                case .removedAll:
                    (items, saved, deleted) = ([], [:], [])
                }
            }
            if !deleted.isEmpty { items.removeAll { deleted.contains($0.id) } }
            if !saved.isEmpty { merge(Array(saved.values)) }
        }

        /// A copy with `change` applied.
        func applying(_ change: Change) -> Values {
            var changed = self
            changed.apply(change)
            return changed
        }

        /// The first index whose id does not precede `id`: where `id` is, or would go.
        private func position(of id: UUID) -> Int {
            var (low, high) = (items.startIndex, items.endIndex)
            while low < high {
                let middle = low + (high - low) / 2
                if RecipeRepository.precedes(items[middle].id, id) {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            return low
        }

        /// Many values at once: sorted (the last of the same id wins), then merged in one pass.
        private mutating func merge(_ saved: [Recipe]) {
            var latest: [UUID: Recipe] = [:]
            for value in saved { latest[value.id] = value }
            let incoming = latest.values.sorted { RecipeRepository.precedes($0.id, $1.id) }
            var merged: [Recipe] = []
            merged.reserveCapacity(items.count + incoming.count)
            var (old, new) = (items.startIndex, incoming.startIndex)
            while old < items.endIndex, new < incoming.endIndex {
                if RecipeRepository.precedes(items[old].id, incoming[new].id) {
                    merged.append(items[old])
                    old += 1
                } else {
                    if items[old].id == incoming[new].id { old += 1 }
                    merged.append(incoming[new])
                    new += 1
                }
            }
            merged += items[old...]
            merged += incoming[new...]
            items = merged
        }

        private static func isSorted(_ items: [Recipe]) -> Bool {
            zip(items, items.dropFirst()).allSatisfy { !RecipeRepository.precedes($1.id, $0.id) }
        }

        /// In sorted `items`, the first index whose id is the same as the one before it.
        private static func firstRepeat(in items: [Recipe]) -> Int? {
            items.indices.dropFirst().first { items[$0].id == items[$0 - 1].id }
        }
    }

    nonisolated struct RepeatedID: Error, CustomStringConvertible {
        let description: String
    }

    /// The open streams of ``changes()``.
    nonisolated struct Observers {
        private var continuations: [Int: AsyncStream<Change>.Continuation] = [:]
        private var nextKey = 0

        var count: Int { continuations.count }

        mutating func add(_ continuation: AsyncStream<Change>.Continuation) -> Int {
            nextKey += 1
            continuations[nextKey] = continuation
            return nextKey
        }

        mutating func remove(_ key: Int) {
            continuations[key] = nil
        }

        func publish(_ change: Change) {
            for continuation in continuations.values { continuation.yield(change) }
        }
    }
}
