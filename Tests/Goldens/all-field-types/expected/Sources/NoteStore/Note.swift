public import Foundation

/// One Note, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Note: Codable, Identifiable, Sendable, Hashable {
    public var id: UUID
    public var title: String
    public var body: String?
    public var views: Int
    public var rating: Double
    public var pinned: Bool
    public var createdAt: Date
    public var link: URL
    public var due: Date?
    public var ref: UUID?

    public init(
        id: UUID,
        title: String,
        body: String? = nil,
        views: Int,
        rating: Double,
        pinned: Bool,
        createdAt: Date,
        link: URL,
        due: Date? = nil,
        ref: UUID? = nil
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.views = views
        self.rating = rating
        self.pinned = pinned
        self.createdAt = createdAt
        self.link = link
        self.due = due
        self.ref = ref
    }
}
