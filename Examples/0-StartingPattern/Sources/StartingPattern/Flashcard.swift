public import Foundation

/// One flashcard: a question on the front, its answer on the back.
///
/// A struct, so every copy is independent: a card handed to the store's actor shares no
/// mutable state with the caller's. It is `Codable` (the file holds cards as JSON),
/// `Identifiable` (the store keys its cache by `id`), `Sendable` (it crosses into and out of
/// the actor) and `Hashable`. This part of the pattern is right, and step 1 keeps it.
public struct Flashcard: Codable, Identifiable, Sendable, Hashable {
    /// What the store finds the card by; two cards with the same id are the same card.
    public var id: UUID
    /// The question.
    public var front: String
    /// The answer.
    public var back: String

    /// A card with these values.
    public init(id: UUID, front: String, back: String) {
        self.id = id
        self.front = front
        self.back = back
    }
}
