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
    public var deckID: UUID
    public var front: String
    public var back: String
    public var learned: Bool

    public init(
        id: UUID,
        deckID: UUID,
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
        self.deckID = try container.decode(UUID.self, forKey: .deckID)
        self.front = try container.decode(String.self, forKey: .front)
        self.back = try container.decode(String.self, forKey: .back)
        self.learned =
            try container.contains(.learned)
            ? container.decode(Bool.self, forKey: .learned)
            : false
    }
}
