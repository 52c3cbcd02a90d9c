import Foundation

/// The app's own code, written by hand: what to study next, read from the two generated stores.
public struct StudyPlan: Sendable {
    public let decks: DeckRepository
    public let cards: CardRepository

    /// Opens both stores in one folder: one database, a table for each.
    public init(directory: URL) throws {
        decks = try DeckRepository(directory: directory)
        cards = try CardRepository(directory: directory)
    }

    /// The cards of `deck` that are not learned yet, in id order: the lookup of the reference
    /// `deck:references(Deck,cascade)` reads the deck's cards through its index.
    public func cardsToStudy(in deck: Deck) async throws -> [Card] {
        try await cards.cards(inDeck: deck.id).filter { !$0.learned }
    }

    /// Deletes `deck`, and its cards with it (the reference's rule is `cascade`), in one
    /// transaction.
    public func remove(_ deck: Deck) async throws {
        try await decks.delete(deck.id)
    }
}
