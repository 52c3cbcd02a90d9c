import Foundation

/// One Sheep, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Sheep: Codable, Identifiable, Sendable, Hashable {
    public var id: Int
    public var name: String

    public init(
        id: Int,
        name: String
    ) {
        self.id = id
        self.name = name
    }
}

#if DEBUG
    nonisolated extension Sheep {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Sheep 1"), and the same on every run.
        public static let samples: [Sheep] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Sheep {
            let id: Int = number
            let name: String = "Sheep \(number)"
            return Sheep(
                id: id,
                name: name
            )
        }
    }
#endif
