internal import Foundation

/// One Pin, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Pin: Codable, Identifiable, Sendable, Hashable {
    public var id: Int
    public var memoID: Memo.ID
    public var label: String
    public var rank: Int
    public var noteID: Memo.ID?

    public init(
        id: Int,
        memoID: Memo.ID,
        label: String,
        rank: Int,
        noteID: Memo.ID? = nil
    ) {
        self.id = id
        self.memoID = memoID
        self.label = label
        self.rank = rank
        self.noteID = noteID
    }
}

#if DEBUG
    nonisolated extension Pin {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Pin 1"), and the same on every run.
        public static let samples: [Pin] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Pin {
            let id: Int = number
            let memoID: Memo.ID = Memo.samples[(number - 1) % Memo.samples.count].id
            let label: String = "Pin \(number)"
            let rank: Int = number
            let noteID: Memo.ID? = Memo.samples[(number - 1) % Memo.samples.count].id
            return Pin(
                id: id,
                memoID: memoID,
                label: label,
                rank: rank,
                noteID: noteID
            )
        }
    }
#endif
