import Foundation

/// One Person, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Person: Codable, Identifiable, Sendable, Hashable {
    public var id: String
    public var name: String
    public var nickname: String?

    public init(
        id: String,
        name: String,
        nickname: String? = nil
    ) {
        self.id = id
        self.name = name
        self.nickname = nickname
    }

    /// Decodes JSON written by earlier versions of the model: a missing key takes the field's
    /// default, and a renamed field reads its former key, so such changes never break stored
    /// data.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.id = try container.decode(String.self, forKey: .id)
        self.name = try container.decode(String.self, forKey: .name)
        self.nickname =
            try container.contains(.nickname)
            ? container.decodeIfPresent(String.self, forKey: .nickname)
            : nil
    }
}

#if DEBUG
    nonisolated extension Person {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Person 1"), and the same on every run.
        public static let samples: [Person] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Person {
            let id: String = "person-\(number)"
            let name: String = "Person \(number)"
            let nickname: String? = "Nickname \(number)"
            return Person(
                id: id,
                name: name,
                nickname: nickname
            )
        }
    }
#endif
