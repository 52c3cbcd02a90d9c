import Foundation

/// One Sheep, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Sheep: Codable, Identifiable, Sendable, Hashable {
    public var id: Int
    public var name: String

    public init(
        id: Int,
        name: String
    ) {
        self.id = id
        self.name = name
    }
}
