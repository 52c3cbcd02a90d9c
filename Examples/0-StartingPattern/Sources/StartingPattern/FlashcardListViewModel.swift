public import Foundation
public import Observation

/// The state of a screen that lists flashcards: the cards it shows and the last error.
///
/// `@MainActor` because views read it on the main thread; `@Observable` so that they update
/// when ``cards`` or ``errorMessage`` change. Each call awaits the store's actor, off the main
/// thread, and then reads every card again.
@MainActor
@Observable
public final class FlashcardListViewModel {
    /// The cards shown, as the store last returned them.
    public private(set) var cards: [Flashcard] = []
    /// What went wrong in the last change that failed; nil after one that succeeds.
    public private(set) var errorMessage: String?

    private let store: FlashcardStore

    /// A view-model over the cards kept in `fileURL`. Call ``load()`` to show them.
    ///
    /// - Throws: when the store cannot create the file's folder.
    public init(fileURL: URL) throws {
        // Flaw: every view-model opens a store of its own for the same file. Two screens then
        // hold two caches; each save rewrites the whole file from one of them, so it drops the
        // cards only the other one saved, and neither screen sees what the other added.
        // Shown by FlawTests/twoViewModelsKeepEachOthersChanges().
        store = try FlashcardStore(fileURL: fileURL)
    }

    /// Reads every card from the store and shows them.
    public func load() async {
        cards = await store.loadAll()
    }

    /// Saves `card`, adding it or replacing the card with its id, then reads every card again.
    /// When the save fails, the list shows the card all the same (the store kept it in memory).
    public func add(_ card: Flashcard) async {
        do {
            try await store.save(card)
            errorMessage = nil
        } catch {
            errorMessage = error.localizedDescription
        }
        await load()
    }

    /// Deletes the card with `id`, then reads every card again.
    public func delete(id: UUID) async {
        do {
            try await store.delete(id: id)
            errorMessage = nil
        } catch {
            errorMessage = error.localizedDescription
        }
        await load()
    }
}
