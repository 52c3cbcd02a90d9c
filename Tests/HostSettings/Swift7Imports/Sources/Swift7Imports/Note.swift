public import Foundation

/// One Note, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Note: Codable, Identifiable, Sendable, Hashable {
    /// The values of ``status``, stored as their names.
    public nonisolated enum Status: String, Codable, Sendable, Hashable, CaseIterable {
        case draft
        case done
    }

    public var id: UUID
    public var title: String
    public var body: String?
    public var status: Status
    public var tags: [String]
    public var createdAt: Date
    public var words: Int

    public init(
        id: UUID,
        title: String = "Untitled",
        body: String? = nil,
        status: Status = .draft,
        tags: [String] = [],
        createdAt: Date,
        words: Int
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.status = status
        self.tags = tags
        self.createdAt = createdAt
        self.words = words
    }

    /// Decodes JSON written by earlier versions of the model: a missing key takes the field's
    /// default, and a renamed field reads its former key, so such changes never break stored
    /// data.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.id = try container.decode(UUID.self, forKey: .id)
        self.title =
            try container.contains(.title)
            ? container.decode(String.self, forKey: .title)
            : "Untitled"
        self.body = try container.decodeIfPresent(String.self, forKey: .body)
        self.status =
            try container.contains(.status)
            ? container.decode(Status.self, forKey: .status)
            : .draft
        self.tags =
            try container.contains(.tags)
            ? container.decode([String].self, forKey: .tags)
            : []
        self.createdAt = try container.decode(Date.self, forKey: .createdAt)
        self.words = try container.decode(Int.self, forKey: .words)
    }
}
