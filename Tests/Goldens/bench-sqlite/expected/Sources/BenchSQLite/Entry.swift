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

#if DEBUG
    nonisolated extension Entry {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Entry 1"), and the same on every run.
        public static let samples: [Entry] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Entry {
            let id: UUID =
                UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8(number)))
            let title: String = "Entry \(number)"
            let body: String = "Body \(number)"
            let score: Double = Double(number) * 1.5
            let createdAt: Date =
                Date(timeIntervalSince1970: 1_767_225_600 + Double(number) * 86_400)
            return Entry(
                id: id,
                title: title,
                body: body,
                score: score,
                createdAt: createdAt
            )
        }
    }
#endif
