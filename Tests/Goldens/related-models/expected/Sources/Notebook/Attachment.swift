public import Foundation

/// One Attachment, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Attachment: Codable, Identifiable, Sendable, Hashable {
    public var id: UUID
    public var noteID: Note.ID
    public var fileName: String
    public var size: Int

    public init(
        id: UUID,
        noteID: Note.ID,
        fileName: String,
        size: Int
    ) {
        self.id = id
        self.noteID = noteID
        self.fileName = fileName
        self.size = size
    }
}

#if DEBUG
    nonisolated extension Attachment {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Attachment 1"), and the same on every run.
        public static let samples: [Attachment] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Attachment {
            let id: UUID =
                UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8(number)))
            let noteID: Note.ID = Note.samples[(number - 1) % Note.samples.count].id
            let fileName: String = "Attachment \(number)"
            let size: Int = number
            return Attachment(
                id: id,
                noteID: noteID,
                fileName: fileName,
                size: size
            )
        }
    }
#endif
