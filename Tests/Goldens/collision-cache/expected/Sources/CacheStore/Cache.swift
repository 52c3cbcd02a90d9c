import Foundation

/// One Cache, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Cache: Codable, Identifiable, Sendable, Hashable {
    public var id: String
    public var value: Int

    public init(
        id: String,
        value: Int
    ) {
        self.id = id
        self.value = value
    }
}
