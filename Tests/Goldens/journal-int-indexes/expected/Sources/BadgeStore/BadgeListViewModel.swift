public import Foundation
public import Observation

/// The state of a screen that lists ``Badge`` values, kept current as the store changes.
///
/// `@MainActor` because views read it on the main thread; `@Observable` so they update when
/// ``badges``, ``isLoading`` or ``error`` change. The repository does the work off the
/// main actor. After ``load()``, every change committed to the repository (by this view-model,
/// another one, or a direct call on the repository) is applied to ``badges`` in place,
/// at its sorted position, without reading the list again. The list itself, and how a change
/// moves it, is `LiveList.swift`, which every view-model in this module shares.
@MainActor
@Observable
public final class BadgeListViewModel {
    /// How ``badges`` is sorted: `.byID` (the default), `.by(\.field)`,
    /// `.by(\.field, descending: true)`, or any rule (see ``ListOrdering``). Values the rule
    /// keeps equal are ordered by id, so the order is the same on every run.
    public typealias Ordering = ListOrdering<Badge>

    /// The values shown: those that ``filter`` accepts, sorted by ``order``.
    public var badges: [Badge] { shownList.values }
    /// True while ``load()`` reads the values.
    public private(set) var isLoading = false
    /// The error of the last operation that failed; the next one that succeeds clears it.
    public private(set) var error: (any Error)?
    /// How ``badges`` is sorted, chosen at `init`.
    public let order: Ordering
    /// Which values ``badges`` shows; nil shows them all. Set it with
    /// ``filter(by:)``.
    public var filter: (@Sendable (Badge) -> Bool)? { shownList.filter }
    /// The filter that the next ``load()`` shows.
    @ObservationIgnored private var loadedFilter: (@Sendable (Badge) -> Bool)?

    private let repository: BadgeRepository
    /// The values shown, in order; views observe it through ``badges``, and are told
    /// only of changes that change it.
    private var shownList: LiveList<Badge>
    /// The revision the list shows, and the calls waiting for a later one.
    @ObservationIgnored private var shownRevisions = ShownRevisions<Badge>()
    /// The task that applies the repository's changes; cancelled with the view-model.
    @ObservationIgnored private var following: Task<Void, Never>?
    /// Counts calls to ``load()``, so that one that an older call overtook shows nothing.
    @ObservationIgnored private var loads = 0

    /// A view-model over `repository`, sorted by `order` (by id unless you choose another).
    /// Call ``load()`` to show the values.
    public init(repository: BadgeRepository, order: Ordering = .byID) {
        self.repository = repository
        self.order = order
        shownList = LiveList(order: order)
    }

    deinit {
        following?.cancel()
    }

    /// A view-model over ``BadgeRepository/inMemory(_:)`` holding `values`, already showing
    /// them, for a SwiftUI preview (which then needs no `.task { await viewModel.load() }`).
    /// It follows the in-memory repository's changes, as ``load()`` does, a moment later.
    public static func preview(
        _ values: [Badge], order: Ordering = .byID
    ) -> BadgeListViewModel {
        let viewModel = BadgeListViewModel(repository: .inMemory(values), order: order)
        var stored = StoredValues<Badge>()
        stored.apply(.saved(values))
        viewModel.shownList.show(stored.items, inIDOrder: true)
        Task { await viewModel.load() }
        return viewModel
    }

    /// Reads the values, then follows the repository: each change committed from now on, by
    /// anyone, is applied to ``badges`` in place. The values are read, filtered,
    /// sorted and indexed off the main actor; it only takes the finished list.
    public func load() async {
        loads += 1
        let load = loads
        isLoading = true
        // The values, and the changes after them, in one call on the repository: none falls
        // between, and none is applied twice.
        let filter = loadedFilter
        let (values, revision, changes) = await repository.valuesAndChanges(where: filter)
        guard load == loads else { return }  // A later load() shows its own values.
        // Sorting and indexing take longer as the store grows: they are done off the main
        // actor, which only takes the finished list, so no frame waits for them.
        let arranged = await LiveList.arranged(values, order: order, filter: filter)
        guard load == loads else { return }
        isLoading = false
        stopFollowing()
        let shown = shownList
        shownList = arranged
        // Freeing the list shown before takes longer than a frame at a few hundred thousand
        // values: its last reference goes to a task off the main actor.
        LiveList.release(consume shown)
        shownRevisions.revision = revision
        following = Task { [weak self] in
            // A stream hands out what it holds after its task is cancelled: a stream that a
            // later load() replaced must apply nothing more over that load's list.
            for await revised in changes where !Task.isCancelled {
                await self?.receive(revised)
            }
        }
    }

