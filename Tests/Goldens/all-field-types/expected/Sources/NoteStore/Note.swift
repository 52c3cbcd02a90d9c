public import Foundation

/// One Note, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Note: Codable, Identifiable, Sendable, Hashable {
    public var id: UUID
    public var title: String
    public var body: String?
    public var views: Int
    public var rating: Double
    public var pinned: Bool
    public var createdAt: Date
    public var link: URL
    public var due: Date?
    public var ref: UUID?
    public var total: Int64
    public var weight: Float
    public var price: Decimal
    public var thumbnail: Data

    public init(
        id: UUID,
        title: String,
        body: String? = nil,
        views: Int,
        rating: Double,
        pinned: Bool,
        createdAt: Date,
        link: URL,
        due: Date? = nil,
        ref: UUID? = nil,
        total: Int64,
        weight: Float,
        price: Decimal,
        thumbnail: Data
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.views = views
        self.rating = rating
        self.pinned = pinned
        self.createdAt = createdAt
        self.link = link
        self.due = due
        self.ref = ref
        self.total = total
        self.weight = weight
        self.price = price
        self.thumbnail = thumbnail
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
            let title: String = "Note \(number)"
            let body: String? = "Body \(number)"
            let views: Int = number
            let rating: Double = Double(number) * 1.5
            let pinned: Bool = number.isMultiple(of: 2)
            let createdAt: Date =
                Date(timeIntervalSince1970: 1_767_225_600 + Double(number) * 86_400)
            let link: URL = URL(fileURLWithPath: "/samples/link-\(number)")
            let due: Date? = Date(timeIntervalSince1970: 1_767_225_600 + Double(number) * 86_400)
            let ref: UUID? =
                UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8(number)))
            let total: Int64 = Int64(number)
            let weight: Float = Float(number) * 1.5
            let price: Decimal = Decimal(number * 10)
            let thumbnail: Data = Data("Thumbnail \(number)".utf8)
            return Note(
                id: id,
                title: title,
                body: body,
                views: views,
                rating: rating,
                pinned: pinned,
                createdAt: createdAt,
                link: link,
                due: due,
                ref: ref,
                total: total,
                weight: weight,
                price: price,
                thumbnail: thumbnail
            )
        }
    }
#endif
