public import Foundation

/// Keeps ``Flashcard`` values in a dictionary in memory and in one JSON file on disk: the
/// starting pattern, as it is usually first written.
///
/// An actor, so two calls never run at once and the cache cannot race; reads answer from the
/// cache, and every change rewrites the whole file. It works on the happy path (the tests
/// `saveThenFind()` and `reopeningKeepsSavedCards()`), and it has five flaws, each marked
/// `// Flaw:` where it happens and shown by a test of `FlawTests.swift`.
public actor FlashcardStore {
    /// The file that holds every card, as one JSON array.
    private let fileURL: URL
    /// Every card, by id: what ``find(id:)`` and ``loadAll()`` answer from.
    private var cache: [UUID: Flashcard]

    /// Opens the store kept in `fileURL`, creating the file's folder when it is missing, and
    /// reads the file. A missing file is an empty store.
    ///
    /// - Throws: when the folder cannot be created; never because of what the file holds.
    public init(fileURL: URL) throws {
        try FileManager.default.createDirectory(
            at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        self.fileURL = fileURL
        var cards: [Flashcard] = []
        // Flaw: a file that exists but cannot be read or decoded (cut short, a flipped byte, a
        // format this code does not know) is taken for an empty store, without an error, and
        // the next save writes the empty store over it: every card is gone.
        // Shown by FlawTests/aDamagedFileIsKeptNotWiped().
        if let data = try? Data(contentsOf: fileURL),
            let decoded = try? JSONDecoder().decode([Flashcard].self, from: data)
        {
            cards = decoded
        }
        // Flaw: `Dictionary(uniqueKeysWithValues:)` traps when an id appears twice, so a file
        // that holds one card twice crashes the app as it opens, at every launch.
        // Shown by FlawTests/aRepeatedIDDoesNotCrash().
        cache = Dictionary(uniqueKeysWithValues: cards.map { ($0.id, $0) })
    }

    /// Every card, in no particular order.
    public func loadAll() -> [Flashcard] {
        // Flaw: a dictionary's order is unspecified: it differs from one run to the next and
        // as cards are added, so a list shown from it jumps around.
        // Shown by FlawTests/loadAllIsInIDOrder().
        Array(cache.values)
    }

    /// The card with `id`, or nil when there is none.
    public func find(id: UUID) -> Flashcard? {
        cache[id]
    }

    /// Stores `card`, replacing the card with the same id, and rewrites the whole file.
    ///
    /// - Throws: when the file cannot be written. The card is in memory all the same.
    public func save(_ card: Flashcard) throws {
        // Flaw: memory changes before the disk does. When the write below throws, the card
        // stays in the cache: this store shows it until the app quits, and then it is gone.
        // Shown by FlawTests/aFailedSaveLeavesMemoryAsOnDisk().
        cache[card.id] = card
        try writeAll()
    }

    /// Removes the card with `id`, if there is one, and rewrites the whole file.
    ///
    /// - Throws: when the file cannot be written. The card is gone from memory all the same.
    public func delete(id: UUID) throws {
        // Flaw: the same as in `save(_:)`: the card leaves memory even when the write fails,
        // and comes back at the next launch. FlawTests/aFailedSaveLeavesMemoryAsOnDisk() shows
        // it for a save.
        cache[id] = nil
        try writeAll()
    }

    /// Writes every card of the cache to the file, in place of what it held.
    private func writeAll() throws {
        // The file is rewritten from this instance's cache alone: another store open on the
        // same file is not asked (see the flaw in `FlashcardListViewModel.init(fileURL:)`).
        let data = try JSONEncoder().encode(Array(cache.values))
        // `.atomic` writes a temporary file and renames it over the old one, so a crash leaves
        // the old file or the new one, never half of one: the part of the write that is right.
        try data.write(to: fileURL, options: .atomic)
    }
}
