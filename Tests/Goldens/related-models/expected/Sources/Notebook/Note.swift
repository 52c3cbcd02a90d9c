public import Foundation

/// One Note, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Note: Codable, Identifiable, Sendable, Hashable {
    public var id: UUID
    public var folderID: Folder.ID
    public var title: String
    public var body: String

    public init(
        id: UUID,
        folderID: Folder.ID,
        title: String,
        body: String
    ) {
        self.id = id
        self.folderID = folderID
        self.title = title
        self.body = body
    }
}

#if DEBUG
    nonisolated extension Note {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Note 1"), and the same on every run.
        public static let samples: [Note] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Note {
            let id: UUID =
                UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8(number)))
            let folderID: Folder.ID = Folder.samples[(number - 1) % Folder.samples.count].id
            let title: String = "Note \(number)"
            let body: String = "Body \(number)"
            return Note(
                id: id,
                folderID: folderID,
                title: title,
                body: body
            )
        }
    }
#endif
