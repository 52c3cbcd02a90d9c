import Foundation
import StudyApp
import Testing

/// The hand-written part of the app, tested beside the generated suites.
@Suite struct StudyPlanTests {
    @Test func cardsToStudyAreTheUnlearnedCardsOfTheDeck() async throws {
        let directory = try CardTestSupport.makeDirectory()
        defer { CardTestSupport.removeDirectory(directory) }
        let plan = try StudyPlan(directory: directory)
        let spanish = Deck(id: UUID(), name: "Spanish")
        let other = Deck(id: UUID(), name: "Other")
        try await plan.decks.save(contentsOf: [spanish, other])
        let hola = Card(id: UUID(), deckID: spanish.id, front: "hola", back: "hello")
        let adios = Card(
            id: UUID(), deckID: spanish.id, front: "adiós", back: "goodbye", learned: true)
        let elsewhere = Card(id: UUID(), deckID: other.id, front: "x", back: "y")
        try await plan.cards.save(contentsOf: [hola, adios, elsewhere])

        #expect(try await plan.cardsToStudy(in: spanish) == [hola])
    }

    @Test func removingADeckRemovesItsCardsAndNoOthers() async throws {
        let directory = try CardTestSupport.makeDirectory()
        defer { CardTestSupport.removeDirectory(directory) }
        let plan = try StudyPlan(directory: directory)
        let spanish = Deck(id: UUID(), name: "Spanish")
        let other = Deck(id: UUID(), name: "Other")
        try await plan.decks.save(contentsOf: [spanish, other])
        let elsewhere = Card(id: UUID(), deckID: other.id, front: "x", back: "y")
        try await plan.cards.save(contentsOf: [
            Card(id: UUID(), deckID: spanish.id, front: "hola", back: "hello"), elsewhere,
        ])

        try await plan.remove(spanish)

        #expect(try await plan.cards.cards(inDeck: spanish.id).isEmpty)
        #expect(try await plan.cards.cards(inDeck: other.id) == [elsewhere])
    }
}
