public import Foundation

/// One Memo, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Memo: Codable, Identifiable, Sendable, Hashable {
    /// The values of ``kind``, stored as their names.
    public nonisolated enum Kind: String, Codable, Sendable, Hashable, CaseIterable {
        case low
        case high
    }

    public var id: Int
    public var title: String
    public var due: Date?
    public var kind: Kind
    public var tags: [String]

    public init(
        id: Int,
        title: String,
        due: Date? = nil,
        kind: Kind,
        tags: [String]
    ) {
        self.id = id
        self.title = title
        self.due = due
        self.kind = kind
        self.tags = tags
    }
}

#if DEBUG
    nonisolated extension Memo {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Memo 1"), and the same on every run.
        public static let samples: [Memo] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Memo {
            let id: Int = number
            let title: String = "Memo \(number)"
            let due: Date? = Date(timeIntervalSince1970: 1_767_225_600 + Double(number) * 86_400)
            let kind: Kind = Kind.allCases[(number - 1) % Kind.allCases.count]
            let tags: [String] = ["Tags \(number)"]
            return Memo(
                id: id,
                title: title,
                due: due,
                kind: kind,
                tags: tags
            )
        }
    }
#endif
