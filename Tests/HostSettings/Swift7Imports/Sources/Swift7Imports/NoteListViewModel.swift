public import Foundation
public import Observation

/// The state of a screen that lists every ``Note``.
///
/// `@MainActor` because views read it on the main thread; `@Observable` so they update when
/// ``notes`` or ``error`` change. The repository does the work off the main actor.
@MainActor
@Observable
public final class NoteListViewModel {
    /// The values, in the repository's order (sorted by id).
    public private(set) var notes: [Note] = []
    /// The error of the last operation that failed; the next one that succeeds clears it.
    public private(set) var error: (any Error)?

    private let repository: NoteRepository

    public init(repository: NoteRepository) {
        self.repository = repository
    }

    /// Reads the values from the repository.
    public func load() async {
        notes = await repository.loadAll()
    }

    /// Saves `note` (adding or replacing it) and refreshes the list.
    public func add(_ note: Note) async {
        do {
            try await repository.save(note)
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
