public import Foundation

/// One BlogPost, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct BlogPost: Codable, Identifiable, Sendable, Hashable {
    /// The values of ``status``, stored as their names.
    public nonisolated enum Status: String, Codable, Sendable, Hashable, CaseIterable {
        case draft
        case published
        case `default`
    }

    /// The values of ``kind``, stored as their names.
    public nonisolated enum Kind: String, Codable, Sendable, Hashable, CaseIterable {
        case a
        case b
    }

    public var id: UUID
    public var title: String
    public var body: String?
    public var views: Int
    public var big: Int64
    public var ratio: Float
    public var price: Decimal
    public var raw: Data
    public var tags: [String]
    public var scores: [String: Int]
    public var notes: [String]?
    public var status: Status
    public var kind: Kind?
    public var `default`: String
    public var `class`: Int
    public var `func`: Bool
    public var `in`: Double
    public var `operator`: String
    public var `Type`: Int
    public var container: Int
    public var decoder: String
    public var link: URL
    public var due: Date
    public var owner: UUID?
    public var nickname: String?

    public init(
        id: UUID,
        title: String = "Untitled",
        body: String? = nil,
        views: Int = 0,
        big: Int64,
        ratio: Float = 0.5,
        price: Decimal = Decimal(sign: .plus, exponent: -2, significand: 999),
        raw: Data,
        tags: [String] = [],
        scores: [String: Int],
        notes: [String]? = nil,
        status: Status = .draft,
        kind: Kind? = nil,
        `default`: String,
        `class`: Int,
        `func`: Bool,
        `in`: Double,
        `operator`: String,
        `Type`: Int,
        container: Int,
        decoder: String,
        link: URL = URL(string: "https://example.com")!,
        due: Date = Date(timeIntervalSince1970: 0.0),
        owner: UUID? = nil,
        nickname: String? = "anon"
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.views = views
        self.big = big
        self.ratio = ratio
        self.price = price
        self.raw = raw
        self.tags = tags
        self.scores = scores
        self.notes = notes
        self.status = status
        self.kind = kind
        self.`default` = `default`
        self.`class` = `class`
        self.`func` = `func`
        self.`in` = `in`
        self.`operator` = `operator`
        self.`Type` = `Type`
        self.container = container
        self.decoder = decoder
        self.link = link
        self.due = due
        self.owner = owner
        self.nickname = nickname
    }

    /// Decodes JSON written by earlier versions of the model: a missing key takes the field's
    /// default, and a renamed field reads its former key, so such changes never break stored
    /// data.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.id = try container.decode(UUID.self, forKey: .id)
        self.title =
            try container.contains(.title)
            ? container.decode(String.self, forKey: .title)
            : "Untitled"
        self.body = try container.decodeIfPresent(String.self, forKey: .body)
        self.views =
            try container.contains(.views)
            ? container.decode(Int.self, forKey: .views)
            : 0
        self.big = try container.decode(Int64.self, forKey: .big)
        self.ratio =
            try container.contains(.ratio)
            ? container.decode(Float.self, forKey: .ratio)
            : 0.5
        self.price =
            try container.contains(.price)
            ? container.decode(Decimal.self, forKey: .price)
            : Decimal(sign: .plus, exponent: -2, significand: 999)
        self.raw = try container.decode(Data.self, forKey: .raw)
        self.tags =
            try container.contains(.tags)
            ? container.decode([String].self, forKey: .tags)
            : []
        self.scores = try container.decode([String: Int].self, forKey: .scores)
        self.notes = try container.decodeIfPresent([String].self, forKey: .notes)
        self.status =
            try container.contains(.status)
            ? container.decode(Status.self, forKey: .status)
            : .draft
        self.kind = try container.decodeIfPresent(Kind.self, forKey: .kind)
        self.`default` = try container.decode(String.self, forKey: .`default`)
        self.`class` = try container.decode(Int.self, forKey: .`class`)
        self.`func` = try container.decode(Bool.self, forKey: .`func`)
        self.`in` = try container.decode(Double.self, forKey: .`in`)
        self.`operator` = try container.decode(String.self, forKey: .`operator`)
        self.`Type` = try container.decode(Int.self, forKey: .`Type`)
        self.container = try container.decode(Int.self, forKey: .container)
        self.decoder = try container.decode(String.self, forKey: .decoder)
        self.link =
            try container.contains(.link)
            ? container.decode(URL.self, forKey: .link)
            : URL(string: "https://example.com")!
        self.due =
            try container.contains(.due)
            ? container.decode(Date.self, forKey: .due)
            : Date(timeIntervalSince1970: 0.0)
        self.owner =
            try container.contains(.owner)
            ? container.decodeIfPresent(UUID.self, forKey: .owner)
            : nil
        self.nickname =
            try container.contains(.nickname)
            ? container.decodeIfPresent(String.self, forKey: .nickname)
            : "anon"
    }

    /// Encodes as the compiler would, except that a `nil` in an optional field with a default
    /// is written as `null`: a missing key would read as the default, which the value did not
    /// hold.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(self.id, forKey: .id)
        try container.encode(self.title, forKey: .title)
        try container.encodeIfPresent(self.body, forKey: .body)
        try container.encode(self.views, forKey: .views)
        try container.encode(self.big, forKey: .big)
        try container.encode(self.ratio, forKey: .ratio)
        try container.encode(self.price, forKey: .price)
        try container.encode(self.raw, forKey: .raw)
        try container.encode(self.tags, forKey: .tags)
        try container.encode(self.scores, forKey: .scores)
        try container.encodeIfPresent(self.notes, forKey: .notes)
        try container.encode(self.status, forKey: .status)
        try container.encodeIfPresent(self.kind, forKey: .kind)
        try container.encode(self.`default`, forKey: .`default`)
        try container.encode(self.`class`, forKey: .`class`)
        try container.encode(self.`func`, forKey: .`func`)
        try container.encode(self.`in`, forKey: .`in`)
        try container.encode(self.`operator`, forKey: .`operator`)
        try container.encode(self.`Type`, forKey: .`Type`)
        try container.encode(self.container, forKey: .container)
        try container.encode(self.decoder, forKey: .decoder)
        try container.encode(self.link, forKey: .link)
        try container.encode(self.due, forKey: .due)
        try container.encodeIfPresent(self.owner, forKey: .owner)
        try container.encode(self.nickname, forKey: .nickname)
    }

    /// The JSON keys, one per field (a type that encodes and decodes itself declares them).
    private nonisolated enum CodingKeys: String, CodingKey {
        case id
        case title
        case body
        case views
        case big
        case ratio
        case price
        case raw
        case tags
        case scores
        case notes
        case status
        case kind
        case `default`
        case `class`
        case `func`
        case `in`
        case `operator`
        case `Type`
        case container
        case decoder
        case link
        case due
        case owner
        case nickname
    }
}

