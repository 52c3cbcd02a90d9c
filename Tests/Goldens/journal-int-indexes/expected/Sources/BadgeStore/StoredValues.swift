import Foundation

// What every repository in this module keeps in memory: a model's values in id order, the
// changes made to them, the streams told of each change, and one open repository per folder.
// Each `<Model>Repository+API.swift` is its model's API over these; `JournalStore.swift` or
// `SnapshotStore.swift` puts the values on disk. Callers see one type of this file:
// `StoreChange`, as a repository's `Change`.
//
// scaffold-repo writes one copy of this file per module, however many models the module
// stores, and `scaffold-repo destroy` removes it with the last of them.

/// A model that a repository stores: `<Model>Repository+API.swift` declares the conformance.
nonisolated protocol StoredValue: Codable, Identifiable, Sendable, Hashable
where ID: Codable & Sendable {
    /// The schema version that values are stored in now.
    static var schemaVersion: Int { get }
    /// The order of ids in memory and in the stored files: the same on every run.
    static func precedes(_ first: ID, _ second: ID) -> Bool
    /// Decodes the values that schema version `version` stored, migrated to the current one.
    static func decodeStored(_ version: Int, from decoder: any Swift.Decoder) throws -> [Self]
    /// The keys of the JSON this build of the model knows: its fields', the former keys of
    /// renamed ones, and those of fields dropped since its schema version began. A stored
    /// value's other keys are a newer build's fields (an extension not updated yet shares the
    /// folder): the journal and snapshot stores write them back as they were whenever they
    /// write the value again. Nil: not checked, no key is kept.
    static var knownKeys: Set<String>? { get }
}

nonisolated extension StoredValue {
    static var knownKeys: Set<String>? { nil }

    /// A model that never changed its schema stores values as they are.
    static func decodeStored(_ version: Int, from decoder: any Swift.Decoder) throws -> [Self] {
        try [Self](from: decoder)
    }
}

/// One committed change to a repository, as its `changes()` publishes it once it is on disk.
public nonisolated enum StoreChange<Value: Identifiable & Sendable>: Sendable
where Value.ID: Sendable {
    /// These values were stored: added, or replacing the values with their ids.
    case saved([Value])
    /// The values with these ids were removed.
    case deleted([Value.ID])
    /// Every value was removed.
    case removedAll
}

nonisolated extension StoreChange: Equatable where Value: Equatable {}
nonisolated extension StoreChange: Hashable where Value: Hashable {}

/// A change as a store's file holds it, with the members of the JSON of the values it saves
/// that the model does not know (``StoredValues/unknownMembers``), by id.
nonisolated struct StoredChange<Value: StoredValue> {
    var change: StoreChange<Value>
    var unknownMembers: [Value.ID: [Data]] = [:]
}

/// A committed change and its revision: 1 for the first change a repository commits, and one
/// more for each after it.
nonisolated struct Revised<Value: StoredValue>: Sendable {
    let revision: Int
    let change: StoreChange<Value>
}

/// The open streams of a repository's `changes()`, and the revision of the last change
/// published.
nonisolated struct Observers<Value: StoredValue> {
    private var streams: [Int: @Sendable (Revised<Value>) -> Void] = [:]
    private var nextKey = 0
    private(set) var revision = 0

    var count: Int { streams.count }

    /// A new stream of the changes published from now on. When it ends (its reader's task is
    /// cancelled), `onEnd` gets its key, for ``remove(_:)``.
    mutating func changes(
        onEnd: @escaping @Sendable (Int) -> Void
    ) -> AsyncStream<StoreChange<Value>> {
        stream(of: { $0.change }, onEnd: onEnd)
    }

    /// ``changes(onEnd:)`` with the revision of each change.
    mutating func revisions(
        onEnd: @escaping @Sendable (Int) -> Void
    ) -> AsyncStream<Revised<Value>> {
        stream(of: { $0 }, onEnd: onEnd)
    }

    private mutating func stream<Element: Sendable>(
        of element: @escaping @Sendable (Revised<Value>) -> Element,
        onEnd: @escaping @Sendable (Int) -> Void
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
        nextKey += 1
        let key = nextKey
        streams[key] = { continuation.yield(element($0)) }
        continuation.onTermination = { _ in onEnd(key) }
        return stream
    }

    mutating func remove(_ key: Int) {
        streams[key] = nil
    }

    /// Gives `change` the next revision and sends it to every stream.
    mutating func publish(_ change: StoreChange<Value>) {
        revision += 1
        let revised = Revised(revision: revision, change: change)
        for yield in streams.values { yield(revised) }
    }
}

