import Foundation

/// How a view-model's list is sorted. Values that the rule keeps equal are ordered by id, so
/// the order is the same on every run.
///
/// scaffold-repo writes one copy of this file per module, however many models the module
/// stores, and `scaffold-repo destroy` removes it with the last of them.
///
/// The rule is `@Sendable`: a view-model sorts a large list off the main actor.
public nonisolated struct ListOrdering<Value>: Sendable {
    /// The rule, or nil for the repository's own order, by id.
    let areInIncreasingOrder: (@Sendable (Value, Value) -> Bool)?

    /// Sorted by `areInIncreasingOrder`, which must behave like `<`: a value never comes before
    /// itself, and if `a` comes before `b` and `b` before `c`, `a` comes before `c`.
    public init(_ areInIncreasingOrder: @escaping @Sendable (Value, Value) -> Bool) {
        self.areInIncreasingOrder = areInIncreasingOrder
    }

    private init(byID: Void) {
        areInIncreasingOrder = nil
    }

    /// By id, the repository's own order: the default.
    public static var byID: Self { Self(byID: ()) }

    /// By `field`, smallest first, or largest first when `descending`.
    public static func by<Field: Comparable & Sendable>(
        _ field: KeyPath<Value, Field>, descending: Bool = false
    ) -> Self {
        // A key path is immutable, and safe to read from any thread.
        nonisolated(unsafe) let field = field
        return Self { first, second in
            descending
                ? second[keyPath: field] < first[keyPath: field]
                : first[keyPath: field] < second[keyPath: field]
        }
    }

    /// By an optional `field`; values without one come first, or last when `descending`.
    public static func by<Field: Comparable & Sendable>(
        _ field: KeyPath<Value, Field?>, descending: Bool = false
    ) -> Self {
        nonisolated(unsafe) let field = field  // Immutable, as above.
        let ascending = { @Sendable (first: Field?, second: Field?) -> Bool in
            guard let second else { return false }
            guard let first else { return true }
            return first < second
        }
        return Self { first, second in
            descending
                ? ascending(second[keyPath: field], first[keyPath: field])
                : ascending(first[keyPath: field], second[keyPath: field])
        }
    }
}

