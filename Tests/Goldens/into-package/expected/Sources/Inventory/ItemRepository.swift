import Foundation

/// What can go wrong when a ``ItemRepository`` reads or writes its file.
public enum ItemRepositoryError: Error, Equatable, CustomStringConvertible {
    /// The file exists but cannot be read.
    case unreadable(file: URL, reason: String)
    /// The file was read but does not hold a list of ``Item`` values. It is left as it is.
    case corrupt(file: URL, reason: String)
    /// The file cannot be written. The repository keeps the contents it had before the call.
    case unwritable(file: URL, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let file, let reason):
            "cannot read \(file.path): \(reason)"
        case .corrupt(let file, let reason):
            "\(file.path) is not a Item store and was left untouched: \(reason)"
        case .unwritable(let file, let reason):
            "cannot write \(file.path): \(reason)"
        }
    }
}

/// Stores ``Item`` values: in memory for fast reads, in a JSON file for durability.
///
/// An actor runs one call at a time, so concurrent saves cannot race on the cache or the file.
/// Reads come from the in-memory cache; every change is written to disk before the call
/// returns, by writing a new file and renaming it over the old one, so a crash leaves either
/// the old file or the new one, never a mix.
public actor ItemRepository {
    /// The name of the file the repository keeps in its directory.
    public static let fileName = "items.json"

    /// The file that holds the stored values.
    public nonisolated let fileURL: URL

    private var cache: [Int: Item]

    /// Opens the store in `directory`, reading its file when there is one. A missing file is an
    /// empty store; the directory is created by the first save.
    ///
    /// - Throws: ``ItemRepositoryError`` when the file exists but cannot be read or decoded. It
    ///   is never taken for an empty store, so no later save can overwrite it.
    public init(directory: URL) throws {
        fileURL = directory.appendingPathComponent(Self.fileName)
        cache = try Self.readFile(fileURL)
    }

    /// Opens the store in ``defaultDirectory()``.
    public init() throws {
        try self.init(directory: Self.defaultDirectory())
    }

    /// The folder `Inventory` in the user's Application Support directory: in the app's
    /// container on Apple platforms, and `$XDG_DATA_HOME` or `~/.local/share` on Linux.
    public static func defaultDirectory() throws -> URL {
        try FileManager.default
            .url(
                for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil,
                create: true
            )
            .appendingPathComponent("Inventory", isDirectory: true)
    }

    /// How many values the store holds.
    public var count: Int { cache.count }

    /// The value with `id`, or nil when there is none.
    public func find(by id: Int) -> Item? {
        cache[id]
    }

    /// Every value, sorted by id, so the order is the same on every run.
    public func loadAll() -> [Item] {
        cache.values.sorted { $0.id < $1.id }
    }

    /// Stores `item`, replacing the value with the same id, and writes the file before it
    /// returns. When the write fails, the store keeps its previous contents.
    public func save(_ item: Item) throws {
        let previous = cache.updateValue(item, forKey: item.id)
        do {
            try writeFile()
        } catch {
            cache[item.id] = previous
            throw error
        }
    }

    /// Removes the value with `id`, if there is one, and writes the file before it returns.
    /// When the write fails, the store keeps its previous contents.
    public func delete(_ id: Int) throws {
        guard let removed = cache.removeValue(forKey: id) else { return }
        do {
            try writeFile()
        } catch {
            cache[id] = removed
            throw error
        }
    }

    private func writeFile() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            let data = try encoder.encode(loadAll())
            try FileManager.default.createDirectory(
                at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: fileURL, options: .atomic)
        } catch {
            throw ItemRepositoryError.unwritable(
                file: fileURL, reason: error.localizedDescription)
        }
    }

    private static func readFile(_ file: URL) throws -> [Int: Item] {
        guard FileManager.default.fileExists(atPath: file.path) else { return [:] }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw ItemRepositoryError.unreadable(
                file: file, reason: error.localizedDescription)
        }
        let values: [Item]
        do {
            values = try JSONDecoder().decode([Item].self, from: data)
        } catch {
            throw ItemRepositoryError.corrupt(
                file: file, reason: "\(error)")
        }
        var cache: [Int: Item] = [:]
        for value in values {
            guard cache.updateValue(value, forKey: value.id) == nil else {
                throw ItemRepositoryError.corrupt(
                    file: file, reason: "id \(value.id) appears twice")
            }
        }
        return cache
    }
}
