public import Observation

/// The state of a screen that lists every ``Person``.
///
/// `@MainActor` because views read it on the main thread; `@Observable` so they update when
/// ``people`` or ``error`` change. The repository does the work off the main actor.
@MainActor
@Observable
public final class PersonListViewModel {
    /// The values, in the repository's order (sorted by id).
    public private(set) var people: [Person] = []
    /// The error of the last operation that failed; the next one that succeeds clears it.
    public private(set) var error: (any Error)?

    private let repository: PersonRepository

    public init(repository: PersonRepository) {
        self.repository = repository
    }

    /// Reads the values from the repository.
    public func load() async {
        people = await repository.loadAll()
    }

    /// Saves `person` (adding or replacing it) and refreshes the list.
    public func add(_ person: Person) async {
        do {
            try await repository.save(person)
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
