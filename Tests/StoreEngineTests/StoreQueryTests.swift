import Foundation
import Testing

@testable import StoreEngine

/// A model with optional, text, number and enum fields, for the queries.
struct Entry: StoredValue {
    enum Mood: String, Codable, Sendable, Hashable, QueryableField { case calm, busy, Ærgerlig }

    var id: UUID
    var title: String
    var score: Double?
    var rank: Int
    var done: Bool
    var mood: Mood
    var note: String?

    static let schemaVersion = 1

    static func precedes(_ first: UUID, _ second: UUID) -> Bool {
        first.checksumBytes.lexicographicallyPrecedes(second.checksumBytes)
    }

    enum Fields {
        static let id = QueryField<Entry, UUID>(id: { $0.id })
        static let title = QueryField<Entry, String>("title") { $0.title }
        static let score = QueryField<Entry, Double?>("score") { $0.score }
        static let rank = QueryField<Entry, Int>("rank") { $0.rank }
        static let done = QueryField<Entry, Bool>("done") { $0.done }
        static let mood = QueryField<Entry, Mood>("mood") { $0.mood }
        static let note = QueryField<Entry, String?>("note") { $0.note }
    }
}

/// Queries run in SQL give what the same query gives in Swift, for any filter, sort and page:
/// the view-model places changes by the Swift side, so the two must agree.
@Suite struct StoreQueryTests {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("StoreQueryTests-\(UUID().uuidString)")

    /// Deterministic values with ties, nils, non-ASCII text and numbers of both signs.
    func entries(_ count: Int) -> [Entry] {
        // Scalars at the edges of a prefix's range too: before the surrogates, after them, the
        // last one, and one of four UTF-8 bytes.
        let titles = [
            "apple", "Apple", "apricot", "banana", "é", "e\u{301}", "", "b", "\u{D7FF}x",
            "\u{E000}", "\u{10FFFF}", "a\u{10FFFF}b", "\u{1F34E} apple",
        ]
        return (0..<count).map { number in
            var bytes = [UInt8](repeating: 0, count: 16)
            bytes[0] = UInt8(number * 37 % 251)
            bytes[15] = UInt8(number % 256)
            let id = UUID(
                uuid: (
                    bytes[0], 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, bytes[15]
                ))
            return Entry(
                id: id, title: titles[number % titles.count],
                score: number % 5 == 0 ? nil : Double(number % 7) - 2.5, rank: number % 4 - 1,
                done: number % 3 == 0, mood: [.calm, .busy, .Ærgerlig][number % 3],
                note: number % 2 == 0 ? nil : "note \(number % 6)")
        }
    }

    func conditions() -> [(String, QueryCondition<Entry>)] {
        [
            ("title == apple", Entry.Fields.title.isEqual(to: "apple")),
            ("title < b", Entry.Fields.title.isLess(than: "b")),
            ("title > apple", Entry.Fields.title.isGreater(than: "apple")),
            ("title prefix ap", Entry.Fields.title.hasPrefix("ap")),
            ("title contains an", Entry.Fields.title.contains("an")),
            ("title prefix e", Entry.Fields.title.hasPrefix("e")),
            ("score nil", Entry.Fields.score.isNil),
            ("score not nil", Entry.Fields.score.isNotNil),
            ("score > 0", Entry.Fields.score.isGreater(than: 0)),
            ("score == nil", Entry.Fields.score.isEqual(to: nil)),
            ("rank < 1", Entry.Fields.rank.isLess(than: 1)),
            ("done", Entry.Fields.done.isEqual(to: true)),
            ("mood == busy", Entry.Fields.mood.isEqual(to: .busy)),
            ("mood > calm", Entry.Fields.mood.isGreater(than: .calm)),
            ("note contains 3", Entry.Fields.note.contains("3")),
            ("note prefix note", Entry.Fields.note.hasPrefix("note")),
            ("title prefix empty", Entry.Fields.title.hasPrefix("")),
            ("title prefix U+D7FF", Entry.Fields.title.hasPrefix("\u{D7FF}")),
            ("title prefix a U+10FFFF", Entry.Fields.title.hasPrefix("a\u{10FFFF}")),
            ("title prefix U+10FFFF", Entry.Fields.title.hasPrefix("\u{10FFFF}")),
            ("title prefix apple emoji", Entry.Fields.title.hasPrefix("\u{1F34E}")),
            ("note prefix empty", Entry.Fields.note.hasPrefix("")),
        ]
    }

