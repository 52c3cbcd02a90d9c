public import Foundation
public import Observation

/// The state of a screen that lists ``Memo`` values a page at a time, kept current as the
/// store changes.
///
/// It shows the first ``pageSize`` values of its ``query`` (filtered and sorted in SQL), and
/// ``loadMore()`` adds the next page after the last value shown, so a million stored values
/// are never all in memory. After ``load()``, every change committed to the repository (by this
/// view-model, another one, or a direct call on the repository) is applied in place: a value
/// that the query selects and that sorts among those shown appears at its position; one that
/// sorts after them waits for its page. A value deleted from the window (here or by another
/// process) makes room for the next one, read at once, so the window keeps its length and
/// never empties while values follow it. The window and its order are `StoreQuery.swift`'s
/// `LiveWindow`, which every sqlite view-model in this module shares.
@MainActor
@Observable
public final class MemoListViewModel {
    /// What the list shows: a ``MemoRepository/Query``'s filters and sort (by id unless it
    /// sorts by a field). Its limit and cursor are the view-model's to set.
    public typealias Query = MemoRepository.Query

    /// The values shown: the start of ``query``'s result, a page at a time.
    public var memos: [Memo] { window.values }
    /// True while ``load()`` or ``loadMore()`` reads.
    public private(set) var isLoading = false
    /// The error of the last operation that failed; the next one that succeeds clears it.
    public private(set) var error: (any Error)?
    /// Whether values follow the last one shown: ``loadMore()`` reads them.
    public var hasMore: Bool { !window.isComplete }
    /// How many values ``load()`` and each ``loadMore()`` read.
    public let pageSize: Int
    /// The filters and sort of the values shown; change it with ``show(_:)``.
    public var query: Query { window.query }

    private let repository: MemoRepository
    /// The values shown, in the query's order; views observe it through ``memos``.
    private var window: LiveWindow<Memo>
    /// The revision the list shows, and the calls waiting for a later one.
    @ObservationIgnored private var shownRevisions = ShownRevisions<Memo>()
    /// The task that applies the repository's changes; cancelled with the view-model.
    @ObservationIgnored private var following: Task<Void, Never>?
    /// Counts calls to ``load()``, so that one that an older call overtook shows nothing, and a
    /// ``loadMore()`` that a new load overtook adds nothing.
    @ObservationIgnored private var loads = 0
    /// Whether values are being read to take the place of values deleted from the window.
    @ObservationIgnored private var isRefilling = false

    /// A view-model over `repository` that shows `query`'s values (all of them, by id, unless
    /// you choose), `pageSize` at a time. Call ``load()`` to show the first page.
    public init(repository: MemoRepository, query: Query = Query(), pageSize: Int = 50) {
        self.repository = repository
        // A page is read with one more value, to know whether more follow.
        self.pageSize = min(max(1, pageSize), Int.max - 1)
        window = LiveWindow(query: query)
    }

    deinit {
        following?.cancel()
    }

    /// A view-model over ``MemoRepository/inMemory(_:)`` holding `values`, already showing
    /// them, for a SwiftUI preview (which then needs no `.task { await viewModel.load() }`).
    /// It follows the in-memory repository's changes, as ``load()`` does, a moment later.
    public static func preview(
        _ values: [Memo], query: Query = Query(), pageSize: Int = 50
    ) -> MemoListViewModel {
        let viewModel = MemoListViewModel(
            repository: .inMemory(values), query: query, pageSize: pageSize)
        let shown = values.filter { query.matches($0) }.sorted { query.precedes($0, $1) }
        viewModel.window.show(
            Array(shown.prefix(viewModel.pageSize)), isComplete: shown.count <= viewModel.pageSize,
            pageSize: viewModel.pageSize)
        Task { await viewModel.load() }
        return viewModel
    }

    /// Reads the first page, then follows the repository: each change committed from now on, by
    /// anyone, is applied to ``memos`` in place.
    public func load() async {
        loads += 1
        let load = loads
        isLoading = true
        do {
            // The page, and the changes after it, in one call on the repository: none falls
            // between, and none is applied twice.
            let (values, isComplete, revision, changes) =
                try await repository.firstPageAndChanges(window.query.after(nil), size: pageSize)
            guard load == loads else { return }  // A later load() shows its own values.
            stopFollowing()
            window.show(values, isComplete: isComplete, pageSize: pageSize)
            shownRevisions.revision = revision
            following = Task { [weak self] in
                for await revised in changes {
                    self?.receive(revised)
                }
            }
            error = nil
        } catch {
            guard load == loads else { return }
            self.error = error
        }
        isLoading = false
    }

    /// Reads the next page after the last value shown, and adds it; nothing when
    /// ``hasMore`` is false. Call it when the last row appears, for example.
    public func loadMore() async {
        guard following != nil else { return await load() }
        guard hasMore, !isLoading else { return }
        isLoading = true
        defer { isLoading = false }
        await readAfterTheLastValueShown(pageSize) { window, values, isComplete in
            window.append(values, isComplete: isComplete, pageSize: pageSize)
        }
    }

