public import Foundation
public import Observation

// Workshop: `@MainActor` because SwiftUI reads these properties on the main thread; the
// repository does its work on its own actor, and each `await` below hops there and back.
// `@Observable` makes a view that reads `cards` update when it changes, and only then.

/// The state of a screen that lists every ``Card``.
///
/// `@MainActor` because views read it on the main thread; `@Observable` so they update when
/// ``cards`` or ``error`` change. The repository does the work off the main actor.
@MainActor
@Observable
public final class CardListViewModel {
    /// The values, in the repository's order (sorted by id).
    public private(set) var cards: [Card] = []
    /// The error of the last operation that failed; the next one that succeeds clears it.
    public private(set) var error: (any Error)?

    private let repository: CardRepository

    public init(repository: CardRepository) {
        self.repository = repository
    }

    /// Reads the values from the repository.
    public func load() async {
        cards = await repository.loadAll()
    }

    /// Saves `card` (adding or replacing it) and refreshes the list.
    public func add(_ card: Card) async {
        do {
            try await repository.save(card)
            error = nil
        } catch {
            self.error = error
        }
        await load()
    }

    /// Deletes the value with `id` and refreshes the list.
    public func delete(_ id: UUID) async {
        do {
            try await repository.delete(id)
            error = nil
        } catch {
            self.error = error
        }
        await load()
    }
}