#if DEBUG
    nonisolated extension BlogPost {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("BlogPost 1"), and the same on every run.
        public static let samples: [BlogPost] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> BlogPost {
            let id: UUID =
                UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8(number)))
            let title: String = "BlogPost \(number)"
            let body: String? = "Body \(number)"
            let views: Int = number
            let big: Int64 = Int64(number)
            let ratio: Float = Float(number) * 1.5
            let price: Decimal = Decimal(number * 10)
            let raw: Data = Data("Raw \(number)".utf8)
            let tags: [String] = ["Tags \(number)"]
            let scores: [String: Int] = ["Scores \(number)": number]
            let notes: [String]? = ["Notes \(number)"]
            let status: Status = Status.allCases[(number - 1) % Status.allCases.count]
            let kind: Kind? = Kind.allCases[(number - 1) % Kind.allCases.count]
            let `default`: String = "Default \(number)"
            let `class`: Int = number
            let `func`: Bool = number.isMultiple(of: 2)
            let `in`: Double = Double(number) * 1.5
            let `operator`: String = "Operator \(number)"
            let `Type`: Int = number
            let container: Int = number
            let decoder: String = "Decoder \(number)"
            let link: URL = URL(fileURLWithPath: "/samples/link-\(number)")
            let due: Date = Date(timeIntervalSince1970: 1_767_225_600 + Double(number) * 86_400)
            let owner: UUID? =
                UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8(number)))
            let nickname: String? = "Nickname \(number)"
            return BlogPost(
                id: id,
                title: title,
                body: body,
                views: views,
                big: big,
                ratio: ratio,
                price: price,
                raw: raw,
                tags: tags,
                scores: scores,
                notes: notes,
                status: status,
                kind: kind,
                default: `default`,
                class: `class`,
                func: `func`,
                in: `in`,
                operator: `operator`,
                Type: `Type`,
                container: container,
                decoder: decoder,
                link: link,
                due: due,
                owner: owner,
                nickname: nickname
            )
        }
    }
#endif