    /// Shows only the values `isIncluded` accepts (all of them when it is nil), from now on,
    /// and reads them again. Changes that make a value match, or stop matching, move it in or
    /// out of the list.
    public func filter(by isIncluded: (@Sendable (Badge) -> Bool)?) async {
        loadedFilter = isIncluded
        await load()
    }

    /// Saves `badge`, adding or replacing it, and shows it at its place.
    public func add(_ badge: Badge) async {
        await perform(.saved([badge])) {
            try await $0.save(badge)
        }
    }

    /// Changes the value with `id` in place and saves it; nothing happens when there is none.
    public func update(id: Int, _ change: @Sendable (inout Badge) -> Void) async {
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
    public func delete(_ id: Int) async {
        await perform(.deleted([id])) {
            try await $0.delete(id)
        }
    }

    /// Deletes the values at these positions of ``badges`` in a task, their ids taken
    /// at once: what a SwiftUI list's `onDelete` gives (`.onDelete(perform:
    /// model.delete(atOffsets:))`). A change from elsewhere that moves the values before the
    /// task runs cannot turn an offset into another value's.
    public func delete(atOffsets offsets: IndexSet) {
        let ids = shownIDs(atOffsets: offsets)
        Task { await self.delete(shownIDs: ids) }
    }

    /// Deletes the values at these positions of ``badges`` as they are when it runs,
    /// and returns once the list shows the change.
    public func delete(atOffsets offsets: IndexSet) async {
        await delete(shownIDs: shownIDs(atOffsets: offsets))
    }

    private func shownIDs(atOffsets offsets: IndexSet) -> [Int] {
        let shown = badges
        return offsets.filter { shown.indices.contains($0) }.map { shown[$0].id }
    }

    private func delete(shownIDs ids: [Int]) async {
        guard !ids.isEmpty else { return }
        await perform(.deleted(ids)) {
            try await $0.delete(ids: ids)
        }
    }

    /// Runs `operation` on the repository and returns once the list shows its change. After
    /// ``load()`` the change comes through `changes()`, in order with everyone else's, so a
    /// later change made elsewhere is never overwritten by this one; before, it is applied here.
    private func perform(
        _ change: BadgeRepository.Change,
        _ operation: (BadgeRepository) async throws -> Void
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
    private func reflect(_ change: BadgeRepository.Change?, revision: Int) async {
        guard following != nil else {
            if let change { show(change) }
            return
        }
        await withCheckedContinuation { resume in
            shownRevisions.wait(for: revision, resume)
        }
    }

    /// Applies a change from the stream, unless the list has it, and lets the calls waiting
    /// for it return. A change that would take long beside the list shown (many values in a
    /// long list) is applied to a copy off the main actor, which only takes the finished list;
    /// the stream's next change waits for it.
    private func receive(_ revised: Revised<Badge>) async {
        if revised.revision > shownRevisions.revision, shownList.affects(revised.change),
            shownList.isCostly(revised.change)
        {
            let applied = await LiveList.applying(revised.change, to: shownList)
            // A load() meanwhile stopped this stream and shows values of its own; the list
            // made here is freed off the main actor too.
            guard !Task.isCancelled else {
                LiveList.release(consume applied)
                return
            }
            let shown = shownList
            shownList = applied
            LiveList.release(consume shown)
            for call in shownRevisions.receive(revised, applying: { _ in }) { call.resume() }
            return
        }
        for call in shownRevisions.receive(revised, applying: { show($0) }) { call.resume() }
    }

    /// Cancels the stream being followed and lets every waiting call return.
    private func stopFollowing() {
        following?.cancel()
        following = nil
        for call in shownRevisions.stopWaiting() { call.resume() }
    }

    /// Applies `change` to the list, when it changes what is shown.
    private func show(_ change: BadgeRepository.Change) {
        if shownList.affects(change) { shownList.apply(change) }
    }
}
