public import Foundation

/// One Entry, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Entry: Codable, Identifiable, Sendable, Hashable {
    /// The values of ``mood``, stored as their names.
    public nonisolated enum Mood: String, Codable, Sendable, Hashable, CaseIterable {
        case calm
        case busy
    }

    public var id: UUID
    public var title: String
    public var note: String?
    public var rank: Int
    public var count: Int64
    public var score: Double
    public var ratio: Float
    public var done: Bool
    public var when: Date
    public var ref: UUID?
    public var link: URL
    public var price: Decimal
    public var mood: Mood
    public var tags: [String]
    public var raw: Data

    public init(
        id: UUID,
        title: String,
        note: String? = nil,
        rank: Int,
        count: Int64,
        score: Double,
        ratio: Float,
        done: Bool,
        when: Date,
        ref: UUID? = nil,
        link: URL,
        price: Decimal,
        mood: Mood,
        tags: [String],
        raw: Data
    ) {
        self.id = id
        self.title = title
        self.note = note
        self.rank = rank
        self.count = count
        self.score = score
        self.ratio = ratio
        self.done = done
        self.when = when
        self.ref = ref
        self.link = link
        self.price = price
        self.mood = mood
        self.tags = tags
        self.raw = raw
    }
}

#if DEBUG
    nonisolated extension Entry {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Entry 1"), and the same on every run.
        public static let samples: [Entry] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Entry {
            let id: UUID =
                UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8(number)))
            let title: String = "Entry \(number)"
            let note: String? = "Note \(number)"
            let rank: Int = number
            let count: Int64 = Int64(number)
            let score: Double = Double(number) * 1.5
            let ratio: Float = Float(number) * 1.5
            let done: Bool = number.isMultiple(of: 2)
            let when: Date = Date(timeIntervalSince1970: 1_767_225_600 + Double(number) * 86_400)
            let ref: UUID? =
                UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8(number)))
            let link: URL = URL(fileURLWithPath: "/samples/link-\(number)")
            let price: Decimal = Decimal(number * 10)
            let mood: Mood = Mood.allCases[(number - 1) % Mood.allCases.count]
            let tags: [String] = ["Tags \(number)"]
            let raw: Data = Data("Raw \(number)".utf8)
            return Entry(
                id: id,
                title: title,
                note: note,
                rank: rank,
                count: count,
                score: score,
                ratio: ratio,
                done: done,
                when: when,
                ref: ref,
                link: link,
                price: price,
                mood: mood,
                tags: tags,
                raw: raw
            )
        }
    }
#endif