    /// Reads `size` values after the last one shown and passes them to `add`. Changes may
    /// arrive while they are read: they are added when the list shows exactly the changes up to
    /// the revision they were read at, after the value they were read after; else they are read
    /// again (a few times at most: the next call tries again). Returns whether they were added.
    @discardableResult
    private func readAfterTheLastValueShown(
        _ size: Int,
        add: (inout LiveWindow<Memo>, [Memo], Bool) -> Void
    ) async -> Bool {
        let load = loads
        do {
            for _ in 0..<3 {
                let last = window.values.last
                let (values, isComplete, revision) = try await repository.page(
                    window.nextPage(size: size), size: size)
                await withCheckedContinuation { resume in
                    shownRevisions.wait(for: revision, resume)
                }
                guard load == loads, following != nil else { return false }  // A new load() shows.
                guard shownRevisions.revision == revision, window.values.last == last else {
                    continue
                }
                add(&window, values, isComplete)
                error = nil
                return true
            }
        } catch {
            self.error = error
        }
        return false
    }

    /// Reads the values that take the place of those deleted from the window, while values
    /// follow it: else deleting every value shown would leave an empty list, with no last row
    /// to appear and call ``loadMore()``.
    private func refill() async {
        guard !isRefilling else { return }
        isRefilling = true
        // More may be deleted while values are read: a few rounds. A read that a change
        // overtook is tried again in a new task, which that change did not start. An error, or
        // a read that adds nothing (SQL selects a value that Swift's filter does not), waits
        // for the next change.
        var overtaken = false
        for _ in 0..<3 where following != nil && window.missing > 0 {
            let shown = window.values.count
            let added = await readAfterTheLastValueShown(min(window.missing, pageSize)) {
                window, values, isComplete in
                window.refill(values, isComplete: isComplete)
            }
            overtaken = !added && error == nil
            if !added || window.values.count == shown { break }
        }
        isRefilling = false
        if overtaken, following != nil, window.missing > 0 {
            Task { [weak self] in await self?.refill() }
        }
    }

    /// Shows `query`'s values from now on (its filters and sort), and reads its first page.
    public func show(_ query: Query) async {
        stopFollowing()
        window = LiveWindow(query: query)
        await load()
    }

    /// Saves `memo`, adding or replacing it, and shows it at its place (when it
    /// sorts among the values shown).
    public func add(_ memo: Memo) async {
        await perform(.saved([memo])) {
            try await $0.save(memo)
        }
    }

    /// Changes the value with `id` in place and saves it; nothing happens when there is none.
    public func update(id: Int, _ change: @Sendable (inout Memo) -> Void) async {
        do {
            try await repository.update(id: id, change)
            let value = following == nil ? try await repository.find(by: id) : nil
            error = nil
            await reflect(value.map { .saved([$0]) }, revision: await repository.revision)
        } catch {
            self.error = error
        }
    }

    /// Deletes the value with `id`.
    public func delete(_ id: Int) async {
        await perform(.deleted([id])) {
            try await $0.delete(id)
        }
    }

    /// Deletes the values at these positions of ``memos`` in a task, their ids taken
    /// at once: what a SwiftUI list's `onDelete` gives (`.onDelete(perform:
    /// model.delete(atOffsets:))`). A change from elsewhere that moves the values before the
    /// task runs cannot turn an offset into another value's.
    public func delete(atOffsets offsets: IndexSet) {
        let ids = shownIDs(atOffsets: offsets)
        Task { await self.delete(shownIDs: ids) }
    }

    /// Deletes the values at these positions of ``memos`` as they are when it runs,
    /// and returns once the list shows the change.
    public func delete(atOffsets offsets: IndexSet) async {
        await delete(shownIDs: shownIDs(atOffsets: offsets))
    }

    private func shownIDs(atOffsets offsets: IndexSet) -> [Int] {
        let shown = memos
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
        _ change: MemoRepository.Change,
        _ operation: (MemoRepository) async throws -> Void
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
    private func reflect(_ change: MemoRepository.Change?, revision: Int) async {
        guard following != nil else {
            if let change { show(change) }
            return
        }
        await withCheckedContinuation { resume in
            shownRevisions.wait(for: revision, resume)
        }
    }

    /// Applies a change from the stream, unless the list has it, and lets the calls waiting
    /// for it return.
    private func receive(_ revised: Revised<Memo>) {
        for call in shownRevisions.receive(revised, applying: { show($0) }) { call.resume() }
        if window.missing > 0, !isRefilling {
            Task { [weak self] in await self?.refill() }
        }
    }

    /// Cancels the stream being followed and lets every waiting call return.
    private func stopFollowing() {
        following?.cancel()
        following = nil
        for call in shownRevisions.stopWaiting() { call.resume() }
    }

    /// Applies `change` to the list, when it changes what is shown.
    private func show(_ change: MemoRepository.Change) {
        if window.affects(change) { window.apply(change) }
    }
}
