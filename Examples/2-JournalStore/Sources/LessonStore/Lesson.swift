public import Foundation

// Workshop: a struct, not a class. Every copy is independent, so a value handed to the
// repository actor and one handed back share no mutable state; that is what `Sendable`
// promises, and the compiler checks it, because every stored property is `Sendable` too.

/// One Lesson, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Lesson: Codable, Identifiable, Sendable, Hashable {
    public var id: UUID
    public var title: String
    public var minutes: Int
    public var tags: [String]

    public init(
        id: UUID,
        title: String,
        minutes: Int = 0,
        tags: [String] = []
    ) {
        self.id = id
        self.title = title
        self.minutes = minutes
        self.tags = tags
    }

    /// Decodes JSON written by earlier versions of the model: a missing key takes the field's
    /// default, and a renamed field reads its former key, so such changes never break stored
    /// data.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.id = try container.decode(UUID.self, forKey: .id)
        self.title = try container.decode(String.self, forKey: .title)
        self.minutes =
            try container.contains(.minutes)
            ? container.decode(Int.self, forKey: .minutes)
            : 0
        self.tags =
            try container.contains(.tags)
            ? container.decode([String].self, forKey: .tags)
            : []
    }
}

// Workshop: sample values live in the sources, not only in the tests, so that a SwiftUI preview
// (`LessonListViewModel.preview(Lesson.samples)`) and the app's own tests can use them. `#if DEBUG`
// leaves them out of a release build.

#if DEBUG
    nonisolated extension Lesson {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Lesson 1"), and the same on every run.
        public static let samples: [Lesson] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Lesson {
            let id: UUID =
                UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8(number)))
            let title: String = "Lesson \(number)"
            let minutes: Int = number
            let tags: [String] = ["Tags \(number)"]
            return Lesson(
                id: id,
                title: title,
                minutes: minutes,
                tags: tags
            )
        }
    }
#endif
