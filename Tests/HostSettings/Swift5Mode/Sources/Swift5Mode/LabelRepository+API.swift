public import Foundation

extension LabelRepository {
    /// One committed change, as ``changes()`` publishes it once it is on disk.
    public nonisolated enum Change: Sendable, Hashable {
        /// These values were stored: added, or replacing the values with their ids.
        case saved([Label])
        /// The values with these ids were removed.
        case deleted([Int])
        /// Every value was removed.
        case removedAll
    }

    // MARK: - Reading: from memory, in id order

    /// How many values the store holds.
    public var count: Int { values.count }

    /// The value with `id`, or nil when there is none.
    public func find(by id: Int) -> Label? {
        values[id]
    }

    /// Every value, in the order of ``precedes(_:_:)``. The store keeps them in that order, so
    /// this is a copy, not a sort.
    public func loadAll() -> [Label] {
        values.items
    }

    /// The values that `isIncluded` accepts, in the order of ``loadAll()``.
    public func loadAll(where isIncluded: @Sendable (Label) -> Bool) -> [Label] {
        values.filter(isIncluded)
    }

    /// How many values `isIncluded` accepts.
    public func count(where isIncluded: @Sendable (Label) -> Bool) -> Int {
        values.count(where: isIncluded)
    }

    /// The order of ids in ``loadAll()`` and in the stored file, the same on every run:
    /// `<`.
    public nonisolated static func precedes(_ first: Int, _ second: Int) -> Bool {
        first < second
    }

    // MARK: - Writing: each call is one durable write

    /// Stores `label`, replacing the value with the same id.
    public func save(_ label: Label) throws {
        try commit(.saved([label]))
    }

    /// Stores every value in `labels` at once; of values with the same id, the last wins.
    public func save(contentsOf labels: [Label]) throws {
        guard !labels.isEmpty else { return }
        try commit(.saved(labels))
    }

    /// Changes the value with `id` in place and stores it, as one durable write. The id stays
    /// what it was. Returns false, and writes nothing, when there is no value with `id`.
    @discardableResult
    public func update(
        id: Int, _ change: @Sendable (inout Label) -> Void
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
        let (stream, continuation) = AsyncStream.makeStream(of: Change.self)
        let key = observers.add { continuation.yield($0.change) }
        continuation.onTermination = { [weak self] _ in
            Task { await self?.stopObserving(key) }
        }
        return stream
    }

