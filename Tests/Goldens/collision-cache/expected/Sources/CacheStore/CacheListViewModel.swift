public import Observation

/// The state of a screen that lists every ``Cache``.
///
/// `@MainActor` because views read it on the main thread; `@Observable` so they update when
/// ``cacheItems`` or ``error`` change. The repository does the work off the main actor.
@MainActor
@Observable
public final class CacheListViewModel {
    /// The values, in the repository's order (sorted by id).
    public private(set) var cacheItems: [Cache] = []
    /// The error of the last operation that failed; the next one that succeeds clears it.
    public private(set) var error: (any Error)?

    private let repository: CacheRepository

    public init(repository: CacheRepository) {
        self.repository = repository
    }

    /// Reads the values from the repository.
    public func load() async {
        cacheItems = await repository.loadAll()
    }

    /// Saves `cacheItem` (adding or replacing it) and refreshes the list.
    public func add(_ cacheItem: Cache) async {
        do {
            try await repository.save(cacheItem)
            error = nil
        } catch {
            self.error = error
        }
        await load()
    }

    /// Deletes the value with `id` and refreshes the list.
    public func delete(_ id: String) async {
        do {
            try await repository.delete(id)
            error = nil
        } catch {
            self.error = error
        }
        await load()
    }
}
