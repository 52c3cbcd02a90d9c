public import Observation

/// The state of a screen that lists every ``Question``.
///
/// `@MainActor` because views read it on the main thread; `@Observable` so they update when
/// ``questions`` or ``error`` change. The repository does the work off the main actor.
@MainActor
@Observable
public final class QuestionListViewModel {
    /// The values, in the repository's order (sorted by id).
    public private(set) var questions: [Question] = []
    /// The error of the last operation that failed; the next one that succeeds clears it.
    public private(set) var error: (any Error)?

    private let repository: QuestionRepository

    public init(repository: QuestionRepository) {
        self.repository = repository
    }

    /// Reads the values from the repository.
    public func load() async {
        questions = await repository.loadAll()
    }

    /// Saves `question` (adding or replacing it) and refreshes the list.
    public func add(_ question: Question) async {
        do {
            try await repository.save(question)
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
