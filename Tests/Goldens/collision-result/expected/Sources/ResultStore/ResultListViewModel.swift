public import Foundation
public import Observation

/// The state of a screen that lists every ``Result``.
///
/// `@MainActor` because views read it on the main thread; `@Observable` so they update when
/// ``results`` or ``error`` change. The repository does the work off the main actor.
@MainActor
@Observable
public final class ResultListViewModel {
    /// The values, in the repository's order (sorted by id).
    public private(set) var results: [Result] = []
    /// The error of the last operation that failed; the next one that succeeds clears it.
    public private(set) var error: (any Error)?

    private let repository: ResultRepository

    public init(repository: ResultRepository) {
        self.repository = repository
    }

    /// Reads the values from the repository.
    public func load() async {
        results = await repository.loadAll()
    }

    /// Saves `result` (adding or replacing it) and refreshes the list.
    public func add(_ result: Result) async {
        do {
            try await repository.save(result)
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
