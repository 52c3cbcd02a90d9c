import Foundation
import Testing

@testable import StoreEngine
@testable import StoreEngineTestSupport

/// A label as an earlier build stored it: its field `name`, no `pinned`.
struct EarlierLabel: Encodable {
    var id: Int
    var name: String
}

/// The same model after `--rename name=title` and a new `pinned:Bool=false`, at the same schema
/// version: Swift decodes the former name and the default, as a generated model does, and
/// writes `title` under both keys with their mark, `name>title` (the former key is read where
/// the two differ beside the mark: a build from before the rename changed it).
struct Label: StoredValue, Equatable {
    var id: Int
    var title: String
    var pinned = false
    var note: String?

    static let schemaVersion = 1
    static func precedes(_ first: Int, _ second: Int) -> Bool { first < second }
    static func decodeStored(_ version: Int, from decoder: any Decoder) throws -> [Label] {
        try [Label](from: decoder)
    }

    init(id: Int, title: String, pinned: Bool = false, note: String? = nil) {
        (self.id, self.title, self.pinned, self.note) = (id, title, pinned, note)
    }

    private enum CodingKeys: String, CodingKey { case id, title, pinned, note }
    private enum FormerKeys: String, CodingKey { case name }
    private enum RenameMarks: String, CodingKey { case name = "name>title" }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let former = try decoder.container(keyedBy: FormerKeys.self)
        let marks = try decoder.container(keyedBy: RenameMarks.self)
        id = try container.decode(Int.self, forKey: .id)
        title =
            try
            (marks.contains(.name) && former.contains(.name)
            ? nil : container.decodeIfPresent(String.self, forKey: .title))
            ?? former.decode(String.self, forKey: .name)
        pinned = try container.decodeIfPresent(Bool.self, forKey: .pinned) ?? false
        note = try container.decodeIfPresent(String.self, forKey: .note)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(pinned, forKey: .pinned)
        try container.encodeIfPresent(note, forKey: .note)
        var former = encoder.container(keyedBy: FormerKeys.self)
        var marks = encoder.container(keyedBy: RenameMarks.self)
        try former.encode(title, forKey: .name)
        try marks.encode(true, forKey: .name)
    }
}

/// A book whose reference was renamed from `holderID` to `shelfID`, decoding the former key
/// where the new one holds no value.
struct ShelvedBook: StoredValue {
    var id: Int
    var shelfID: UUID?
    var title: String

    static let schemaVersion = 1
    static let knownKeys: Set<String>? = ["holderID", "id", "shelfID", "title"]
    static func precedes(_ first: Int, _ second: Int) -> Bool { first < second }

    init(id: Int, shelfID: UUID?, title: String) {
        (self.id, self.shelfID, self.title) = (id, shelfID, title)
    }

    private enum CodingKeys: String, CodingKey { case id, shelfID, title }
    private enum FormerKeys: String, CodingKey { case holderID }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let former = try decoder.container(keyedBy: FormerKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        shelfID =
            try container.decodeIfPresent(UUID.self, forKey: .shelfID)
            ?? former.decodeIfPresent(UUID.self, forKey: .holderID)
        title = try container.decode(String.self, forKey: .title)
    }
}

/// Rows written before a field was renamed or added with a default are rewritten as the current
/// code writes them when the table opens, so that SQL (queries, `:unique`, delete rules) reads
/// what Swift decodes.
@Suite struct SQLiteLayoutTests {
    let folder: URL
    var file: URL { folder.appendingPathComponent("Store.sqlite") }
    let schema = SQLiteSchema<Label>(
        model: "Label", unique: ["title"], storedKeys: ["id", "note?", "pinned", "title"],
        renamed: ["name": "title"])

    init() {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("SQLiteLayoutTests-\(UUID().uuidString)")
    }

