public import Foundation

// Workshop: a struct, not a class. Every copy is independent, so a value handed to the
// repository actor and one handed back share no mutable state; that is what `Sendable`
// promises, and the compiler checks it, because every stored property is `Sendable` too.

/// One Lesson, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Lesson: Codable, Identifiable, Sendable, Hashable {
    public var id: UUID
    public var title: String
    public var minutes: Int
    public var tags: [String]

    public init(
        id: UUID,
        title: String,
        minutes: Int = 0,
        tags: [String] = []
    ) {
        self.id = id
        self.title = title
        self.minutes = minutes
        self.tags = tags
    }

    /// Decodes JSON written by earlier versions of the model: a missing key takes the field's
    /// default, and a renamed field reads its former key, so such changes never break stored
    /// data.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.id = try container.decode(UUID.self, forKey: .id)
        self.title = try container.decode(String.self, forKey: .title)
        self.minutes =
            try container.contains(.minutes)
            ? container.decode(Int.self, forKey: .minutes)
            : 0
        self.tags =
            try container.contains(.tags)
            ? container.decode([String].self, forKey: .tags)
            : []
    }
}
