public import Foundation

// Workshop: what callers use. Reads answer from memory; each write makes one `Change` and hands
// it to `commit(_:)`, which writes the file first; `changes()` then tells every subscriber.

extension FlashcardRepository {
    /// One committed change, as ``changes()`` publishes it once it is on disk.
    public enum Change: Sendable, Hashable {
        /// These values were stored: added, or replacing the values with their ids.
        case saved([Flashcard])
        /// The values with these ids were removed.
        case deleted([UUID])
        /// Every value was removed.
        case removedAll
    }

    // MARK: Reading, from memory

    /// How many values the store holds.
    public var count: Int { values.count }

    /// The value with `id`, or nil when there is none.
    public func find(by id: UUID) -> Flashcard? {
        let (index, isThere) = position(of: id)
        return isThere ? values[index] : nil
    }

    /// Every value, in the order of ``precedes(_:_:)``.
    public func loadAll() -> [Flashcard] { values }

    /// The values that `isIncluded` accepts, in the order of ``loadAll()``.
    public func loadAll(where isIncluded: @Sendable (Flashcard) -> Bool) -> [Flashcard] {
        values.filter(isIncluded)
    }

    /// How many values `isIncluded` accepts.
    public func count(where isIncluded: @Sendable (Flashcard) -> Bool) -> Int {
        values.reduce(0) { isIncluded($1) ? $0 + 1 : $0 }
    }

    /// The order of ids in ``loadAll()`` and in the file, the same on every run: by
    /// their 16 bytes, which is the order of their `uuidString`.
    public nonisolated static func precedes(_ first: UUID, _ second: UUID) -> Bool {
        withUnsafeBytes(of: first.uuid) { first in
            withUnsafeBytes(of: second.uuid) { first.lexicographicallyPrecedes($0) }
        }
    }

    // MARK: Writing: each call is one durable write

    /// Stores `flashcard`, replacing the value with the same id.
    public func save(_ flashcard: Flashcard) throws { try commit(.saved([flashcard])) }

    /// Stores every value in `flashcards` at once; of values with the same id, the last wins.
    public func save(contentsOf flashcards: [Flashcard]) throws {
        if !flashcards.isEmpty { try commit(.saved(flashcards)) }
    }

    /// Changes the value with `id` in place and stores it; the id stays. Returns false, and
    /// writes nothing, when there is no value with `id`.
    @discardableResult
    public func update(id: UUID, _ change: @Sendable (inout Flashcard) -> Void) throws -> Bool {
        guard var value = find(by: id) else { return false }
        change(&value)
        value.id = id
        try save(value)
        return true
    }

    /// Removes the value with `id`, if there is one.
    public func delete(_ id: UUID) throws { try delete(ids: [id]) }

    /// Removes the values with these ids; ids that are not stored are ignored.
    public func delete(ids: [UUID]) throws {
        let stored = ids.filter { position(of: $0).isThere }
        if !stored.isEmpty { try commit(.deleted(stored)) }
    }

    /// Removes every value.
    public func removeAll() throws {
        if !values.isEmpty { try commit(.removedAll) }
    }

    // MARK: Observing

    /// The changes committed from now on, in order, each once it is on disk; the stream ends
    /// when its reader's task is cancelled. Call it before ``loadAll()`` to miss none.
    public func changes() -> AsyncStream<Change> { stream { $1 } }

    /// The values `isIncluded` accepts, their revision, and the changes after it with theirs:
    /// read at once, so that none falls between.
    func valuesAndChanges(
        where isIncluded: (@Sendable (Flashcard) -> Bool)?
    ) -> ([Flashcard], Int, AsyncStream<(Int, Change)>) {
        (loadAll(where: isIncluded ?? { _ in true }), revision, stream { ($0, $1) })
    }

    // MARK: One instance per folder

    // Workshop: every screen gets the same repository for a folder, so they share one copy of
    // the values and one stream of changes (a second repository would get `.locked`).
    /// The repository for `directory`, shared by every caller in this process (a second
    /// ``init(directory:)`` would throw `.locked`); opened on first use, and after `close()`.
    public static func shared(in directory: URL) async throws -> FlashcardRepository {
        try await openRepositories.repository(in: directory)
    }

    /// The shared repository in ``defaultDirectory()``.
    public static func shared() async throws -> FlashcardRepository {
        try await shared(in: defaultDirectory())
    }

    private static let openRepositories = SharedInstances()

    /// The repositories that ``shared(in:)`` opened, by folder, held weakly.
    private actor SharedInstances {
        private struct Entry { weak var repository: FlashcardRepository? }
        private var entries: [String: Entry] = [:]

        func repository(in directory: URL) async throws -> FlashcardRepository {
            // Made first, so that every spelling of the folder resolves to one path.
            try? FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true)
            let key = directory.standardizedFileURL.resolvingSymlinksInPath().path
            while let open = entries[key]?.repository {
                if await !open.isClosed { return open }
                if entries[key]?.repository === open { break }  // Else replaced meanwhile: again.
            }
            let repository = try FlashcardRepository(directory: directory)
            entries[key] = Entry(repository: repository)
            return repository
        }
    }
}
