public import Foundation

/// One Book, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Book: Codable, Identifiable, Sendable, Hashable {
    public var id: UUID
    public var title: String
    public var rating: Int?

    public init(
        id: UUID,
        title: String,
        rating: Int? = nil
    ) {
        self.id = id
        self.title = title
        self.rating = rating
    }
}
