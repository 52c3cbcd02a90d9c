public import Foundation

// Workshop: a struct, not a class. Every copy is independent, so a value handed to the
// repository actor and one handed back share no mutable state; that is what `Sendable`
// promises, and the compiler checks it, because every stored property is `Sendable` too.

/// One Flashcard, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Flashcard: Codable, Identifiable, Sendable, Hashable {
    public var id: UUID
    public var front: String
    public var back: String

    public init(
        id: UUID,
        front: String,
        back: String
    ) {
        self.id = id
        self.front = front
        self.back = back
    }
}

// Workshop: sample values live in the sources, not only in the tests, so that a SwiftUI preview
// (`FlashcardListViewModel.preview(Flashcard.samples)`) and the app's own tests can use them. `#if DEBUG`
// leaves them out of a release build.

#if DEBUG
    nonisolated extension Flashcard {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Flashcard 1"), and the same on every run.
        public static let samples: [Flashcard] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Flashcard {
            let id: UUID =
                UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8(number)))
            let front: String = "Flashcard \(number)"
            let back: String = "Back \(number)"
            return Flashcard(
                id: id,
                front: front,
                back: back
            )
        }
    }
#endif