/// The values a view-model shows, kept in order as changes arrive: each change moves the values
/// it names, in place, without reading the list again.
nonisolated struct LiveList<Value: StoredValue>: Sendable {
    /// The values shown: those that ``filter`` accepts, sorted by ``order``.
    private(set) var values: [Value] = []
    let order: ListOrdering<Value>
    /// Which values are shown; nil shows them all.
    var filter: (@Sendable (Value) -> Bool)?
    /// The values shown, by id, so that a change finds a value's place without a search.
    private var shownByID: [Value.ID: Value] = [:]

    init(order: ListOrdering<Value>) {
        self.order = order
    }

    /// Shows `values`, which the filter accepts, sorted by ``order``. Values in id order are
    /// not sorted again when the list is sorted by id.
    mutating func show(_ values: [Value], inIDOrder: Bool) {
        let isByID = order.areInIncreasingOrder == nil
        self.values = inIDOrder && isByID ? values : values.sorted(by: precedes)
        shownByID = Dictionary(self.values.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
    }

    /// A list of `order` and `filter` showing `values` (in id order, each accepted by the
    /// filter): sorted and indexed in a task off the caller's actor, so that a view-model's
    /// main actor only takes the finished list. Its cost grows with the values; taking it
    /// does not.
    static func arranged(
        _ values: [Value], order: ListOrdering<Value>, filter: (@Sendable (Value) -> Bool)?
    ) async -> Self {
        await _Concurrency.Task.detached {
            var list = Self(order: order)
            list.filter = filter
            list.show(values, inIDOrder: true)
            return list
        }.value
    }

    /// Frees `list` in a task of its own: freeing a few hundred thousand values takes longer
    /// than a frame. The caller hands its reference over (`consume`) into a box that the task
    /// empties: whichever lets go of the box last, the list is freed in the task. (A task that
    /// held the list itself and ended first left the last reference, and so the freeing, to
    /// the caller: 100 ms on the main actor at a million values, now and then.)
    static func release(_ list: consuming Self) {
        let handoff = Handoff(consume list)
        _Concurrency.Task.detached(priority: .background) { handoff.empty() }
    }

    /// A list on its way to the task that frees it: only that task touches it once made.
    private final class Handoff: @unchecked Sendable {
        private var list: LiveList?

        init(_ list: consuming LiveList) {
            self.list = list
        }

        func empty() {
            list = nil
        }
    }

    /// Whether `change` changes what is shown: views are told only of changes that do.
    func affects(_ change: StoreChange<Value>) -> Bool {
        switch change {
        case .saved(let saved):
            saved.contains { value in
                shownByID[value.id].map { $0 != value } ?? (filter?(value) ?? true)
            }
        case .deleted(let ids):
            ids.contains { shownByID[$0] != nil }
        case .removedAll:
            !values.isEmpty
        }
    }

    /// Whether applying `change` here would hold the caller's actor for long: the values it
    /// names times the values shown pass a million (each value moved shifts those after it in
    /// the list; a merge copies the list; `removedAll`, which names them all, frees it). A
    /// view-model applies such a change to a copy off the main actor (``applying(_:to:)``).
    func isCostly(_ change: StoreChange<Value>) -> Bool {
        let named =
            switch change {
            case .saved(let saved): saved.count
            case .deleted(let ids): ids.count
            case .removedAll: values.count
            }
        return named > 1 && named * values.count > 1_000_000
    }

    /// `list` with `change` applied, in a task off the caller's actor, which only takes the
    /// finished list.
    static func applying(_ change: StoreChange<Value>, to list: Self) async -> Self {
        await _Concurrency.Task.detached {
            var list = list
            list.apply(change)
            return list
        }.value
    }

    /// Applies one committed change in place. A large one is sorted by itself and merged into
    /// the list in one pass, instead of moving values once per value, or sorting them all.
    mutating func apply(_ change: StoreChange<Value>) {
        switch change {
        case .saved(let saved) where saved.count > 16:
            merge(saved)
        case .saved(let saved):
            for value in saved { place(value) }
        case .deleted(let ids) where ids.count > 16:
            let removed = Set(ids)
            values.removeAll { removed.contains($0.id) }
            for id in ids { shownByID[id] = nil }
        case .deleted(let ids):
            for id in ids {
                if let old = shownByID.removeValue(forKey: id), let index = index(of: old) {
                    values.remove(at: index)
                }
            }
        case .removedAll:
            values = []
            shownByID = [:]
        }
    }

    /// Replaces the shown values that `saved` holds new values of, and puts the new ones that
    /// the filter accepts in their sorted places: one pass over the list.
    private mutating func merge(_ saved: [Value]) {
        var latest: [Value.ID: Value] = [:]
        for value in saved { latest[value.id] = value }
        let replaced = latest.keys.filter { shownByID[$0] != nil }
        for id in replaced { shownByID[id] = nil }
        let added = latest.values.filter { filter?($0) ?? true }.sorted(by: precedes)
        for value in added { shownByID[value.id] = value }
        let kept = replaced.isEmpty ? values : values.filter { latest[$0.id] == nil }
        var merged: [Value] = []
        merged.reserveCapacity(kept.count + added.count)
        var next = added.startIndex
        for value in kept {
            while next < added.endIndex, precedes(added[next], value) {
                merged.append(added[next])
                next += 1
            }
            merged.append(value)
        }
        merged += added[next...]
        values = merged
    }

    /// Moves `value` to its sorted place, or out of the list when the filter rejects it.
    private mutating func place(_ value: Value) {
        if let old = shownByID[value.id] {
            guard old != value else { return }
            if let index = index(of: old) { values.remove(at: index) }
            shownByID[value.id] = nil
        }
        guard filter?(value) ?? true else { return }
        values.insert(value, at: insertionIndex(for: value))
        shownByID[value.id] = value
    }

    /// Whether `first` comes before `second`: by ``order``, then by id.
    private func precedes(_ first: Value, _ second: Value) -> Bool {
        if let areInIncreasingOrder = order.areInIncreasingOrder {
            if areInIncreasingOrder(first, second) { return true }
            if areInIncreasingOrder(second, first) { return false }
        }
        return Value.precedes(first.id, second.id)
    }

    /// The first position whose value does not come before `value`.
    private func insertionIndex(for value: Value) -> Int {
        StoredValues<Value>.firstIndex(in: values.count) { precedes(values[$0], value) }
    }

    /// Where `value` is shown. An order that does not behave like `<` can defeat the binary
    /// search; then every position is looked at.
    private func index(of value: Value) -> Int? {
        let index = insertionIndex(for: value)
        if index < values.endIndex, values[index].id == value.id { return index }
        return values.firstIndex { $0.id == value.id }
    }
}

/// The revision of the last change a view-model shows, and the calls waiting until it shows a
/// later one: a change it made returns once the stream has brought it, in order with everyone
/// else's, so a later change made elsewhere is never overwritten by this one.
nonisolated struct ShownRevisions<Value: StoredValue> {
    /// The revision of the last change shown: changes up to it are skipped when they arrive.
    var revision = 0
    private var waiting: [(revision: Int, resume: CheckedContinuation<Void, Never>)] = []

    /// Hands a change from the repository's stream to `apply`, unless the list has it, and
    /// returns the calls that waited for it, to be resumed.
    mutating func receive(
        _ revised: Revised<Value>, applying apply: (StoreChange<Value>) -> Void
    ) -> [CheckedContinuation<Void, Never>] {
        guard revised.revision > revision else { return [] }
        apply(revised.change)
        revision = revised.revision
        let ready = waiting.filter { $0.revision <= revision }.map(\.resume)
        waiting.removeAll { $0.revision <= revision }
        return ready
    }

    /// Keeps `resume` until the list shows `revision`; resumes it now when it does.
    mutating func wait(for revision: Int, _ resume: CheckedContinuation<Void, Never>) {
        if revision <= self.revision {
            resume.resume()
        } else {
            waiting.append((revision, resume))
        }
    }

    /// Every waiting call, to be resumed: the stream they waited on has stopped.
    mutating func stopWaiting() -> [CheckedContinuation<Void, Never>] {
        defer { waiting = [] }
        return waiting.map(\.resume)
    }
}
