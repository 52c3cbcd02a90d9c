public import Observation

/// The state of a screen that lists every ``Sheep``.
///
/// `@MainActor` because views read it on the main thread; `@Observable` so they update when
/// ``flock`` or ``error`` change. The repository does the work off the main actor.
@MainActor
@Observable
public final class SheepListViewModel {
    /// The values, in the repository's order (sorted by id).
    public private(set) var flock: [Sheep] = []
    /// The error of the last operation that failed; the next one that succeeds clears it.
    public private(set) var error: (any Error)?

    private let repository: SheepRepository

    public init(repository: SheepRepository) {
        self.repository = repository
    }

    /// Reads the values from the repository.
    public func load() async {
        flock = await repository.loadAll()
    }

    /// Saves `sheep` (adding or replacing it) and refreshes the list.
    public func add(_ sheep: Sheep) async {
        do {
            try await repository.save(sheep)
            error = nil
        } catch {
            self.error = error
        }
        await load()
    }

    /// Deletes the value with `id` and refreshes the list.
    public func delete(_ id: Int) async {
        do {
            try await repository.delete(id)
            error = nil
        } catch {
            self.error = error
        }
        await load()
    }
}
