public import Foundation
public import Observation

// Workshop: `@MainActor` because SwiftUI reads these properties on the main thread; each
// `await` below hops to the repository's actor and back. After `load()` the view-model follows
// the repository's `changes()`: a save made by another screen moves one value in this list, and
// two view-models never overwrite each other's changes (step 0's flaw: each kept its own copy).

/// The state of a screen that lists ``Flashcard`` values: after ``load()``, every change committed
/// to the repository, by anyone, is applied to ``flashcards``.
@MainActor
@Observable
public final class FlashcardListViewModel {
    /// How ``flashcards`` is sorted: `.byID` (the default), `.by(\.field)`, `.by(\.field,
    /// descending: true)`, or any rule. Values the rule keeps equal are ordered by id.
    public nonisolated struct Ordering: Sendable {
        let rule: @Sendable (Flashcard, Flashcard) -> Bool

        /// Sorted by `areInIncreasingOrder`, which must behave like `<`.
        public init(_ areInIncreasingOrder: @escaping @Sendable (Flashcard, Flashcard) -> Bool) {
            rule = areInIncreasingOrder
        }

        /// By id, the repository's own order: a rule that keeps every value equal.
        public static var byID: Self { Self { _, _ in false } }

        /// By `field`, smallest first, or largest first when `descending`.
        public static func by<FieldValue: Comparable & Sendable>(
            _ field: KeyPath<Flashcard, FieldValue>, descending: Bool = false
        ) -> Self {
            nonisolated(unsafe) let field = field  // Immutable: safe to read anywhere.
            return Self { first, second in
                let (a, b) = descending ? (second, first) : (first, second)
                return a[keyPath: field] < b[keyPath: field]
            }
        }

        /// By an optional `field`; values without one come first, or last when `descending`.
        public static func by<FieldValue: Comparable & Sendable>(
            _ field: KeyPath<Flashcard, FieldValue?>, descending: Bool = false
        ) -> Self {
            nonisolated(unsafe) let field = field
            return Self { first, second in
                let (a, b) = descending ? (second, first) : (first, second)
                guard let b = b[keyPath: field] else { return false }
                return a[keyPath: field].map { $0 < b } ?? true
            }
        }

        /// Whether `first` comes before `second`: by the rule, then by id.
        func precedes(_ first: Flashcard, _ second: Flashcard) -> Bool {
            rule(first, second)
                || !rule(second, first) && FlashcardRepository.precedes(first.id, second.id)
        }
    }

    /// The values shown: those that ``filter`` accepts, sorted by ``order``.
    public private(set) var flashcards: [Flashcard] = []
    /// True while ``load()`` reads the values.
    public private(set) var isLoading = false
    /// The error of the last operation that failed; the next one that succeeds clears it.
    public private(set) var error: (any Error)?
    /// How ``flashcards`` is sorted, chosen at `init`.
    public let order: Ordering
    /// Which values ``flashcards`` shows; nil shows them all. Set it with ``filter(by:)``.
    public private(set) var filter: (@Sendable (Flashcard) -> Bool)?

    private let repository: FlashcardRepository
    @ObservationIgnored private var nextFilter: (@Sendable (Flashcard) -> Bool)?
    // Workshop: two `load()` calls can finish out of order (each awaits the actor); the
    // counter lets only the latest one show its values.
    @ObservationIgnored private var loads = 0  // So that a load() overtaken shows nothing.
    /// The task that applies the repository's changes, and the revision ``flashcards`` shows.
    @ObservationIgnored private var following: Task<Void, Never>?
    @ObservationIgnored private var shownRevision = 0
    /// Calls that return once ``flashcards`` shows their revision.
    @ObservationIgnored
    private var waiting: [(revision: Int, call: CheckedContinuation<Void, Never>)] = []

    /// A view-model over `repository`, sorted by `order`. Call ``load()`` to show the values.
    public init(repository: FlashcardRepository, order: Ordering = .byID) {
        (self.repository, self.order) = (repository, order)
    }

    deinit { following?.cancel() }

