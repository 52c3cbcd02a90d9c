import Foundation

/// The app's own code, written by hand: what to study next, read from the two generated stores.
public struct StudyPlan: Sendable {
    public let decks: DeckRepository
    public let cards: CardRepository

    /// Opens both stores in one folder; each keeps its own files there.
    public init(directory: URL) throws {
        decks = try DeckRepository(directory: directory)
        cards = try CardRepository(directory: directory)
    }

    /// The cards of `deck` that are not learned yet, in id order.
    public func cardsToStudy(in deck: Deck) async -> [Card] {
        await cards.loadAll().filter { $0.deckID == deck.id && !$0.learned }
    }
}
