public import Foundation

/// One Card, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Card: Codable, Identifiable, Sendable, Hashable {
    public var id: UUID
    public var title: String
    public var done: Bool
    public var due: Date?

    public init(
        id: UUID,
        title: String,
        done: Bool,
        due: Date? = nil
    ) {
        self.id = id
        self.title = title
        self.done = done
        self.due = due
    }
}

#if DEBUG
    nonisolated extension Card {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Card 1"), and the same on every run.
        public static let samples: [Card] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Card {
            let id: UUID =
                UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8(number)))
            let title: String = "Card \(number)"
            let done: Bool = number.isMultiple(of: 2)
            let due: Date? = Date(timeIntervalSince1970: 1_767_225_600 + Double(number) * 86_400)
            return Card(
                id: id,
                title: title,
                done: done,
                due: due
            )
        }
    }
#endif
