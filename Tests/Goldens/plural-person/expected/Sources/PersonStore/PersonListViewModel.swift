public import Foundation
public import Observation

/// The state of a screen that lists ``Person`` values, kept current as the store changes.
///
/// `@MainActor` because views read it on the main thread; `@Observable` so they update when
/// ``people``, ``isLoading`` or ``error`` change. The repository does the work off the
/// main actor. After ``load()``, every change committed to the repository (by this view-model,
/// another one, or a direct call on the repository) is applied to ``people`` in place,
/// at its sorted position, without reading the list again.
@MainActor
@Observable
public final class PersonListViewModel {
    /// How the list is sorted. Values that the rule keeps equal are ordered by id, so the order
    /// is the same on every run.
    public struct Ordering {
        fileprivate let areInIncreasingOrder: (Person, Person) -> Bool
        fileprivate let isByID: Bool

        /// Sorted by `areInIncreasingOrder`, which must behave like `<`: a value never comes
        /// before itself, and if `a` comes before `b` and `b` before `c`, `a` comes before `c`.
        public init(_ areInIncreasingOrder: @escaping (Person, Person) -> Bool) {
            self.areInIncreasingOrder = areInIncreasingOrder
            isByID = false
        }

        private init(byID: Void) {
            areInIncreasingOrder = { PersonRepository.precedes($0.id, $1.id) }
            isByID = true
        }

        /// By id, the repository's own order: the default.
        public static var byID: Ordering { Ordering(byID: ()) }

        /// By `field`, smallest first, or largest first when `descending`.
        public static func by<Value: Comparable>(
            _ field: KeyPath<Person, Value>, descending: Bool = false
        ) -> Ordering {
            Ordering { first, second in
                descending
                    ? second[keyPath: field] < first[keyPath: field]
                    : first[keyPath: field] < second[keyPath: field]
            }
        }

        /// By an optional `field`; values without one come first, or last when `descending`.
        public static func by<Value: Comparable>(
            _ field: KeyPath<Person, Value?>, descending: Bool = false
        ) -> Ordering {
            let ascending = { (first: Value?, second: Value?) -> Bool in
                guard let second else { return false }
                guard let first else { return true }
                return first < second
            }
            return Ordering { first, second in
                descending
                    ? ascending(second[keyPath: field], first[keyPath: field])
                    : ascending(first[keyPath: field], second[keyPath: field])
            }
        }
    }

    /// The values shown: those that ``filter`` accepts, sorted by ``order``.
    public private(set) var people: [Person] = []
    /// True while ``load()`` reads the values.
    public private(set) var isLoading = false
    /// The error of the last operation that failed; the next one that succeeds clears it.
    public private(set) var error: (any Error)?
    /// How ``people`` is sorted, chosen at `init`.
    public let order: Ordering
    /// Which values ``people`` shows; nil shows them all. Set it with
    /// ``filter(by:)``.
    public private(set) var filter: (@Sendable (Person) -> Bool)?

    private let repository: PersonRepository
    /// The values shown, by id, so that a change finds a value's place without a search.
    @ObservationIgnored private var shownByID: [String: Person] = [:]
    /// The task that applies the repository's changes; cancelled with the view-model.
    @ObservationIgnored private var following: Task<Void, Never>?
    /// The revision of the last change shown: changes up to it are skipped when they arrive.
    @ObservationIgnored private var shownRevision = 0
    /// Calls waiting until the list shows a revision.
    @ObservationIgnored private var waiting:
        [(revision: Int, resume: CheckedContinuation<Void, Never>)] = []
    /// Counts calls to ``load()``, so that one that an older call overtook shows nothing.
    @ObservationIgnored private var loads = 0

    /// A view-model over `repository`, sorted by `order` (by id unless you choose another).
    /// Call ``load()`` to show the values.
    public init(repository: PersonRepository, order: Ordering = .byID) {
        self.repository = repository
        self.order = order
    }

    deinit {
        following?.cancel()
    }

    /// Reads the values, then follows the repository: each change committed from now on, by
    /// anyone, is applied to ``people`` in place.
    public func load() async {
        loads += 1
        let load = loads
        isLoading = true
        // The values, and the changes after them, in one call on the repository: none falls
        // between, and none is applied twice.
        let (values, revision, changes) = await repository.valuesAndChanges(where: filter)
        guard load == loads else { return }  // A later load() shows its own values.
        isLoading = false
        stopFollowing()
        show(values, inIDOrder: true)
        shownRevision = revision
        following = Task { [weak self] in
            for await revised in changes {
                self?.receive(revised)
            }
        }
    }

    /// Shows only the values `isIncluded` accepts (all of them when it is nil), from now on,
    /// and reads them again. Changes that make a value match, or stop matching, move it in or
    /// out of the list.
    public func filter(by isIncluded: (@Sendable (Person) -> Bool)?) async {
        filter = isIncluded
        await load()
    }

    /// Saves `person`, adding or replacing it, and shows it at its place.
    public func add(_ person: Person) async {
        await perform(.saved([person])) {
            try await $0.save(person)
        }
    }

