public import Foundation

/// One Tag, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Tag: Codable, Identifiable, Sendable, Hashable {
    public var id: Int
    public var noteID: Note.ID?
    public var label: String

    public init(
        id: Int,
        noteID: Note.ID? = nil,
        label: String
    ) {
        self.id = id
        self.noteID = noteID
        self.label = label
    }
}

#if DEBUG
    nonisolated extension Tag {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Tag 1"), and the same on every run.
        public static let samples: [Tag] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Tag {
            let id: Int = number
            let noteID: Note.ID? = Note.samples[(number - 1) % Note.samples.count].id
            let label: String = "Tag \(number)"
            return Tag(
                id: id,
                noteID: noteID,
                label: label
            )
        }
    }
#endif
