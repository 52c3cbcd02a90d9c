import Foundation

/// One Badge, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Badge: Codable, Identifiable, Sendable, Hashable {
    public var id: Int
    public var code: String
    public var level: Int

    public init(
        id: Int,
        code: String,
        level: Int
    ) {
        self.id = id
        self.code = code
        self.level = level
    }
}

#if DEBUG
    nonisolated extension Badge {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Badge 1"), and the same on every run.
        public static let samples: [Badge] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Badge {
            let id: Int = number
            let code: String = "Badge \(number)"
            let level: Int = number
            return Badge(
                id: id,
                code: code,
                level: level
            )
        }
    }
#endif
