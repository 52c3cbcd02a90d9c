public import Foundation

/// One Member, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Member: Codable, Identifiable, Sendable, Hashable {
    public var id: UUID
    public var email: String
    public var name: String
    public var age: Int?

    public init(
        id: UUID,
        email: String,
        name: String,
        age: Int? = nil
    ) {
        self.id = id
        self.email = email
        self.name = name
        self.age = age
    }
}

#if DEBUG
    nonisolated extension Member {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Member 1"), and the same on every run.
        public static let samples: [Member] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Member {
            let id: UUID =
                UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8(number)))
            let email: String = "Member \(number)"
            let name: String = "Name \(number)"
            let age: Int? = number
            return Member(
                id: id,
                email: email,
                name: name,
                age: age
            )
        }
    }
#endif
