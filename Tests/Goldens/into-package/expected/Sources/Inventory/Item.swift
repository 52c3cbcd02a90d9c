import Foundation

/// One Item, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Item: Codable, Identifiable, Sendable, Hashable {
    public var id: Int
    public var name: String
    public var price: Double?

    public init(
        id: Int,
        name: String,
        price: Double? = nil
    ) {
        self.id = id
        self.name = name
        self.price = price
    }
}

#if DEBUG
    nonisolated extension Item {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Item 1"), and the same on every run.
        public static let samples: [Item] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Item {
            let id: Int = number
            let name: String = "Item \(number)"
            let price: Double? = Double(number) * 1.5
            return Item(
                id: id,
                name: name,
                price: price
            )
        }
    }
#endif