/// A repository that `shared(in:)` hands out, one per folder. Its isolation is the actor's: a
/// `nonisolated` protocol would make the actor's `init(directory:)` requirement nonisolated,
/// which a synchronous actor initializer cannot be.
protocol SharedRepository: _Concurrency.Actor {
    init(directory: URL) throws
    /// Whether `close()` was called.
    var isClosed: Bool { get }
    /// Releases the folder; returns once its lock is free, also when called again.
    func close() async
}

/// The repositories that `shared(in:)` opened, by folder. It does not keep them alive: a
/// repository no one holds any more is closed, and the next call opens it again.
actor OpenRepositories<Repository: SharedRepository> {
    private struct WeakReference {
        weak var repository: Repository?
    }

    private var entries: [String: WeakReference] = [:]

    init() {}

    /// The open repository for `directory`, or a new one. Paths are compared with symlinks
    /// resolved, so two spellings of one folder give one repository.
    func repository(in directory: URL) async throws -> Repository {
        let key = StoreFiles.canonicalPath(directory)
        while let open = entries[key]?.repository {
            if await !open.isClosed { return open }
            // Closed, but perhaps still waiting for a compaction to end before it releases
            // the lock: a second close() returns once it has.
            await open.close()
            // Another call may have replaced it while this one waited.
            if entries[key]?.repository === open { break }
        }
        let repository = try Repository(directory: directory)
        entries[key] = WeakReference(repository: repository)
        return repository
    }
}

// One sorted array would make `loadAll()` free, but every insert would move half the store
// in memory. Short sorted runs keep a save's work the same at any size, and reading them all
// is one copy, with no sort.