    /// A view-model over ``FlashcardRepository/inMemory(_:)`` holding `values`, showing them at once,
    /// for a SwiftUI preview; it follows the repository's changes a moment later.
    public static func preview(
        _ values: [Flashcard], order: Ordering = .byID
    ) -> FlashcardListViewModel {
        let viewModel = FlashcardListViewModel(repository: .inMemory(values), order: order)
        let unique = Dictionary(values.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        viewModel.flashcards = unique.values.sorted(by: order.precedes)
        Task { await viewModel.load() }
        return viewModel
    }

    /// Reads the values, then follows the repository: each change committed from now on, by
    /// anyone, is applied to ``flashcards``.
    public func load() async {
        loads += 1
        let (load, filter) = (loads, nextFilter)
        isLoading = true
        let (values, revision, changes) = await repository.valuesAndChanges(where: filter)
        guard load == loads else { return }  // A later load() shows its own values.
        stopFollowing()
        (isLoading, self.filter, shownRevision) = (false, filter, revision)
        flashcards = values.sorted(by: order.precedes)
        following = Task { [weak self] in
            // A stream hands out what it holds after its task is cancelled: not applied.
            for await (revision, change) in changes where !Task.isCancelled {
                self?.receive(change, revision: revision)
            }
        }
    }

    /// Shows only the values `isIncluded` accepts (all when it is nil), and reads them again.
    public func filter(by isIncluded: (@Sendable (Flashcard) -> Bool)?) async {
        nextFilter = isIncluded
        await load()
    }

    /// Saves `flashcard`, adding or replacing it, and shows it at its place.
    public func add(_ flashcard: Flashcard) async {
        await perform(.saved([flashcard])) { try await $0.save(flashcard) }
    }

    /// Changes the value with `id` in place and saves it; nothing happens when there is none.
    public func update(id: UUID, _ change: @Sendable (inout Flashcard) -> Void) async {
        await perform(nil) { _ = try await $0.update(id: id, change) }
        if following == nil, error == nil, let value = await repository.find(by: id) {
            show(.saved([value]))
        }
    }

    /// Deletes the value with `id`.
    public func delete(_ id: UUID) async {
        await perform(.deleted([id])) { try await $0.delete(id) }
    }

    /// Deletes the values at these positions of ``flashcards`` in a task, their ids taken at once:
    /// what a SwiftUI list's `onDelete` gives.
    public func delete(atOffsets offsets: IndexSet) {
        let ids = offsets.filter(flashcards.indices.contains).map { flashcards[$0].id }
        Task { await perform(.deleted(ids)) { try await $0.delete(ids: ids) } }
    }

    /// Deletes the values at these positions of ``flashcards``, and returns once the list shows it.
    public func delete(atOffsets offsets: IndexSet) async {
        let ids = offsets.filter(flashcards.indices.contains).map { flashcards[$0].id }
        await perform(.deleted(ids)) { try await $0.delete(ids: ids) }
    }

    // Workshop: after `load()`, a call's own change reaches the list through the repository's
    // stream, in the order the repository committed it; the call waits until the list shows
    // its revision, so `await viewModel.add(x)` returns with `x` on screen.
    /// Runs `operation`, and returns once ``flashcards`` shows its change. After ``load()`` the
    /// change comes through the repository's stream, in order with everyone else's, so a later
    /// change made elsewhere is never overwritten by this one; before, `change` is shown here.
    private func perform(
        _ change: FlashcardRepository.Change?,
        _ operation: (FlashcardRepository) async throws -> Void
    ) async {
        do {
            try await operation(repository)
            error = nil
        } catch {
            self.error = error
            return
        }
        let revision = await repository.revision
        guard following != nil else {
            if let change { show(change) }
            return
        }
        guard revision > shownRevision else { return }
        await withCheckedContinuation { waiting.append((revision, $0)) }
    }

    /// Applies a change from the stream, unless ``flashcards`` has it, and lets the calls waiting
    /// for it return.
    private func receive(_ change: FlashcardRepository.Change, revision: Int) {
        guard revision > shownRevision else { return }
        show(change)
        shownRevision = revision
        for waiter in waiting where waiter.revision <= revision { waiter.call.resume() }
        waiting.removeAll { $0.revision <= revision }
    }

    /// Stops following the stream, and lets every waiting call return.
    private func stopFollowing() {
        following?.cancel()
        following = nil
        for waiter in waiting { waiter.call.resume() }
        waiting = []
    }

    /// Applies `change` to ``flashcards``; views are told only when what they show changes.
    private func show(_ change: FlashcardRepository.Change) {
        var shown = flashcards
        switch change {
        case .saved(let saved):
            let latest = Dictionary(saved.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
            shown.removeAll { latest[$0.id] != nil }
            shown += latest.values.filter { filter?($0) ?? true }
            shown.sort(by: order.precedes)
        case .deleted(let ids):
            let deleted = Set(ids)
            shown.removeAll { deleted.contains($0.id) }
        case .removedAll: shown = []
        }
        if shown != flashcards { flashcards = shown }
    }
}
