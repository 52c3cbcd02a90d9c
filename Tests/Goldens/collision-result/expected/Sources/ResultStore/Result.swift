public import Foundation

/// One Result, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Result: Codable, Identifiable, Sendable, Hashable {
    public var id: UUID
    public var score: Double

    public init(
        id: UUID,
        score: Double
    ) {
        self.id = id
        self.score = score
    }
}
