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
    /// default, and a renamed field reads its former key, so such changes never break stored
    /// data.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let former = try decoder.container(keyedBy: FormerKeys.self)
        self.id = try container.decode(UUID.self, forKey: .id)
        self.headline =
            try container.decodeIfPresent(String.self, forKey: .headline)
            ?? former.decode(String.self, forKey: .title)
        self.pages = try container.decodeIfPresent(Int.self, forKey: .pages)
        self.status =
            try container.contains(.status)
            ? container.decode(Status.self, forKey: .status)
            : .draft
    }

    /// The JSON keys of renamed fields, as stored values written before the rename have them.
    private nonisolated enum FormerKeys: String, CodingKey {
        case title
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
