public import Foundation

/// What can go wrong when a ``FlashcardRepository`` reads or writes its file.
public nonisolated enum FlashcardRepositoryError: Error, Equatable, CustomStringConvertible {
    /// The file exists but cannot be read.
    case unreadable(file: URL, reason: String)
    /// The file was read but does not hold a list of ``Flashcard`` values. It is left as it is.
    case corrupt(file: URL, offset: Int, reason: String)
    /// The file cannot be written. The repository keeps the contents it had before the call.
    case unwritable(file: URL, reason: String)
    /// ``FlashcardRepository/close()`` was called; open a new repository to write again.
    case closed

    public var description: String {
        switch self {
        case .unreadable(let file, let reason):
            "cannot read \(file.path): \(reason)"
        case .corrupt(let file, _, let reason):
            "\(file.path) is not a Flashcard store and was left untouched: \(reason)"
        case .unwritable(let file, let reason):
            "cannot write \(file.path): \(reason)"
        case .closed:
            "the FlashcardRepository was closed"
        }
    }
}

// Workshop: why an actor and not a class with a lock? The compiler enforces the isolation:
// from outside, every call is an `await`, so two calls never run at once, and there is no lock
// to forget. None of the methods below awaits anything, so each call runs start to finish
// without another one slipping in between (no reentrancy surprises).

/// Stores ``Flashcard`` values: in memory for fast reads, in one JSON file for durability.
///
/// An actor runs one call at a time, so concurrent saves cannot race on the cache or the file.
/// Reads come from the in-memory cache; every change rewrites the whole file before the call
/// returns, by writing a new file and renaming it over the old one, so a crash leaves either
/// the old file or the new one, never a mix. Simple, but a save costs more as the store grows;
/// the journal store (`--storage journal`) does not.
public actor FlashcardRepository {
    /// The name of the file the repository keeps in its directory.
    public static let fileName = "flashcards.json"

    /// The file that holds the stored values.
    public nonisolated let fileURL: URL

    // Workshop: the cache answers `find`, `count` and `loadAll` from memory; the disk is only
    // read once, in `init`, and written on changes.
    private var cache: [UUID: Flashcard]
    private var isClosed = false

    /// Opens the store in `directory`, reading its file when there is one. A missing file is an
    /// empty store; the directory is created by the first save.
    ///
    /// - Throws: ``FlashcardRepositoryError`` when the file exists but cannot be read or decoded. It
    ///   is never taken for an empty store, so no later save can overwrite it.
    public init(directory: URL) throws {
        fileURL = directory.appendingPathComponent(Self.fileName)
        cache = try Self.readFile(fileURL)
    }

    /// Opens the store in ``defaultDirectory()``.
    public init() throws {
        try self.init(directory: Self.defaultDirectory())
    }

    /// The folder `FlashcardStore` in the user's Application Support directory: in the app's
    /// container on Apple platforms, and `$XDG_DATA_HOME` or `~/.local/share` on Linux.
    public static func defaultDirectory() throws -> URL {
        try FileManager.default
            .url(
                for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil,
                create: true
            )
            .appendingPathComponent("FlashcardStore", isDirectory: true)
    }

    /// How many values the store holds.
    public var count: Int { cache.count }

    /// The value with `id`, or nil when there is none.
    public func find(by id: UUID) -> Flashcard? {
        cache[id]
    }

    /// Every value, sorted by id, so the order is the same on every run.
    public func loadAll() -> [Flashcard] {
        cache.values.sorted { $0.id.uuidString < $1.id.uuidString }
    }

    /// Stores `flashcard`, replacing the value with the same id.
    public func save(_ flashcard: Flashcard) throws {
        try save(contentsOf: [flashcard])
    }

    /// Stores every value in `flashcards` at once; of values with the same id, the last wins.
    public func save(contentsOf flashcards: [Flashcard]) throws {
        try change { cache in
            for flashcard in flashcards { cache[flashcard.id] = flashcard }
        }
    }

    /// Removes the value with `id`, if there is one.
    public func delete(_ id: UUID) throws {
        try delete(ids: [id])
    }

    /// Removes the values with these ids; ids that are not stored are ignored.
    public func delete(ids: [UUID]) throws {
        guard ids.contains(where: { cache[$0] != nil }) else { return }
        try change { cache in
            for id in ids { cache[id] = nil }
        }
    }

    /// Removes every value.
    public func removeAll() throws {
        guard !cache.isEmpty else { return }
        try change { cache in cache.removeAll() }
    }

    /// Makes later writes throw ``FlashcardRepositoryError/closed``. Reads still answer from memory.
    public func close() {
        isClosed = true
    }

    /// Applies `update` to a copy of the cache, writes the copy to the file, and only then
    /// keeps it: when the write fails, the store keeps its previous contents.
    private func change(_ update: (inout [UUID: Flashcard]) -> Void) throws {
        guard !isClosed else { throw FlashcardRepositoryError.closed }
        var changed = cache
        update(&changed)
        try writeFile(changed)
        cache = changed
    }

    // Workshop: `.atomic` writes a temporary file and renames it over the old one, so a crash
    // leaves the old file or the new one, never half of one. The price: every save encodes and
    // writes every value, so saves get slower as the store grows. The journal store does not.
    private func writeFile(_ values: [UUID: Flashcard]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let sorted = values.values.sorted { $0.id.uuidString < $1.id.uuidString }
        do {
            let data = try encoder.encode(sorted)
            try FileManager.default.createDirectory(
                at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: fileURL, options: .atomic)
        } catch {
            throw FlashcardRepositoryError.unwritable(
                file: fileURL, reason: error.localizedDescription)
        }
    }

    // Workshop: a file that exists but does not decode throws. Treating it as an empty store
    // would let the next save overwrite the user's data with nothing.
    private static func readFile(_ file: URL) throws -> [UUID: Flashcard] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [:] }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw FlashcardRepositoryError.unreadable(
                file: file, reason: error.localizedDescription)
        }
        let values: [Flashcard]
        do {
            values = try JSONDecoder().decode([Flashcard].self, from: data)
        } catch {
            throw FlashcardRepositoryError.corrupt(file: file, offset: 0, reason: "\(error)")
        }
        var cache: [UUID: Flashcard] = [:]
        for value in values {
            guard cache.updateValue(value, forKey: value.id) == nil else {
                throw FlashcardRepositoryError.corrupt(
                    file: file, offset: 0, reason: "id \(value.id) appears twice")
            }
        }
        return cache
    }
}
