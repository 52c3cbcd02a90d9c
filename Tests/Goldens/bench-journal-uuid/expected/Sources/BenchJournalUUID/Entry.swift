public import Foundation

/// One Entry, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Entry: Codable, Identifiable, Sendable, Hashable {
    public var id: UUID
    public var title: String
    public var body: String
    public var score: Double
    public var createdAt: Date

    public init(
        id: UUID,
        title: String,
        body: String,
        score: Double,
        createdAt: Date
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.score = score
        self.createdAt = createdAt
    }
}
