import Foundation

/// One Label, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Label: Codable, Identifiable, Sendable, Hashable {
    public var id: Int
    public var name: String
    public var color: String?

    public init(
        id: Int,
        name: String,
        color: String? = nil
    ) {
        self.id = id
        self.name = name
        self.color = color
    }
}
