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
            let title: String = "Book \(number)"
            let rating: Int? = number
            return Book(
                id: id,
                title: title,
                rating: rating
            )
        }
    }
#endif
