public import Foundation

/// One Book, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Book: Codable, Identifiable, Sendable, Hashable {
    /// The values of ``status``, stored as their names.
    public nonisolated enum Status: String, Codable, Sendable, Hashable, CaseIterable {
        case draft
        case done
    }

    public var id: UUID
    public var headline: String
    public var pages: Int?
    public var status: Status

    public init(
        id: UUID,
        headline: String,
        pages: Int? = nil,
        status: Status = .draft
    ) {
        self.id = id
        self.headline = headline
        self.pages = pages
        self.status = status
    }

    /// Decodes JSON written by earlier versions of the model: a missing key takes the field's
    /// default, and a renamed field reads its former key where the new one is missing (or a
    /// build from before the rename changed it: see `encode(to:)`), so such changes never
    /// break stored data.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let former = try decoder.container(keyedBy: FormerKeys.self)
        let marks = try decoder.container(keyedBy: RenameMarks.self)
        self.id = try container.decode(UUID.self, forKey: .id)
        self.headline =
            try marks.contains(.title) && former.contains(.title)
            ? former.decode(String.self, forKey: .title)
            : container.decodeIfPresent(String.self, forKey: .headline)
                ?? former.decode(String.self, forKey: .title)
        self.pages = try container.decodeIfPresent(Int.self, forKey: .pages)
        self.status =
            try container.contains(.status)
            ? container.decode(Status.self, forKey: .status)
            : .draft
    }

    /// Encodes as the compiler would, and a renamed field under its former key too, with a
    /// mark (`RenameMarks`), so that a build of the app from before the rename (an extension
    /// not updated yet) reads it. That build keeps the keys it does not know as it found them,
    /// and its edits go under the former key: where the two differ beside the mark,
    /// `init(from:)` reads the former one.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.id, forKey: .id)
        try container.encode(self.headline, forKey: .headline)
        try container.encodeIfPresent(self.pages, forKey: .pages)
        try container.encode(self.status, forKey: .status)
        var former = encoder.container(keyedBy: FormerKeys.self)
        var marks = encoder.container(keyedBy: RenameMarks.self)
        try former.encode(self.headline, forKey: .title)
        try marks.encode(true, forKey: .title)
    }

    /// The JSON keys, one per field (a type that encodes and decodes itself declares them).
    private nonisolated enum CodingKeys: String, CodingKey {
        case id
        case headline
        case pages
        case status
    }

    /// The JSON keys of renamed fields, as builds of the app from before the rename read them.
    private nonisolated enum FormerKeys: String, CodingKey {
        case title
    }

    /// The marks of fields written under both keys (see `encode(to:)`).
    private nonisolated enum RenameMarks: String, CodingKey {
        case title = "title>headline"
    }
}

#if DEBUG
    nonisolated extension Book {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Book 1"), and the same on every run.
        public static let samples: [Book] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Book {
            let id: UUID =
                UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8(number)))
            let headline: String = "Book \(number)"
            let pages: Int? = number
            let status: Status = Status.allCases[(number - 1) % Status.allCases.count]
            return Book(
                id: id,
                headline: headline,
                pages: pages,
                status: status
            )
        }
    }
#endif