    /// A table of `count` labels as the earlier build wrote them, its layout then recorded.
    func writeEarlierRows(_ count: Int) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            let database = try SQLiteDatabase<ItemError>(file: file)
            _ = try SQLiteTable<Label, ItemError>(
                "labels", in: database,
                schema: SQLiteSchema(model: "Label", storedKeys: ["id", "name"]))
            database.close()
        }
        let earlier = (1...count).map { EarlierLabel(id: $0, name: "Label \($0)") }
        try StoredRows.insert(
            earlier, ids: earlier.map(\.id), version: 1, into: "labels", in: file)
    }

    /// Rows of the layout before the rename: the former key without the mark of both keys.
    let earlierLayout =
        #"json_type(value, '$.name') IS NOT NULL AND json_type(value, '$."name>title"') IS NULL"#

    /// The JSON of the row `id` of labels, as stored.
    func json(of id: Int, in table: SQLiteTable<Label, ItemError>) throws -> String {
        var json = ""
        try table.database.run("SELECT value FROM labels WHERE id = \(id)") {
            json = $0.text(at: 0)
        }
        return json
    }

    func count(_ condition: String, in table: SQLiteTable<Label, ItemError>) throws -> Int {
        try count(condition, in: table.database)
    }

    func count(_ condition: String, in database: SQLiteDatabase<ItemError>) throws -> Int {
        var count = 0
        try database.run("SELECT count(*) FROM labels WHERE \(condition)") {
            count = Int($0.int64(at: 0))
        }
        return count
    }

    /// A key written as null for nil (`note!`, an optional field with a default) is one every
    /// row must hold, and a layout with it is another than one without the mark: rows that an
    /// earlier release wrote without the key are rewritten once, with the default Swift decodes.
    @Test func aKeyWrittenAsNullIsRequiredAndMarksTheLayout() {
        let marked = SQLiteSchema<Label>(model: "Label", storedKeys: ["id", "note!", "pinned?"])
        let unmarked = SQLiteSchema<Label>(model: "Label", storedKeys: ["id", "note", "pinned?"])

        #expect(marked.requiredKeys == ["id", "note"])
        #expect(marked.keys == ["id", "note", "pinned"])
        #expect(marked.layout != unmarked.layout)
    }

    @Test func rowsOfAnEarlierLayoutAreRewrittenSoThatSQLReadsWhatSwiftDecodes() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeEarlierRows(2_500)
        let database = try SQLiteDatabase<ItemError>(file: file)
        defer { database.close() }

        let table = try SQLiteTable("labels", in: database, schema: schema)

        #expect(try table.find(7) == Label(id: 7, title: "Label 7"))
        #expect(try count("json_extract(value, '$.title') = 'Label 7'", in: table) == 1)
        #expect(try count("json_extract(value, '$.pinned') = 0", in: table) == 2_500)
        #expect(try count(earlierLayout, in: table) == 0)
        #expect(
            try count("json_extract(value, '$.name') = json_extract(value, '$.title')", in: table)
                == 2_500)
        // The unique field holds for the values stored before it was renamed.
        #expect(throws: ItemError.notUnique(field: "title", value: "Label 7")) {
            try table.commit(.saved([Label(id: 9_999, title: "Label 7")]))
        }
    }

    @Test func aDamagedRowIsLeftForAReadToReportAndTheTableStillOpens() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeEarlierRows(3)
        try StoredRows.execute(
            "UPDATE labels SET value = replace(value, 'Label 2', 'Label X') WHERE id = 2", in: file)
        try StoredRows.execute("UPDATE labels SET value = '{not json' WHERE id = 3", in: file)
        let database = try SQLiteDatabase<ItemError>(file: file)
        defer { database.close() }

        // With an index on `title`, which SQL reads as NULL for row 3.
        let table = try SQLiteTable("labels", in: database, schema: schema)

        #expect(try table.find(1) == Label(id: 1, title: "Label 1"))
        #expect(throws: (any Error).self) { try table.find(2) }
        #expect(throws: (any Error).self) { try table.find(3) }
        #expect(try count("CASE WHEN json_valid(value) THEN \(earlierLayout) END", in: table) == 1)
    }

    @Test func aKeyThisCodeDoesNotKnowIsKeptForTheBuildThatWroteIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeEarlierRows(1)
        // A newer build's row: its own field `color`, which this build does not decode.
        struct NewerLabel: Encodable {
            var id: Int
            var title: String
            var pinned: Bool
            var color: String
        }
        try StoredRows.insert(
            [NewerLabel(id: 2, title: "Newer", pinned: true, color: "red")], ids: [2],
            version: 1, into: "labels", in: file)
        let database = try SQLiteDatabase<ItemError>(file: file)
        defer { database.close() }

        let table = try SQLiteTable("labels", in: database, schema: schema)

        #expect(try count("json_extract(value, '$.color') = 'red'", in: table) == 1)
        #expect(try count(earlierLayout, in: table) == 0)
    }

    @Test func anOlderBuildsRewriteKeepsTheFieldsOfTheNewerBuildThatWroteTheRows() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        /// The build before `--rename name=title`, where `name` had a default: rows that an
        /// earlier release of the newer build wrote lack its `name`, so it rewrites them when
        /// it opens the table. This release's rows hold `name` too, and it reads them.
        struct OlderLabel: StoredValue {
            var id: Int
            var name: String

            static let schemaVersion = 1
            static func precedes(_ first: Int, _ second: Int) -> Bool { first < second }
            static func decodeStored(_ version: Int, from decoder: any Decoder) throws
                -> [OlderLabel]
            { try [OlderLabel](from: decoder) }

            private enum CodingKeys: String, CodingKey { case id, name }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                id = try container.decode(Int.self, forKey: .id)
                name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
            }
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            let database = try SQLiteDatabase<ItemError>(file: file)
            let newer = try SQLiteTable("labels", in: database, schema: schema)
            try newer.commit(
                .saved([Label(id: 1, title: "Kept", pinned: true, note: "a \"note\"")]))
            database.close()
        }
        /// A row as an earlier release of the newer build wrote it: under the new key only.
        struct LabelOfAnEarlierRelease: Encodable {
            var id: Int
            var title: String
            var pinned: Bool
        }
        try StoredRows.insert(
            [LabelOfAnEarlierRelease(id: 2, title: "Earlier release", pinned: true)], ids: [2],
            version: 1, into: "labels", in: file)

        do {
            let database = try SQLiteDatabase<ItemError>(file: file)
            let older = try SQLiteTable<OlderLabel, ItemError>(
                "labels", in: database,
                schema: SQLiteSchema(model: "Label", storedKeys: ["id", "name"]))
            #expect(try older.find(1)?.name == "Kept")
            #expect(try older.find(2)?.name == "")
            #expect(try count("json_extract(value, '$.name') = ''", in: database) == 1)
            #expect(
                try count("json_extract(value, '$.title') = 'Earlier release'", in: database) == 1)
            database.close()
        }

        let database = try SQLiteDatabase<ItemError>(file: file)
        defer { database.close() }
        let newer = try SQLiteTable("labels", in: database, schema: schema)
        #expect(try newer.find(1) == Label(id: 1, title: "Kept", pinned: true, note: "a \"note\""))
        // Without the mark, the new key is read: the older build's `name` is its default.
        #expect(try newer.find(2) == Label(id: 2, title: "Earlier release", pinned: true))
        #expect(try count(earlierLayout, in: newer) == 0)
    }

    @Test func theMembersKeptAreCopiedAsWrittenWhateverTheirValuesHold() throws {
        let json =
            #"{"a":"x,\"}{","b":{"c":[1,{"d":"]"}]},"id":3,"e":-1.5e-7,"f":null,"g":"\u00e9"}"#
        let kept = try #require(
            StoreFiles.JSONBytes.members(of: ArraySlice(json.utf8), notIn: ["id", "a"]))

        #expect(
            kept.map { String(decoding: $0, as: UTF8.self) } == [
                #""b":{"c":[1,{"d":"]"}]}"#, #""e":-1.5e-7"#, #""f":null"#, #""g":"\u00e9""#,
            ])
        #expect(StoreFiles.JSONBytes.members(of: ArraySlice("[1]".utf8), notIn: []) == nil)
        #expect(StoreFiles.JSONBytes.members(of: ArraySlice(#"{"a":"#.utf8), notIn: []) == nil)
        #expect(StoreFiles.JSONBytes.members(of: ArraySlice("{}".utf8), notIn: []) == [])
    }

    @Test func aRenamedReferenceFollowsItsDeleteRuleForRowsStoredUnderTheFormerName() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        struct EarlierBook: Encodable {
            var id: Int
            var holderID: UUID
            var title: String
        }
        let shelf = Shelf(id: UUID(), name: "Fiction", rank: 1)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            let database = try SQLiteDatabase<ItemError>(file: file)
            let shelves = try SQLiteTable<Shelf, ItemError>("shelves", in: database)
            try shelves.commit(.saved([shelf]))
            _ = try SQLiteTable<Book, ItemError>(
                "books", in: database,
                schema: SQLiteSchema(model: "Book", storedKeys: ["holderID", "id", "title"]))
            database.close()
        }
        try StoredRows.insert(
            (1...3).map { EarlierBook(id: $0, holderID: shelf.id, title: "Book \($0)") },
            ids: [1, 2, 3], version: 1, into: "books", in: file)
        let database = try SQLiteDatabase<ItemError>(file: file)
        defer { database.close() }
        let shelves = try SQLiteTable<Shelf, ItemError>("shelves", in: database)

        let books = try SQLiteTable<ShelvedBook, ItemError>(
            "books", in: database,
            schema: SQLiteSchema(
                model: "Book",
                references: [
                    SQLiteReference(
                        field: "shelfID", table: "shelves", rule: .cascade, parentID: \.shelfID)
                ],
                storedKeys: ["id", "shelfID?", "title"], renamed: ["holderID": "shelfID"]))

        #expect(try books.count() == 3)
        try shelves.commit(.deleted([shelf.id]))
        #expect(try books.count() == 0)
    }

    /// A row that holds a renamed field under both keys with their mark, the two alike, is of
    /// the current layout: the pass over the table that looks for rows to rewrite when it opens
    /// leaves it as it is (its `"note":null`, which a rewrite would leave out, stays). One whose
    /// former key differs is rewritten, with the former key's value.
    @Test func aRowWrittenUnderBothKeysIsRewrittenOnlyWhenTheyDiffer() throws {
        /// A label under both keys, its nil `note` written as null.
        struct LabelUnderBothKeys: Encodable {
            var id: Int
            var title: String
            var name: String

            enum CodingKeys: String, CodingKey {
                case id, name, note, pinned, title
                case mark = "name>title"
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(id, forKey: .id)
                try container.encode(title, forKey: .title)
                try container.encode(name, forKey: .name)
                try container.encode(true, forKey: .mark)
                try container.encode(false, forKey: .pinned)
                try container.encodeNil(forKey: .note)
            }
        }
        try writeEarlierRows(1)
        try StoredRows.insert(
            [
                LabelUnderBothKeys(id: 2, title: "Two", name: "Two"),
                LabelUnderBothKeys(id: 3, title: "Three", name: "Drei"),
            ], ids: [2, 3], version: 1, into: "labels", in: file)
        let database = try SQLiteDatabase<ItemError>(file: file)
        defer { database.close() }

        let table = try SQLiteTable("labels", in: database, schema: schema)

        #expect(
            try json(of: 2, in: table)
                == #"{"id":2,"name":"Two","name>title":true,"note":null,"pinned":false,"title":"Two"}"#
        )
        #expect(
            try json(of: 3, in: table)
                == #"{"id":3,"name":"Drei","name>title":true,"pinned":false,"title":"Drei"}"#)
        #expect(try count(earlierLayout, in: table) == 0)
    }

    @Test func aTableOfTheCurrentLayoutIsNotRewrittenAgain() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeEarlierRows(3)
        do {
            let database = try SQLiteDatabase<ItemError>(file: file)
            _ = try SQLiteTable("labels", in: database, schema: schema)
            database.close()
        }
        // A row of the earlier layout written after the rewrite (by hand, as no build of the
        // app does) stays: the recorded layout says the rows are current, and opening reads.
        try StoredRows.insert(
            [EarlierLabel(id: 4, name: "Label 4")], ids: [4], version: 1, into: "labels", in: file)
        let database = try SQLiteDatabase<ItemError>(file: file)
        defer { database.close() }

        let table = try SQLiteTable("labels", in: database, schema: schema)

        #expect(try count(earlierLayout, in: table) == 1)
        #expect(try table.find(4) == Label(id: 4, title: "Label 4"))
    }
}