    /// ``changes()`` with the revision each change made, and the values and revision as of now,
    /// read together: a change in the stream with a revision up to that one is in the values
    /// already. The view-model uses it to skip changes it has, and to know when it has one.
    func valuesAndChanges(
        where isIncluded: (@Sendable (Label) -> Bool)?
    ) -> (values: [Label], revision: Int, changes: AsyncStream<Revised>) {
        let (stream, continuation) = AsyncStream.makeStream(of: Revised.self)
        let key = observers.add { continuation.yield($0) }
        continuation.onTermination = { [weak self] _ in
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
    /// throw ``LabelRepositoryError/locked(file:)``. It is opened on first use (or again after
    /// ``close()``), off the caller's actor, so the main thread never waits for the disk.
    public static func shared(in directory: URL) async throws -> LabelRepository {
        try await openRepositories.repository(in: directory)
    }

    /// The shared repository in ``defaultDirectory()``.
    public static func shared() async throws -> LabelRepository {
        try await shared(in: defaultDirectory())
    }

    private static let openRepositories = OpenRepositories()

    /// The repositories that ``shared(in:)`` opened, by folder. It does not keep them alive: a
    /// repository no one holds any more is closed, and the next call opens it again.
    private actor OpenRepositories {
        private struct WeakReference {
            weak var repository: LabelRepository?
        }

        private var entries: [String: WeakReference] = [:]

        func repository(in directory: URL) async throws -> LabelRepository {
            let key = directory.standardizedFileURL.resolvingSymlinksInPath().path
            while let open = entries[key]?.repository {
                if await !open.isClosed { return open }
                // Another call may have replaced it while this one waited.
                if entries[key]?.repository === open { break }
            }
            let repository = try LabelRepository(directory: directory)
            entries[key] = WeakReference(repository: repository)
            return repository
        }
    }

    // MARK: - In memory

    /// The stored values in id order (``precedes(_:_:)``), kept as short sorted runs: a change
    /// moves values within one run only, so it costs the same in a store of 100 values as in
    /// one of 100,000; reading them all is one copy, not a sort, and a snapshot is written
    /// without sorting.
    nonisolated struct Values {
        /// The most values a run holds before it is split in two.
        static var runCapacity: Int { 512 }

        /// Sorted runs, none empty; each run's ids precede the next run's.
        private var runs: [[Label]] = []
        private(set) var count = 0

        init() {}

        /// `items` in any order. Throws when an id appears twice: the file is damaged.
        init(_ items: [Label]) throws {
            var sorted = items
            if !Self.isSorted(sorted) {
                sorted.sort { LabelRepository.precedes($0.id, $1.id) }
            }
            for index in sorted.indices.dropFirst() where sorted[index].id == sorted[index - 1].id {
                throw RepeatedID(description: "id \(sorted[index].id) appears twice")
            }
            self.init(sorted: sorted)
        }

        private init(sorted: [Label]) {
            runs = stride(from: 0, to: sorted.count, by: Self.runCapacity).map {
                Array(sorted[$0..<min($0 + Self.runCapacity, sorted.count)])
            }
            count = sorted.count
        }

        var isEmpty: Bool { count == 0 }

        /// Every value, in id order.
        var items: [Label] {
            var all: [Label] = []
            all.reserveCapacity(count)
            for run in runs { all += run }
            return all
        }

        /// The values `isIncluded` accepts, in id order.
        func filter(_ isIncluded: (Label) -> Bool) -> [Label] {
            runs.flatMap { $0.filter(isIncluded) }
        }

        /// How many values `isIncluded` accepts.
        func count(where isIncluded: (Label) -> Bool) -> Int {
            runs.reduce(0) { $0 + $1.count(where: isIncluded) }
        }

        subscript(id: Int) -> Label? {
            guard let (run, index) = location(of: id), index < runs[run].endIndex,
                runs[run][index].id == id
            else { return nil }
            return runs[run][index]
        }

        /// Applies `change` in place.
        mutating func apply(_ change: Change) {
            switch change {
            case .saved(let saved) where saved.count > Self.runCapacity:
                merge(saved)
            case .saved(let saved):
                for value in saved { insert(value) }
            case .deleted(let ids) where ids.count > Self.runCapacity:
                let removed = Set(ids)
                self = Values(sorted: items.filter { !removed.contains($0.id) })
            case .deleted(let ids):
                for id in ids { remove(id) }
            case .removedAll:
                self = Values()
            }
        }

        /// Applies `changes` in order, as opening replays a journal: their net effect is
        /// merged in one pass, instead of moving values once per change.
        mutating func apply(contentsOf changes: [Change]) {
            var saved: [Int: Label] = [:]
            var deleted: Set<Int> = []
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
                    (self, saved, deleted) = (Values(), [:], [])
                }
            }
            if !deleted.isEmpty {
                self = Values(sorted: items.filter { !deleted.contains($0.id) })
            }
            if !saved.isEmpty { merge(Array(saved.values)) }
        }

        /// A copy with `change` applied.
        func applying(_ change: Change) -> Values {
            var changed = self
            changed.apply(change)
            return changed
        }

        /// The run that holds `id`, or would, and the position in it: the first whose id does
        /// not precede `id`. Nil when there are no runs.
        private func location(of id: Int) -> (run: Int, index: Int)? {
            guard !runs.isEmpty else { return nil }
            let run = Self.firstIndex(in: runs.count) {
                LabelRepository.precedes(runs[$0][runs[$0].count - 1].id, id)
            }
            let holder = min(run, runs.count - 1)
            let index = Self.firstIndex(in: runs[holder].count) {
                LabelRepository.precedes(runs[holder][$0].id, id)
            }
            return (holder, index)
        }

        /// The first index in `0..<count` for which `isBefore` is false (it must be true for
        /// a prefix of the indices and false after).
        private static func firstIndex(in count: Int, where isBefore: (Int) -> Bool) -> Int {
            var (low, high) = (0, count)
            while low < high {
                let middle = low + (high - low) / 2
                if isBefore(middle) {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            return low
        }

        private mutating func insert(_ value: Label) {
            guard let (run, index) = location(of: value.id) else {
                runs = [[value]]
                count = 1
                return
            }
            if index < runs[run].endIndex, runs[run][index].id == value.id {
                runs[run][index] = value
                return
            }
            runs[run].insert(value, at: index)
            count += 1
            if runs[run].count > Self.runCapacity {
                let half = runs[run].count / 2
                let upper = Array(runs[run][half...])
                runs[run].removeSubrange(half...)
                runs.insert(upper, at: run + 1)
            }
        }

        private mutating func remove(_ id: Int) {
            guard let (run, index) = location(of: id), index < runs[run].endIndex,
                runs[run][index].id == id
            else { return }
            runs[run].remove(at: index)
            count -= 1
            if runs[run].isEmpty { runs.remove(at: run) }
        }

        /// Many values at once: sorted (the last of the same id wins), then merged in one pass.
        private mutating func merge(_ saved: [Label]) {
            var latest: [Int: Label] = [:]
            for value in saved { latest[value.id] = value }
            let incoming = latest.values.sorted { LabelRepository.precedes($0.id, $1.id) }
            let current = items
            var merged: [Label] = []
            merged.reserveCapacity(current.count + incoming.count)
            var (old, new) = (current.startIndex, incoming.startIndex)
            while old < current.endIndex, new < incoming.endIndex {
                if LabelRepository.precedes(current[old].id, incoming[new].id) {
                    merged.append(current[old])
                    old += 1
                } else {
                    if current[old].id == incoming[new].id { old += 1 }
                    merged.append(incoming[new])
                    new += 1
                }
            }
            merged += current[old...]
            merged += incoming[new...]
            self = Values(sorted: merged)
        }

        private static func isSorted(_ items: [Label]) -> Bool {
            zip(items, items.dropFirst()).allSatisfy { !LabelRepository.precedes($1.id, $0.id) }
        }
    }

    nonisolated struct RepeatedID: Error, CustomStringConvertible {
        let description: String
    }

    /// A committed change and its revision: 1 for the first change an instance commits, and
    /// one more for each after it.
    nonisolated struct Revised: Sendable {
        let revision: Int
        let change: Change
    }

    /// The open streams of ``changes()``, and the revision of the last change published.
    nonisolated struct Observers {
        private var streams: [Int: @Sendable (Revised) -> Void] = [:]
        private var nextKey = 0
        private(set) var revision = 0

        var count: Int { streams.count }

        mutating func add(_ yield: @escaping @Sendable (Revised) -> Void) -> Int {
            nextKey += 1
            streams[nextKey] = yield
            return nextKey
        }

        mutating func remove(_ key: Int) {
            streams[key] = nil
        }

        /// Gives `change` the next revision and sends it to every stream.
        mutating func publish(_ change: Change) {
            revision += 1
            let revised = Revised(revision: revision, change: change)
            for yield in streams.values { yield(revised) }
        }
    }
}
