public import Observation

/// The state of a screen that lists every ``Task``.
///
/// `@MainActor` because views read it on the main thread; `@Observable` so they update when
/// ``tasks`` or ``error`` change. The repository does the work off the main actor.
@MainActor
@Observable
public final class TaskListViewModel {
    /// The values, in the repository's order (sorted by id).
    public private(set) var tasks: [Task] = []
    /// The error of the last operation that failed; the next one that succeeds clears it.
    public private(set) var error: (any Error)?

    private let repository: TaskRepository

    public init(repository: TaskRepository) {
        self.repository = repository
    }

    /// Reads the values from the repository.
    public func load() async {
        tasks = await repository.loadAll()
    }

    /// Saves `task` (adding or replacing it) and refreshes the list.
    public func add(_ task: Task) async {
        do {
            try await repository.save(task)
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
