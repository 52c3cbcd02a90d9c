public import Foundation

/// One Folder, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Folder: Codable, Identifiable, Sendable, Hashable {
    public var id: UUID
    public var name: String

    public init(
        id: UUID,
        name: String
    ) {
        self.id = id
        self.name = name
    }
}

#if DEBUG
    nonisolated extension Folder {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Folder 1"), and the same on every run.
        public static let samples: [Folder] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Folder {
            let id: UUID =
                UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8(number)))
            let name: String = "Folder \(number)"
            return Folder(
                id: id,
                name: name
            )
        }
    }
#endif
