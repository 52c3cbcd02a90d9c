import Foundation

/// One Cache, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Cache: Codable, Identifiable, Sendable, Hashable {
    public var id: String
    public var value: Int

    public init(
        id: String,
        value: Int
    ) {
        self.id = id
        self.value = value
    }
}

#if DEBUG
    nonisolated extension Cache {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Cache 1"), and the same on every run.
        public static let samples: [Cache] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Cache {
            let id: String = "cacheItem-\(number)"
            let value: Int = number
            return Cache(
                id: id,
                value: value
            )
        }
    }
#endif
