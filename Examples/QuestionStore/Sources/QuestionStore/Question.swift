import Foundation

/// One Question, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Question: Codable, Identifiable, Sendable, Hashable {
    public var id: String
    public var text: String

    public init(
        id: String,
        text: String
    ) {
        self.id = id
        self.text = text
    }
}

#if DEBUG
    nonisolated extension Question {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Question 1"), and the same on every run.
        public static let samples: [Question] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Question {
            let id: String = "question-\(number)"
            let text: String = "Question \(number)"
            return Question(
                id: id,
                text: text
            )
        }
    }
#endif
