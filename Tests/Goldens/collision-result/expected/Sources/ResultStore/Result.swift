public import Foundation

/// One Result, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Result: Codable, Identifiable, Sendable, Hashable {
    public var id: UUID
    public var score: Double

    public init(
        id: UUID,
        score: Double
    ) {
        self.id = id
        self.score = score
    }
}

#if DEBUG
    nonisolated extension Result {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Result 1"), and the same on every run.
        public static let samples: [Result] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Result {
            let id: UUID =
                UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8(number)))
            let score: Double = Double(number) * 1.5
            return Result(
                id: id,
                score: score
            )
        }
    }
#endif