    func sorted(_ query: StoreQuery<Entry>, _ choice: Int) -> StoreQuery<Entry> {
        switch choice % 6 {
        case 0: query
        case 1: query.sorted(by: Entry.Fields.title)
        case 2: query.sorted(by: Entry.Fields.score, descending: true)
        case 3: query.sorted(by: Entry.Fields.rank).sorted(by: Entry.Fields.title, descending: true)
        case 4: query.sorted(by: Entry.Fields.note).sorted(by: Entry.Fields.done)
        default: query.sorted(by: Entry.Fields.mood, descending: true)
        }
    }

    @Test func everyFilterAndSortGivesInSQLWhatItGivesInSwift() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(
            file: folder.appendingPathComponent("q.sqlite"))
        let table = try SQLiteTable<Entry, ItemError>("entries", in: database)
        let all = entries(120)
        try database.transaction { try table.save(all) }
        let conditions = conditions()

        for (index, (name, condition)) in conditions.enumerated() {
            for choice in 0..<6 {
                var query = sorted(StoreQuery<Entry>().filter(condition), choice + index)
                if choice == 5 {
                    query = query.filter(conditions[(index + 3) % conditions.count].1)
                }
                let expected = all.filter(query.matches).sorted(by: query.precedes)

                #expect(try table.values(query) == expected, "\(name), sort \(choice + index)")
                #expect(try table.count(query) == expected.count, "\(name)")
                let page = query.limit(7, offset: 3)
                #expect(try table.values(page) == Array(expected.dropFirst(3).prefix(7)), "\(name)")
                // Paging with a cursor walks the whole result, page by page.
                var walked: [Entry] = []
                var cursor: Entry?
                repeat {
                    let next = try table.values(query.after(cursor).limit(9))
                    walked += next
                    cursor = next.last
                    if next.count < 9 { break }
                } while true
                #expect(walked == expected, "\(name), cursor, sort \(choice + index)")
            }
        }
        #expect(
            try table.values(StoreQuery<Entry>().filter(Entry.Fields.id.isEqual(to: all[4].id)))
                == [all[4]])
    }

    /// A prefix is a range of the field's values, which SQLite reads from the field's index
    /// (found by an app trial: `substr(…) = ?` read every row, 2.3 s at 1,000,000 values).
    @Test func aPrefixFilterReadsTheFieldsIndex() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(
            file: folder.appendingPathComponent("p.sqlite"))
        let table = try SQLiteTable<Entry, ItemError>(
            "entries", in: database, schema: SQLiteSchema(model: "Entry", indexed: ["title"]))
        try database.transaction { try table.save(entries(40)) }

        for prefix in ["ap", "\u{10FFFF}"] {
            let condition = Entry.Fields.title.hasPrefix(prefix)
            var plan: [String] = []
            try database.run(
                "EXPLAIN QUERY PLAN SELECT id FROM entries WHERE \(condition.sql)",
                bind: { statement in
                    for (index, argument) in condition.arguments.enumerated() {
                        statement.bind(argument, at: Int32(index + 1))
                    }
                }, row: { plan.append($0.text(at: 3)) })
            #expect(plan.contains { $0.contains("USING INDEX entries.title") }, "\(plan)")
        }
    }

    @Test func aWindowFollowsChangesAndStaysTheStartOfTheQuery() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(
            file: folder.appendingPathComponent("w.sqlite"))
        let table = try SQLiteTable<Entry, ItemError>("entries", in: database)
        var all = entries(60)
        try database.transaction { try table.save(all) }
        let query = StoreQuery<Entry>().filter(Entry.Fields.rank.isLess(than: 2))
            .sorted(by: Entry.Fields.score, descending: true)
        var window = LiveWindow(query: query)
        let first = try table.values(window.nextPage(size: 10))
        window.show(first, isComplete: false)

        // Changes before, inside and beyond the window, then the rest a page at a time.
        var changed = all[0]
        changed.score = 100
        var moved = window.values[0]
        moved.score = -100
        var hidden = window.values[1]
        hidden.rank = 5
        let changes: [StoreChange<Entry>] = [
            .saved([changed]), .saved([moved]), .saved([hidden]), .deleted([window.values[3].id]),
        ]
        for change in changes {
            try database.transaction {
                switch change {
                case .saved(let values): try table.save(values)
                case .deleted(let ids): try table.delete(ids)
                case .removedAll: try table.removeAll()
                }
            }
            window.apply(change)
            all = try table.values(StoreQuery<Entry>())
        }
        let expected = all.filter(query.matches).sorted(by: query.precedes)
        #expect(window.values == Array(expected.prefix(window.values.count)))
        while !window.isComplete {
            let page = try table.values(window.nextPage(size: 10))
            window.append(page, isComplete: page.count < 10)
        }
        #expect(window.values == expected)
    }

    /// Values saved among those shown (another process saved 985) push the last ones out: the
    /// window holds the pages loaded (15 values shown of 15 with pages of 20, or 10 of 15 with
    /// pages of 10), not every value, and those pushed out come back a page at a time.
    @Test(arguments: [10, 20])
    func valuesSavedAmongThoseShownPushTheLastOnesOutOfTheWindow(pageSize: Int) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(
            file: folder.appendingPathComponent("w.sqlite"))
        let table = try SQLiteTable<Entry, ItemError>("entries", in: database)
        let all = entries(1_000)
        try database.transaction { try table.save(Array(all.prefix(15))) }
        let query = StoreQuery<Entry>().sorted(by: Entry.Fields.score, descending: true)
        var window = LiveWindow(query: query)
        let first = try table.values(window.nextPage(size: pageSize))
        window.show(first, isComplete: first.count < pageSize, pageSize: pageSize)
        let shown = min(15, pageSize)
        #expect(window.values.count == shown)

        try database.transaction { try table.save(Array(all.dropFirst(15))) }
        window.apply(.saved(Array(all.dropFirst(15))))

        let expected = all.filter(query.matches).sorted(by: query.precedes)
        #expect(window.values == Array(expected.prefix(pageSize)))
        #expect(!window.isComplete)
        window.apply(.removedAll)
        window.apply(.saved(all))
        #expect(window.values == Array(expected.prefix(pageSize)))
        #expect(!window.isComplete)
        while !window.isComplete {
            let page = try table.values(window.nextPage(size: pageSize))
            window.append(page, isComplete: page.count < pageSize, pageSize: pageSize)
        }
        #expect(window.values == expected)
    }

    /// A value the user adds to a window that holds all it may, sorting last, is shown: the
    /// window takes in a change of up to a page, as a page loaded.
    @Test func aValueAddedToAFullWindowIsShown() {
        let all = entries(10)
        let query = StoreQuery<Entry>().sorted(by: Entry.Fields.rank)
        var window = LiveWindow(query: query)
        window.show(all.sorted(by: query.precedes), isComplete: true, pageSize: 10)
        var added = all[0]
        added.id = UUID()
        added.rank = 100

        window.apply(.saved([added]))

        #expect(window.values.count == 11)
        #expect(window.values.last == added)
        #expect(window.isComplete)
    }

    /// Ids that Swift orders otherwise than SQL (a decomposed "é" sorts before "f" by its bytes,
    /// after it as a Swift String): the window orders them as SQL does, so each page starts
    /// where the values shown end, and every value is reached.
    @Test func aWindowOrdersIdsAsSQLDoesSoEveryPageFollowsTheLast() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(
            file: folder.appendingPathComponent("w.sqlite"))
        let table = try SQLiteTable<Page, ItemError>("pages", in: database)
        let ids =
            (0..<10).map { "a\($0)" } + ["e\u{301}clair"] + (0..<30).map { "f\(100 + $0)" }
        try database.transaction { try table.save(ids.map { Page(id: $0, bookID: 1) }) }
        var window = LiveWindow(query: StoreQuery<Page>())
        let first = try table.values(window.nextPage(size: 5))
        window.show(first, isComplete: false, pageSize: 5)

        for _ in 0..<20 where !window.isComplete {
            let page = try table.values(window.nextPage(size: 5))
            window.append(page, isComplete: page.count < 5, pageSize: 5)
        }

        #expect(window.values.map(\.id) == ids)
    }

    /// A delete leaves room that a refill reads into, and only a delete: a value added to a
    /// full window is taken in with no room left over (a whole page was read for it), and a
    /// refill page read before values entered takes only what is still missing.
    @Test func onlyDeletesLeaveRoomToRefill() throws {
        let query = StoreQuery<Entry>().sorted(by: Entry.Fields.rank)
        let sorted = entries(30).sorted(by: query.precedes)
        var window = LiveWindow(query: query)
        window.show(Array(sorted[1..<11]), isComplete: false, pageSize: 10)

        window.apply(.saved([sorted[0]]))
        #expect(window.values.count == 11)
        #expect(window.missing == 0)

        window.apply(.deleted([sorted[0].id, sorted[1].id]))
        #expect(window.missing == 2)
        window.refill(Array(sorted[11..<14]), isComplete: false)
        #expect(window.values == Array(sorted[2..<13]))
        #expect(window.missing == 0)
        #expect(!window.isComplete)
    }

    /// Values saved one at a time among those shown (another process adding them, newest
    /// first) grow the window by at most a page: then they push the last ones out, and the
    /// window has more to load, so memory stays within the pages loaded and one more.
    @Test func savesAmongTheValuesShownGrowTheWindowByAPageAtMost() throws {
        let query = StoreQuery<Entry>().sorted(by: Entry.Fields.rank)
        let sorted = entries(60).sorted(by: query.precedes)
        var window = LiveWindow(query: query)
        window.show(Array(sorted[40..<50]), isComplete: false, pageSize: 10)

        for value in sorted[0..<40].reversed() { window.apply(.saved([value])) }

        #expect(window.values == Array(sorted[0..<20]))
        #expect(!window.isComplete)
        #expect(window.missing == 0)
        // A page loaded after them makes room for one more page of such saves.
        window.append(Array(sorted[20..<30]), isComplete: false, pageSize: 10)
        #expect(window.values == Array(sorted[0..<30]))
    }

    @Test func aChangeToTheLastValuesShownKeepsThemInTheWindow() throws {
        let all = entries(30)
        let query = StoreQuery<Entry>().sorted(by: Entry.Fields.rank)
        let sorted = all.sorted(by: query.precedes)
        var window = LiveWindow(query: query)
        window.show(Array(sorted.prefix(5)), isComplete: false)

        // A field the query does not sort on, in the last value, then in every value shown.
        var edited = window.values
        for index in edited.indices { edited[index].title += " (edited)" }
        window.apply(.saved([edited[4]]))
        #expect(window.values == Array(sorted.prefix(4)) + [edited[4]])
        window.apply(.saved(edited))
        #expect(window.values == edited)
        // Saved twice in one batch: the last one is the one stored, and shown.
        var twice = edited[2]
        twice.title = "twice"
        window.apply(.saved([edited[2], twice]))
        #expect(window.values[2] == twice)
    }

    @Test func integersAndRealsCompareExactlyAsSQLiteComparesThem() {
        let big: Int64 = 12_345_678_901_234_567
        let rounded = Double(big)  // 12_345_678_901_234_568 as a Double
        #expect(SQLiteArgument.integer(big).sortsBefore(.real(rounded)))
        #expect(!SQLiteArgument.real(rounded).sortsBefore(.integer(big)))
        #expect(SQLiteArgument.integer(big + 1).sqlEquals(.real(rounded)))
        #expect(SQLiteArgument.integer(3).sortsBefore(.real(3.5)))
        #expect(SQLiteArgument.real(2.5).sortsBefore(.integer(3)))
        #expect(SQLiteArgument.integer(.max).sortsBefore(.real(9_223_372_036_854_775_808.0)))
        #expect(Decimal(string: "12345678901234567")?.queryArgument == .integer(big))
        #expect(Double.nan.queryArgument == .null)
        // A Decimal's NaN (a division by zero) too; and a NaN compared with a whole number, as
        // the view-model's filter compares each saved value, does not trap.
        #expect(Decimal.nan.queryArgument == .null)
        #expect(!SQLiteArgument.integer(3).sortsBefore(.real(.nan)))
        #expect(SQLiteArgument.real(.nan).sortsBefore(.integer(3)))
    }
}
