public import Foundation

// Workshop: a struct, not a class. Every copy is independent, so a value handed to the
// repository actor and one handed back share no mutable state; that is what `Sendable`
// promises, and the compiler checks it, because every stored property is `Sendable` too.

/// One Recipe, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Recipe: Codable, Identifiable, Sendable, Hashable {
    /// The values of ``level``, stored as their names.
    public nonisolated enum Level: String, Codable, Sendable, Hashable, CaseIterable {
        case easy
        case hard
    }

    public var id: UUID
    public var name: String
    public var servings: Int
    public var minutes: Int
    public var level: Level

    public init(
        id: UUID,
        name: String,
        servings: Int,
        minutes: Int,
        level: Level = .easy
    ) {
        self.id = id
        self.name = name
        self.servings = servings
        self.minutes = minutes
        self.level = level
    }

    /// Decodes JSON written by earlier versions of the model: a missing key takes the field's
    /// default, and a renamed field reads its former key where the new one is missing (or a
    /// build from before the rename changed it: see `encode(to:)`), so such changes never
    /// break stored data.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let former = try decoder.container(keyedBy: FormerKeys.self)
        let marks = try decoder.container(keyedBy: RenameMarks.self)
        self.id = try container.decode(UUID.self, forKey: .id)
        self.name =
            try marks.contains(.title) && former.contains(.title)
            ? former.decode(String.self, forKey: .title)
            : container.decodeIfPresent(String.self, forKey: .name)
                ?? former.decode(String.self, forKey: .title)
        self.servings = try container.decode(Int.self, forKey: .servings)
        self.minutes = try container.decode(Int.self, forKey: .minutes)
        self.level =
            try container.contains(.level)
            ? container.decode(Level.self, forKey: .level)
            : .easy
    }

    /// Encodes as the compiler would, and a renamed field under its former key too, with a
    /// mark (`RenameMarks`), so that a build of the app from before the rename (an extension
    /// not updated yet) reads it. That build keeps the keys it does not know as it found them,
    /// and its edits go under the former key: where the two differ beside the mark,
    /// `init(from:)` reads the former one.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.id, forKey: .id)
        try container.encode(self.name, forKey: .name)
        try container.encode(self.servings, forKey: .servings)
        try container.encode(self.minutes, forKey: .minutes)
        try container.encode(self.level, forKey: .level)
        var former = encoder.container(keyedBy: FormerKeys.self)
        var marks = encoder.container(keyedBy: RenameMarks.self)
        try former.encode(self.name, forKey: .title)
        try marks.encode(true, forKey: .title)
    }

    /// The JSON keys, one per field (a type that encodes and decodes itself declares them).
    private nonisolated enum CodingKeys: String, CodingKey {
        case id
        case name
        case servings
        case minutes
        case level
    }

    /// The JSON keys of renamed fields, as builds of the app from before the rename read them.
    private nonisolated enum FormerKeys: String, CodingKey {
        case title
    }

    /// The marks of fields written under both keys (see `encode(to:)`).
    private nonisolated enum RenameMarks: String, CodingKey {
        case title = "title>name"
    }
}

// Workshop: sample values live in the sources, not only in the tests, so that a SwiftUI preview
// (`RecipeListViewModel.preview(Recipe.samples)`) and the app's own tests can use them. `#if DEBUG`
// leaves them out of a release build.

#if DEBUG
    nonisolated extension Recipe {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Recipe 1"), and the same on every run.
        public static let samples: [Recipe] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Recipe {
            let id: UUID =
                UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8(number)))
            let name: String = "Recipe \(number)"
            let servings: Int = number
            let minutes: Int = number
            let level: Level = Level.allCases[(number - 1) % Level.allCases.count]
            return Recipe(
                id: id,
                name: name,
                servings: servings,
                minutes: minutes,
                level: level
            )
        }
    }
#endif
