public import Foundation

/// One Reminder, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Reminder: Codable, Identifiable, Sendable, Hashable {
    public var id: String
    public var noteID: Note.ID
    public var due: Date

    public init(
        id: String,
        noteID: Note.ID,
        due: Date
    ) {
        self.id = id
        self.noteID = noteID
        self.due = due
    }
}

#if DEBUG
    nonisolated extension Reminder {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Reminder 1"), and the same on every run.
        public static let samples: [Reminder] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Reminder {
            let id: String = "reminder-\(number)"
            let noteID: Note.ID = Note.samples[(number - 1) % Note.samples.count].id
            let due: Date = Date(timeIntervalSince1970: 1_767_225_600 + Double(number) * 86_400)
            return Reminder(
                id: id,
                noteID: noteID,
                due: due
            )
        }
    }
#endif
