public import Foundation

// Workshop: a struct, not a class. Every copy is independent, so a value handed to the
// repository actor and one handed back share no mutable state; that is what `Sendable`
// promises, and the compiler checks it, because every stored property is `Sendable` too.

/// One Card, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Card: Codable, Identifiable, Sendable, Hashable {
    public var id: UUID
    public var deckID: Deck.ID
    public var front: String
    public var back: String
    public var learned: Bool

    public init(
        id: UUID,
        deckID: Deck.ID,
        front: String,
        back: String,
        learned: Bool = false
    ) {
        self.id = id
        self.deckID = deckID
        self.front = front
        self.back = back
        self.learned = learned
    }

    /// Decodes JSON written by earlier versions of the model: a missing key takes the field's
    /// default, and a renamed field reads its former key, so such changes never break stored
    /// data.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.id = try container.decode(UUID.self, forKey: .id)
        self.deckID = try container.decode(Deck.ID.self, forKey: .deckID)
        self.front = try container.decode(String.self, forKey: .front)
        self.back = try container.decode(String.self, forKey: .back)
        self.learned =
            try container.contains(.learned)
            ? container.decode(Bool.self, forKey: .learned)
            : false
    }
}

// Workshop: sample values live in the sources, not only in the tests, so that a SwiftUI preview
// (`CardListViewModel.preview(Card.samples)`) and the app's own tests can use them. `#if DEBUG`
// leaves them out of a release build.

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
            let deckID: Deck.ID = Deck.samples[(number - 1) % Deck.samples.count].id
            let front: String = "Card \(number)"
            let back: String = "Back \(number)"
            let learned: Bool = number.isMultiple(of: 2)
            return Card(
                id: id,
                deckID: deckID,
                front: front,
                back: back,
                learned: learned
            )
        }
    }
#endif