    /// Changes the value with `id` in place and saves it; nothing happens when there is none.
    public func update(id: String, _ change: @Sendable (inout Person) -> Void) async {
        do {
            try await repository.update(id: id, change)
            error = nil
        } catch {
            self.error = error
            return
        }
        let value = following == nil ? await repository.find(by: id) : nil
        await reflect(value.map { .saved([$0]) }, revision: await repository.revision)
    }

    /// Deletes the value with `id`.
    public func delete(_ id: String) async {
        await perform(.deleted([id])) {
            try await $0.delete(id)
        }
    }

    /// Deletes the values at these positions of ``people``, as a SwiftUI list's
    /// `onDelete` gives them.
    public func delete(atOffsets offsets: IndexSet) async {
        let shown = people
        let ids = offsets.filter { shown.indices.contains($0) }.map { shown[$0].id }
        guard !ids.isEmpty else { return }
        await perform(.deleted(ids)) {
            try await $0.delete(ids: ids)
        }
    }

    /// Runs `operation` on the repository and returns once the list shows its change. After
    /// ``load()`` the change comes through `changes()`, in order with everyone else's, so a
    /// later change made elsewhere is never overwritten by this one; before, it is applied here.
    private func perform(
        _ change: PersonRepository.Change,
        _ operation: (PersonRepository) async throws -> Void
    ) async {
        do {
            try await operation(repository)
            error = nil
        } catch {
            self.error = error
            return
        }
        await reflect(change, revision: await repository.revision)
    }

    /// Shows `change`, which made `revision` or an earlier one: now, when the view-model follows
    /// no stream; else by waiting until the stream has brought the list to `revision`.
    private func reflect(_ change: PersonRepository.Change?, revision: Int) async {
        guard following != nil else {
            if let change { apply(change) }
            return
        }
        guard shownRevision < revision else { return }
        await withCheckedContinuation { resume in
            waiting.append((revision, resume))
        }
    }

    /// Applies a change from the stream, unless the list has it, and lets the calls waiting
    /// for it return.
    private func receive(_ revised: PersonRepository.Revised) {
        guard revised.revision > shownRevision else { return }
        apply(revised.change)
        shownRevision = revised.revision
        let ready = waiting.filter { $0.revision <= shownRevision }
        waiting.removeAll { $0.revision <= shownRevision }
        for call in ready { call.resume.resume() }
    }

    /// Cancels the stream being followed and lets every waiting call return.
    private func stopFollowing() {
        following?.cancel()
        following = nil
        let stopped = waiting
        waiting = []
        for call in stopped { call.resume.resume() }
    }

    // MARK: - Applying changes

    /// Shows `values`, which the filter accepts, sorted by ``order``.
    private func show(_ values: [Person], inIDOrder: Bool) {
        people = inIDOrder && order.isByID ? values : values.sorted(by: precedes)
        shownByID = Dictionary(people.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
    }

    /// Applies one committed change in place. A large one sorts once instead of moving each
    /// value.
    private func apply(_ change: PersonRepository.Change) {
        switch change {
        case .saved(let saved) where saved.count > 16:
            for value in saved {
                shownByID[value.id] = (filter?(value) ?? true) ? value : nil
            }
            show(Array(shownByID.values), inIDOrder: false)
        case .saved(let saved):
            saved.forEach(place)
        case .deleted(let ids) where ids.count > 16:
            let removed = Set(ids)
            people.removeAll { removed.contains($0.id) }
            for id in ids { shownByID[id] = nil }
        case .deleted(let ids):
            for id in ids {
                if let old = shownByID.removeValue(forKey: id), let index = index(of: old) {
                    people.remove(at: index)
                }
            }
        case .removedAll:
            people = []
            shownByID = [:]
        }
    }

    /// Moves `value` to its sorted place, or out of the list when the filter rejects it.
    private func place(_ value: Person) {
        if let old = shownByID[value.id] {
            guard old != value else { return }
            if let index = index(of: old) { people.remove(at: index) }
            shownByID[value.id] = nil
        }
        guard filter?(value) ?? true else { return }
        people.insert(value, at: insertionIndex(for: value))
        shownByID[value.id] = value
    }

    /// Whether `first` comes before `second`: by ``order``, then by id.
    private func precedes(_ first: Person, _ second: Person) -> Bool {
        if order.isByID { return PersonRepository.precedes(first.id, second.id) }
        if order.areInIncreasingOrder(first, second) { return true }
        if order.areInIncreasingOrder(second, first) { return false }
        return PersonRepository.precedes(first.id, second.id)
    }

    /// The first position whose value does not come before `value`.
    private func insertionIndex(for value: Person) -> Int {
        var (low, high) = (people.startIndex, people.endIndex)
        while low < high {
            let middle = low + (high - low) / 2
            if precedes(people[middle], value) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    /// Where `value` is shown. An order that does not behave like `<` can defeat the binary
    /// search; then every position is looked at.
    private func index(of value: Person) -> Int? {
        let index = insertionIndex(for: value)
        if index < people.endIndex, people[index].id == value.id { return index }
        return people.firstIndex { $0.id == value.id }
    }
}
