public import Foundation
public import Observation

// Workshop: `@MainActor` because SwiftUI reads these properties on the main thread; the
// repository does its work on its own actor, and each `await` below hops there and back.
// `@Observable` makes a view that reads `recipes` update when it changes, and only then.

/// The state of a screen that lists every ``Recipe``.
///
/// `@MainActor` because views read it on the main thread; `@Observable` so they update when
/// ``recipes`` or ``error`` change. The repository does the work off the main actor.
@MainActor
@Observable
public final class RecipeListViewModel {
    /// The values, in the repository's order (sorted by id).
    public private(set) var recipes: [Recipe] = []
    /// The error of the last operation that failed; the next one that succeeds clears it.
    public private(set) var error: (any Error)?

    private let repository: RecipeRepository

    public init(repository: RecipeRepository) {
        self.repository = repository
    }

    /// Reads the values from the repository.
    public func load() async {
        recipes = await repository.loadAll()
    }

    /// Saves `recipe` (adding or replacing it) and refreshes the list.
    public func add(_ recipe: Recipe) async {
        do {
            try await repository.save(recipe)
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
