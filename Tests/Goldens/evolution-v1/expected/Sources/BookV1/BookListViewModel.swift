public import Foundation
public import Observation

/// The state of a screen that lists every ``Book``.
///
/// `@MainActor` because views read it on the main thread; `@Observable` so they update when
/// ``books`` or ``error`` change. The repository does the work off the main actor.
@MainActor
@Observable
public final class BookListViewModel {
    /// The values, in the repository's order (sorted by id).
    public private(set) var books: [Book] = []
    /// The error of the last operation that failed; the next one that succeeds clears it.
    public private(set) var error: (any Error)?

    private let repository: BookRepository

    public init(repository: BookRepository) {
        self.repository = repository
    }

    /// Reads the values from the repository.
    public func load() async {
        books = await repository.loadAll()
    }

    /// Saves `book` (adding or replacing it) and refreshes the list.
    public func add(_ book: Book) async {
        do {
            try await repository.save(book)
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
