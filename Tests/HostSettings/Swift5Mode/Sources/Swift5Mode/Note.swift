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

#if DEBUG
    nonisolated extension Note {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Note 1"), and the same on every run.
        public static let samples: [Note] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Note {
            let id: UUID =
                UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8(number)))
            let title: String = "Note \(number)"
            let body: String? = "Body \(number)"
            let status: Status = Status.allCases[(number - 1) % Status.allCases.count]
            let tags: [String] = ["Tags \(number)"]
            let createdAt: Date =
                Date(timeIntervalSince1970: 1_767_225_600 + Double(number) * 86_400)
            let words: Int = number
            return Note(
                id: id,
                title: title,
                body: body,
                status: status,
                tags: tags,
                createdAt: createdAt,
                words: words
            )
        }
    }
#endif
