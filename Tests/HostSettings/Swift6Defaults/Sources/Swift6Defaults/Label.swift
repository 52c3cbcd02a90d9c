internal import Foundation

/// One Label, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Label: Codable, Identifiable, Sendable, Hashable {
    public var id: Int
    public var name: String
    public var color: String?

    public init(
        id: Int,
        name: String,
        color: String? = nil
    ) {
        self.id = id
        self.name = name
        self.color = color
    }
}

#if DEBUG
    nonisolated extension Label {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Label 1"), and the same on every run.
        public static let samples: [Label] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Label {
            let id: Int = number
            let name: String = "Label \(number)"
            let color: String? = "Color \(number)"
            return Label(
                id: id,
                name: name,
                color: color
            )
        }
    }
#endif