/// Stored values in id order (`precedes(_:_:)`), kept as short sorted runs: a change moves
/// values within one run, or two when a delete joins a small run with its neighbour, so it
/// costs the same in a store of 100 values as in one of 100,000 (a batch, as many times as it
/// has values, until it is large enough beside the store to merge it anew); reading them all is
/// one copy, not a sort, and a snapshot is written without sorting.
nonisolated struct StoredValues<Value: StoredValue> {
    /// The most values a run holds before it is split in two.
    static var runCapacity: Int { 512 }

    /// Sorted runs, none empty; each run's ids precede the next run's.
    private var runs: [[Value]] = []
    private(set) var count = 0
    /// The members of stored values' JSON that the model does not know (``StoredValue/knownKeys``):
    /// a newer build's fields, each as written (`"pages":42`), by id. They are written back
    /// with the value, also when this build saves it again; a delete removes them.
    private(set) var unknownMembers: [Value.ID: [Data]] = [:]

    init() {}

    /// `items` in any order. Throws when an id appears twice: the file is damaged.
    init(_ items: [Value]) throws {
        var sorted = items
        if !Self.isSorted(sorted) {
            sorted.sort { Value.precedes($0.id, $1.id) }
        }
        for index in sorted.indices.dropFirst() where sorted[index].id == sorted[index - 1].id {
            throw RepeatedID(description: "id \(sorted[index].id) appears twice")
        }
        self.init(sorted: sorted)
    }

    private init(sorted: [Value]) {
        runs = stride(from: 0, to: sorted.count, by: Self.runCapacity).map {
            Array(sorted[$0..<min($0 + Self.runCapacity, sorted.count)])
        }
        count = sorted.count
    }

    var isEmpty: Bool { count == 0 }

    /// How many runs hold the values: as few as their capacity allows after a merge, more
    /// once values moved one at a time split some.
    var runCount: Int { runs.count }

    /// How many values the runs have room for: what they take in memory, beside ``count``.
    var room: Int { runs.reduce(0) { $0 + $1.capacity } }

    /// Every value, in id order.
    var items: [Value] {
        var all: [Value] = []
        all.reserveCapacity(count)
        for run in runs { all += run }
        return all
    }

    /// The values in id order, a run at a time: what a snapshot is written from, without a
    /// copy of every value.
    func forEachRun(_ body: ([Value]) throws -> Void) rethrows {
        for run in runs { try body(run) }
    }

    /// Up to a run's worth of values whose ids follow `id` (from the first when it is nil), in
    /// id order: a compaction reads the store in these short steps while it changes.
    func values(after id: Value.ID?) -> [Value] {
        var (run, index) = (0, 0)
        if let id, let (found, position) = location(of: id) {
            (run, index) = (found, position)
            if index < runs[run].endIndex, runs[run][index].id == id { index += 1 }
        }
        var next: [Value] = []
        while run < runs.endIndex, next.count < Self.runCapacity {
            let taken = runs[run][index...].prefix(Self.runCapacity - next.count)
            next += taken
            index += taken.count
            if index == runs[run].endIndex { (run, index) = (run + 1, 0) }
        }
        return next
    }

    /// The values `isIncluded` accepts, in id order.
    func filter(_ isIncluded: (Value) -> Bool) -> [Value] {
        runs.flatMap { $0.filter(isIncluded) }
    }

    /// How many values `isIncluded` accepts.
    func count(where isIncluded: (Value) -> Bool) -> Int {
        runs.reduce(0) { $0 + $1.count(where: isIncluded) }
    }

    subscript(id: Value.ID) -> Value? {
        guard let (run, index) = location(of: id), index < runs[run].endIndex,
            runs[run][index].id == id
        else { return nil }
        return runs[run][index]
    }

    /// Whether `changed` values are few enough beside the store to move one at a time (each
    /// within its run), rather than merging the store anew, which costs as much as the store:
    /// a batch of up to a run's capacity, or up to a sixteenth of the store, moves them (a
    /// thousand values in a store of a million); a larger one is merged, and the runs packed
    /// full again.
    private func movesOneAtATime(_ changed: Int) -> Bool {
        changed <= Self.runCapacity || changed * 16 <= count
    }

    /// Applies `change` in place. A value saved keeps its unknown members.
    mutating func apply(_ change: StoreChange<Value>) {
        switch change {
        case .saved(let saved) where !movesOneAtATime(saved.count):
            merge(saved)
        case .saved(let saved):
            for value in saved { insert(value) }
        case .deleted(let ids) where !movesOneAtATime(ids.count):
            let removed = Set(ids)
            replace(with: items.filter { !removed.contains($0.id) })
            forgetUnknownMembers(of: ids)
        case .deleted(let ids):
            for id in ids { remove(id) }
            forgetUnknownMembers(of: ids)
        case .removedAll:
            self = Self()
        }
    }

    /// Applies `changes` in order, as opening replays a journal: their net effect is merged in
    /// one pass, instead of moving values once per change. The values each saves have the
    /// unknown members read with them, and no others.
    mutating func apply(contentsOf changes: [StoredChange<Value>]) {
        var saved: [Value.ID: Value] = [:]
        var deleted: Set<Value.ID> = []
        for stored in changes {
            switch stored.change {
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
                forgetUnknownMembers(of: ids)
            case .removedAll:
                (self, saved, deleted) = (Self(), [:], [])
            }
            noteUnknownMembers(of: stored)
        }
        // A reader that follows a writer applies a few records at a time: moved one by one.
        if movesOneAtATime(deleted.count) {
            for id in deleted { remove(id) }
        } else {
            replace(with: items.filter { !deleted.contains($0.id) })
        }
        if movesOneAtATime(saved.count) {
            for value in saved.values { insert(value) }
        } else {
            merge(Array(saved.values))
        }
    }

    /// Records the unknown members that `change`, read from a file, saves its values with.
    private mutating func noteUnknownMembers(of change: StoredChange<Value>) {
        guard case .saved(let values) = change.change,
            !change.unknownMembers.isEmpty || !unknownMembers.isEmpty
        else { return }
        for value in values { unknownMembers[value.id] = change.unknownMembers[value.id] }
    }

    private mutating func forgetUnknownMembers(of ids: [Value.ID]) {
        guard !unknownMembers.isEmpty else { return }
        for id in ids { unknownMembers[id] = nil }
    }

    /// Records the unknown members of `values`, read from a file (with their ids).
    mutating func setUnknownMembers(_ members: [Value.ID: [Data]]) {
        unknownMembers = members
    }

    /// The changes that turn these values into `new`: ids deleted, then values added or
    /// changed. What a store opened for reading publishes when it reads the files again.
    func changes(to new: Self) -> [StoreChange<Value>] {
        let deleted = items.map(\.id).filter { new[$0] == nil }
        let saved = new.items.filter { self[$0.id] != $0 }
        return (deleted.isEmpty ? [] : [.deleted(deleted)])
            + (saved.isEmpty ? [] : [.saved(saved)])
    }

    /// A copy with `change` applied.
    func applying(_ change: StoreChange<Value>) -> Self {
        var changed = self
        changed.apply(change)
        return changed
    }

    /// The run that holds `id`, or would, and the position in it: the first whose id does not
    /// precede `id`. Nil when there are no runs.
    private func location(of id: Value.ID) -> (run: Int, index: Int)? {
        guard !runs.isEmpty else { return nil }
        let run = Self.firstIndex(in: runs.count) {
            Value.precedes(runs[$0][runs[$0].count - 1].id, id)
        }
        let holder = min(run, runs.count - 1)
        let index = Self.firstIndex(in: runs[holder].count) {
            Value.precedes(runs[holder][$0].id, id)
        }
        return (holder, index)
    }

    /// The first index in `0..<count` for which `isBefore` is false (it must be true for a
    /// prefix of the indices and false after).
    static func firstIndex(in count: Int, where isBefore: (Int) -> Bool) -> Int {
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

    private mutating func insert(_ value: Value) {
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

    private mutating func remove(_ id: Value.ID) {
        guard let (run, index) = location(of: id), index < runs[run].endIndex,
            runs[run][index].id == id
        else { return }
        runs[run].remove(at: index)
        count -= 1
        if runs[run].isEmpty {
            runs.remove(at: run)
        } else if runs[run].count < Self.runCapacity / 4 {
            joinWithANeighbour(run)
        }
    }

    /// Joins a run that deletes left with fewer than a quarter of `runCapacity` values with the
    /// run after it (or before it, for the last): in one run when both fit, else in two of
    /// equal size; either way in new arrays sized to their values, so the room the deleted
    /// values took is freed. A lone run is copied into an array of its size.
    private mutating func joinWithANeighbour(_ run: Int) {
        guard runs.count > 1 else {
            runs[run] = Self.fitted(runs[run][...])
            return
        }
        let first = run == runs.count - 1 ? run - 1 : run
        let total = runs[first].count + runs[first + 1].count
        if total <= Self.runCapacity {
            var joined: [Value] = []
            joined.reserveCapacity(total)
            joined += runs[first]
            joined += runs[first + 1]
            runs.replaceSubrange(first...first + 1, with: [joined])
        } else {
            let both = runs[first] + runs[first + 1]
            runs[first] = Self.fitted(both[..<(total / 2)])
            runs[first + 1] = Self.fitted(both[(total / 2)...])
        }
    }

    /// `values` in a new array of their size (an array made from a slice of all of another
    /// array's values may share that array's room).
    private static func fitted(_ values: ArraySlice<Value>) -> [Value] {
        var array: [Value] = []
        array.reserveCapacity(values.count)
        array += values
        return array
    }

    /// The values `sorted`, in id order, in place of those held, whose unknown members stay.
    private mutating func replace(with sorted: [Value]) {
        let unknown = unknownMembers
        self = Self(sorted: sorted)
        unknownMembers = unknown
    }

    /// Many values at once: sorted (the last of the same id wins), then merged in one pass.
    private mutating func merge(_ saved: [Value]) {
        var latest: [Value.ID: Value] = [:]
        for value in saved { latest[value.id] = value }
        let incoming = latest.values.sorted { Value.precedes($0.id, $1.id) }
        let current = items
        var merged: [Value] = []
        merged.reserveCapacity(current.count + incoming.count)
        var (old, new) = (current.startIndex, incoming.startIndex)
        while old < current.endIndex, new < incoming.endIndex {
            if Value.precedes(current[old].id, incoming[new].id) {
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
        replace(with: merged)
    }

    private static func isSorted(_ items: [Value]) -> Bool {
        zip(items, items.dropFirst()).allSatisfy { !Value.precedes($1.id, $0.id) }
    }
}

/// A stored file holds the same id twice: it is damaged.
nonisolated struct RepeatedID: Error, CustomStringConvertible {
    let description: String
}

/// Stored data of a schema version newer than the code reading it.
nonisolated struct NewerSchema: Error {
    let found: Int
}

/// A model as an earlier schema version stored it (`Question.V1`, in `QuestionVersions.swift`),
/// and its migration to the next version (`migrated()`, in `QuestionMigration1.swift`).
nonisolated protocol FrozenVersion {
    associatedtype Next
    /// This value as the next schema version has it. It throws where a stored value cannot be
    /// carried over yet; the store that holds it then does not open, and is left as it is.
    func migrated() throws -> Next
}

nonisolated extension FrozenVersion {
    /// ``migrated()``, called through the protocol, so that a migration written without
    /// `throws` and one written with it both chain.
    func migratedOneVersion() throws -> Next { try migrated() }

    /// A value of the next version that nobody has chosen yet: it never returns a value, it
    /// throws, so no store opens with a made-up one. Replace the call with the value.
    func undecided<Decided>(_ field: String, file: String = #fileID) throws -> Decided {
        throw UnmigratedValue(field: field, migration: file, reason: "is not decided yet")
    }

    /// `converted`, the result of a conversion that is exact for every value a store is likely
    /// to hold (`Double(exactly:)`), or a thrown error for one that it is not exact for, which
    /// names `original`, the stored value, when it is given.
    func lossless<Converted>(
        _ converted: Converted?, _ field: String, from original: (any Sendable)? = nil,
        file: String = #fileID
    ) throws -> Converted {
        guard let converted else {
            let value = original.map { " (\($0))" } ?? ""
            throw UnmigratedValue(
                field: field, migration: file,
                reason: "holds a stored value\(value) that does not convert without loss")
        }
        return converted
    }
}

nonisolated extension Array where Element: FrozenVersion {
    /// Each value migrated one schema version on.
    func migrated() throws -> [Element.Next] { try map { try $0.migratedOneVersion() } }
}

/// A stored value that a migration did not carry over: where, and why.
nonisolated struct UnmigratedValue: Error {
    let field: String
    let migration: String
    let reason: String

    /// The error a repository reports for it, for the store `file` that holds the value.
    func failure<Reported: StoreFiles.Failure>(file: URL, reporting _: Reported.Type) -> Reported {
        .notMigrated(file: file, field: field, migration: migration, reason: reason)
    }
}

/// The `:index` and `:unique` fields of a journal or snapshot repository's model: for each, the
/// ids of the values in memory that hold each value of the field. Built from the values on first
/// use (a lookup or a write), then kept in step with each committed change, each in constant
/// time. It lives in the repository's actor, so its keys need not be `Sendable`.
nonisolated struct FieldIndexes<Value: StoredValue> {
    /// One indexed field: its JSON key, whether it is unique, and how to read its value (nil
    /// for an optional field without one, which no index holds; so is NaN, equal to nothing).
    nonisolated struct Field {
        let name: String
        let isUnique: Bool
        let key: (Value) -> AnyHashable?
        fileprivate var ids: [AnyHashable: Set<Value.ID>] = [:]

        init(_ name: String, isUnique: Bool = false, key: @escaping (Value) -> AnyHashable?) {
            self.name = name
            self.isUnique = isUnique
            self.key = key
        }

        /// The value's key, when it has one that equals itself.
        fileprivate func indexKey(_ value: Value) -> AnyHashable? {
            guard let key = key(value), key == key else { return nil }
            return key
        }

        fileprivate mutating func insert(_ value: Value) {
            guard let key = indexKey(value) else { return }
            ids[key, default: []].insert(value.id)
        }

        fileprivate mutating func remove(_ value: Value) {
            guard let key = indexKey(value) else { return }
            ids[key]?.remove(value.id)
            if ids[key]?.isEmpty == true { ids[key] = nil }
        }
    }

    private var fields: [Field]
    private var isBuilt = false

    init(_ fields: [Field]) {
        self.fields = fields
    }

    /// Forgets every index, to be built again on next use: after the values changed in ways
    /// not told one by one (a store opened for reading read its files again).
    mutating func invalidate() {
        isBuilt = false
        for index in fields.indices { fields[index].ids = [:] }
    }

    /// Builds the indexes from `values` the first time.
    mutating func build(from values: StoredValues<Value>) {
        guard !isBuilt else { return }
        isBuilt = true
        for value in values.items {
            for index in fields.indices { fields[index].insert(value) }
        }
    }

    /// The ids of the values whose `field` is `key`, in id order.
    mutating func ids(
        _ field: String, _ key: AnyHashable, in values: StoredValues<Value>
    ) -> [Value.ID] {
        build(from: values)
        let holders = fields.first { $0.name == field }?.ids[key] ?? []
        return holders.sorted(by: Value.precedes)
    }

    /// The first unique field whose value one of `change`'s values would share with another
    /// value, stored or saved with it, in the batch's order: the field, and the value as text.
    /// Nil when none would.
    mutating func conflict(
        in change: StoreChange<Value>, with values: StoredValues<Value>
    ) -> (field: String, value: String)? {
        guard case .saved(let saved) = change, fields.contains(where: \.isUnique) else {
            return nil
        }
        build(from: values)
        // Of values with the same id, the last is the one stored.
        var last: [Value.ID: Int] = [:]
        for (offset, value) in saved.enumerated() { last[value.id] = offset }
        let kept = saved.enumerated().filter { last[$0.element.id] == $0.offset }.map(\.element)
        for field in fields where field.isUnique {
            var taken: [AnyHashable: Value.ID] = [:]
            for value in kept {
                guard let key = field.indexKey(value) else { continue }
                if let other = taken[key], other != value.id {
                    return (field.name, "\(key.base)")
                }
                taken[key] = value.id
                // A stored holder that this batch does not save again keeps its value.
                let holders = field.ids[key] ?? []
                if holders.contains(where: { $0 != value.id && last[$0] == nil }) {
                    return (field.name, "\(key.base)")
                }
            }
        }
        return nil
    }

    /// The stored values that `change` replaces or deletes: read before it is committed, for
    /// ``apply(_:replacing:)`` (a copy of all the values would cost a copy per save).
    func replaced(by change: StoreChange<Value>, in values: StoredValues<Value>) -> [Value] {
        guard isBuilt else { return [] }
        switch change {
        case .saved(let saved): return saved.compactMap { values[$0.id] }
        case .deleted(let ids): return ids.compactMap { values[$0] }
        case .removedAll: return []
        }
    }

    /// Keeps the indexes in step with `change`, once committed; `old` is what it replaced.
    mutating func apply(_ change: StoreChange<Value>, replacing old: [Value]) {
        guard isBuilt else { return }
        for index in fields.indices {
            for value in old { fields[index].remove(value) }
            switch change {
            case .saved(let saved):
                // Of values with the same id, the last is the one stored.
                var last: [Value.ID: Value] = [:]
                for value in saved { last[value.id] = value }
                for value in last.values { fields[index].insert(value) }
            case .deleted: break
            case .removedAll: fields[index].ids = [:]
            }
        }
    }

    /// For each unique field, the values that more than one stored value holds (stored before
    /// the field was unique), sorted.
    mutating func duplicates(in values: StoredValues<Value>) -> [String: [String]] {
        build(from: values)
        var duplicates: [String: [String]] = [:]
        for field in fields where field.isUnique {
            let shared = field.ids.filter { $0.value.count > 1 }.map { "\($0.key.base)" }
            if !shared.isEmpty { duplicates[field.name] = shared.sorted() }
        }
        return duplicates
    }
}
