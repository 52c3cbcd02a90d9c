import Foundation
import Testing

@testable import StoreEngine

/// A book as a newer build of an app stores it: `pages` added with a default, `note` renamed
/// `remark`, at the same schema version; `remark` written under both keys with their mark, as
/// a generated model writes a renamed field.
struct NewerBook: StoredValue {
    var id: Int
    var title: String
    var pages: Int = 0
    var remark: String?

    static let schemaVersion = 1
    static let knownKeys: Set<String>? = ["id", "note", "note>remark", "pages", "remark", "title"]

    static func precedes(_ first: Int, _ second: Int) -> Bool { first < second }

    init(id: Int, title: String, pages: Int = 0, remark: String? = nil) {
        (self.id, self.title, self.pages, self.remark) = (id, title, pages, remark)
    }

    private enum CodingKeys: String, CodingKey { case id, title, pages, remark }
    private enum FormerKeys: String, CodingKey { case note }
    private enum RenameMarks: String, CodingKey { case note = "note>remark" }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let former = try decoder.container(keyedBy: FormerKeys.self)
        let marks = try decoder.container(keyedBy: RenameMarks.self)
        id = try container.decode(Int.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        pages = try container.decodeIfPresent(Int.self, forKey: .pages) ?? 0
        remark =
            try
            (marks.contains(.note) && former.contains(.note)
            ? nil : container.decodeIfPresent(String.self, forKey: .remark))
            ?? former.decodeIfPresent(String.self, forKey: .note)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(pages, forKey: .pages)
        try container.encodeIfPresent(remark, forKey: .remark)
        var former = encoder.container(keyedBy: FormerKeys.self)
        var marks = encoder.container(keyedBy: RenameMarks.self)
        try former.encodeIfPresent(remark, forKey: .note)
        try marks.encode(true, forKey: .note)
    }
}

/// The same book as the older build stores it: an extension not updated yet, on the same
/// folder.
struct OlderBook: StoredValue {
    var id: Int
    var title: String
    var note: String?

    static let schemaVersion = 1
    static let knownKeys: Set<String>? = ["id", "note", "title"]

    static func precedes(_ first: Int, _ second: Int) -> Bool { first < second }
}

/// An older build of an app that writes a journal or snapshot store a newer build wrote (an
/// extension not updated yet) keeps the newer build's fields whenever it rewrites a value.
@Suite struct OlderBuildFileStoreTests {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("OlderBuildFileStoreTests-\(UUID().uuidString)")

    func journal<Value: StoredValue>(_: Value.Type) throws -> JournalStore<Value, ItemError> {
        try JournalStore(
            directory: folder, snapshot: "books.json", journal: "books.journal",
            lock: "books.lock", compactionFloor: 256)
    }

    func snapshot<Value: StoredValue>(_: Value.Type) throws -> SnapshotStore<Value, ItemError> {
        try SnapshotStore(directory: folder, file: "books.json", lock: "books.lock")
    }

    /// Writes the store's values as a new snapshot, as a compaction does.
    func compact<Value: StoredValue>(_ store: inout JournalStore<Value, ItemError>) async throws {
        let values = store.values
        let end = store.journalEnd
        let source = JournalStore<Value, ItemError>.CompactionSource(
            values: { values.values(after: $0) }, journalEnd: { end })
        let compaction = try store.beginCompaction(from: source)
        try #require(compaction != nil)
        if let compaction {
            try store.finishCompaction(compaction, result: await compaction.task.result)
        }
    }

    /// The newer build's values: 300 in the snapshot, then 10 of them saved again in records.
    func newerBuildSaves() throws {
        var newer = try journal(NewerBook.self)
        try newer.commit(
            .saved((1...300).map { NewerBook(id: $0, title: "Book \($0)", pages: $0, remark: "r") })
        )
        for id in 291...300 {
            try newer.commit(.saved([NewerBook(id: id, title: "Book \(id)", pages: id + 1000)]))
        }
        _ = newer.close()
    }

    @Test func anOlderBuildsCompactionKeepsANewerBuildsFieldsOfEveryValue() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try newerBuildSaves()

        var older = try journal(OlderBook.self)
        #expect(older.values.count == 300)
        // The newer build writes its renamed field under the former key too: the older build
        // reads it.
        #expect(older.values[7] == OlderBook(id: 7, title: "Book 7", note: "r"))
        try older.commit(.saved([OlderBook(id: 7, title: "Edited 7", note: "older's note")]))
        try older.commit(.saved([OlderBook(id: 400, title: "Older 400", note: "n")]))
        try older.commit(.deleted([8]))
        // Before any compaction: the older build's records keep the fields of what it saves.
        _ = older.close()
        var reopened = try journal(NewerBook.self)
        #expect(
            reopened.values[7]
                == NewerBook(id: 7, title: "Edited 7", pages: 7, remark: "older's note"))
        _ = reopened.close()

        older = try journal(OlderBook.self)
        try await compact(&older)
        _ = older.close()

        let newer = try journal(NewerBook.self)
        #expect(newer.values.count == 300)
        #expect(newer.values[1] == NewerBook(id: 1, title: "Book 1", pages: 1, remark: "r"))
        #expect(newer.values[300] == NewerBook(id: 300, title: "Book 300", pages: 1300))
        // The older build's edit of a field the newer one renamed is under the former key,
        // which differs from the newer key beside their mark: the newer build reads it.
        #expect(
            newer.values[7]
                == NewerBook(id: 7, title: "Edited 7", pages: 7, remark: "older's note"))
        #expect(newer.values[8] == nil)
        #expect(newer.values[400] == NewerBook(id: 400, title: "Older 400", remark: "n"))
        #expect(
            newer.values.items.filter { $0.id < 400 }.allSatisfy {
                $0.pages == ($0.id > 290 ? $0.id + 1000 : $0.id)
            })
    }

    @Test func aSnapshotHoldsTheKeysOfItsValuesOrNoneWhenANewerBuildsAreKept() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try newerBuildSaves()
        var newer = try journal(NewerBook.self)
        try await compact(&newer)
        _ = newer.close()
        let file = folder.appendingPathComponent("books.json")
        #expect(
            try String(decoding: Data(contentsOf: file), as: UTF8.self)
                .hasPrefix(
                    #"{"fields":["id","note","note>remark","pages","remark","title"],"generation":"#
                ))

        var older = try journal(OlderBook.self)
        try await compact(&older)
        _ = older.close()
        let written = try String(decoding: Data(contentsOf: file), as: UTF8.self)
        #expect(written.hasPrefix(#"{"generation":"#))
        #expect(
            written.contains(
                #"{"id":1,"note":"r","title":"Book 1","note>remark":true,"pages":1,"remark":"r"}"#))

        // An older build that knows every key writes them again.
        var other = try journal(NewerBook.self)
        try await compact(&other)
        _ = other.close()
        #expect(
            try String(decoding: Data(contentsOf: file), as: UTF8.self)
                .hasPrefix(
                    #"{"fields":["id","note","note>remark","pages","remark","title"],"generation":"#
                ))
    }

    @Test func anOlderBuildsSaveToASnapshotStoreKeepsANewerBuildsFields() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var newer = try snapshot(NewerBook.self)
        try newer.commit(
            .saved((1...50).map { NewerBook(id: $0, title: "Book \($0)", pages: $0, remark: "r") }))
        newer.close()

        var older = try snapshot(OlderBook.self)
        try older.commit(.saved([OlderBook(id: 51, title: "Older 51")]))
        try older.commit(.deleted([2]))
        older.close()
        // Twice: a file the older build wrote with the newer fields reads the same way.
        older = try snapshot(OlderBook.self)
        try older.commit(.saved([OlderBook(id: 52, title: "Older 52")]))
        older.close()

        let reopened = try snapshot(NewerBook.self)
        #expect(reopened.values.count == 51)
        #expect(reopened.values[1] == NewerBook(id: 1, title: "Book 1", pages: 1, remark: "r"))
        #expect(reopened.values[50] == NewerBook(id: 50, title: "Book 50", pages: 50, remark: "r"))
        #expect(reopened.values[2] == nil)
        #expect(reopened.values[52] == NewerBook(id: 52, title: "Older 52"))
    }

    @Test func anOlderBuildsRecoveryKeepsANewerBuildsFieldsOfTheValuesItKeeps() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try newerBuildSaves()
        // The snapshot's 100th value damaged beyond one bit: it is set aside, the rest kept.
        let file = folder.appendingPathComponent("books.json")
        var data = try Data(contentsOf: file)
        let target = try #require(data.range(of: Data(#""title":"Book 100""#.utf8)))
        data.replaceSubrange(target.lowerBound..<(target.lowerBound + 4), with: Data("XXXX".utf8))
        try data.write(to: file)

        let recovery = try JournalStore<OlderBook, ItemError>.recover(
            directory: folder, snapshot: "books.json", journal: "books.journal",
            lock: "books.lock")
        #expect(recovery.valuesKept == 299)

        let newer = try journal(NewerBook.self)
        #expect(newer.values[99] == NewerBook(id: 99, title: "Book 99", pages: 99, remark: "r"))
        #expect(newer.values[291] == NewerBook(id: 291, title: "Book 291", pages: 1291))
    }

    @Test func aMemberIsKeptWithoutTheSpacesOfAPrettyPrintedFile() throws {
        let pretty = Array(
            "{\n  \"id\" : 3,\n  \"tags\" : [\n    \"a b\",\n    \"c\"\n  ],\n  \"x\" : { \"y\" : 1 }\n}"
                .utf8)
        #expect(
            StoreFiles.JSONBytes.members(of: pretty[...], notIn: ["id"])?
                .map { String(decoding: $0, as: UTF8.self) } == [
                    #""tags":["a b","c"]"#, #""x":{"y":1}"#,
                ])
        #expect(
            String(
                decoding: StoreFiles.JSONBytes.object(
                    Data(#"{"id":3}"#.utf8), adding: [Data(#""x":1"#.utf8)]), as: UTF8.self)
                == #"{"id":3,"x":1}"#)
        // A key the value has itself (a field its known keys do not list) is never written
        // twice: the value's own is kept.
        #expect(
            String(
                decoding: StoreFiles.JSONBytes.object(
                    Data(#"{"id":3,"x":1}"#.utf8),
                    adding: [Data(#""x":2"#.utf8), Data(#""y":[3]"#.utf8)]), as: UTF8.self)
                == #"{"id":3,"x":1,"y":[3]}"#)
        #expect(
            String(
                decoding: StoreFiles.JSONBytes.object(
                    Data(#"{"id":3,"a\"b":1}"#.utf8),
                    adding: [Data(#""a\"b":2"#.utf8), Data(#""c\"d":[3]"#.utf8)]), as: UTF8.self)
                == #"{"id":3,"a\"b":1,"c\"d":[3]}"#)
    }

    @Test func theItemsAreFoundAfterTheKeysASnapshotListsAndWhatALaterReleaseAdds() {
        for head in [
            #"{"fields":["a]","b\"]"],"generation":2,"#,
            #"{"a":{"b":[1,"]}"]},"c":"d,e","f":null,"#,
        ] {
            let json = Array((head + #""items":[1],"schemaVersion":1}"#).utf8)
            let start = StoreFiles.JSONBytes.arrayStart(in: json, key: "items")
            #expect(start.map { json[$0] } == UInt8(ascii: "1"), "\(head)")
        }
        #expect(
            StoreFiles.JSONBytes.arrayStart(in: Array(#"{"a":[}],"items":[1]}"#.utf8), key: "items")
                == nil)
    }
}

/// A model with a field added to its type by hand, which its known keys do not list.
struct HandEdited: StoredValue {
    var id: Int
    var extra: String?

    static let schemaVersion = 1
    static let knownKeys: Set<String>? = ["id"]

    static func precedes(_ first: Int, _ second: Int) -> Bool { first < second }
}

@Suite struct KnownKeysTests {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("KnownKeysTests-\(UUID().uuidString)")

    func open() throws -> JournalStore<HandEdited, ItemError> {
        try JournalStore(
            directory: folder, snapshot: "values.json", journal: "values.journal",
            lock: "values.lock", compactionFloor: 1 << 20)
    }

    /// A key the model writes itself is never kept as a newer build's: set to nil (its key left
    /// out), the value it had would come back from the kept member.
    @Test func aKeyTheModelWritesItselfIsNeverKeptAsANewerBuilds() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = try open()
        try store.commit(.saved((1...3).map { HandEdited(id: $0) }))
        // A record, which opening reads key by key.
        try store.commit(.saved([HandEdited(id: 1, extra: "a")]))
        _ = store.close()
        store = try open()
        #expect(store.values.unknownMembers.isEmpty)
        try store.commit(.saved([HandEdited(id: 1, extra: nil)]))
        _ = store.close()

        store = try open()
        #expect(store.values[1] == HandEdited(id: 1, extra: nil))
    }

    /// A snapshot written before snapshots listed their keys is read key by key, left as it is
    /// by opening (an earlier release may still read it), and written again with its keys by a
    /// compaction, which the next save starts.
    @Test func aSnapshotWithoutItsKeysIsWrittenAgainWithThemByTheNextCompaction() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("values.json")
        let json = Data(#"{"generation":0,"items":[{"id":1},{"id":2}],"schemaVersion":1}"#.utf8)
        try StoreFiles.CRC32.sealed(json).write(to: file)

        var store = try open()
        #expect(!store.needsCompaction)
        _ = store.close()
        #expect(try Data(contentsOf: file) == StoreFiles.CRC32.sealed(json))

        store = try open()
        try store.commit(.saved([HandEdited(id: 3)]))
        #expect(store.needsCompaction)
        let values = store.values
        let source = JournalStore<HandEdited, ItemError>.CompactionSource(
            values: { values.values(after: $0) }, journalEnd: { nil })
        if let compaction = try store.beginCompaction(from: source) {
            try store.finishCompaction(compaction, result: await compaction.task.result)
        }
        _ = store.close()
        #expect(
            try String(decoding: Data(contentsOf: file), as: UTF8.self)
                .hasPrefix(#"{"fields":["id"],"generation":1,"items":[{"id":1},{"id":2},{"id":3}]"#)
        )
        store = try open()
        try store.commit(.saved([HandEdited(id: 4)]))
        #expect(!store.needsCompaction)
        _ = store.close()
    }

    /// A store that never writes never looks for a newer build's fields.
    @Test func aReaderKeepsNoUnknownMembers() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let json = Data(#"{"generation":0,"items":[{"id":1,"newer":2}],"schemaVersion":1}"#.utf8)
        try StoreFiles.CRC32.sealed(json).write(to: folder.appendingPathComponent("values.json"))

        let reader = try JournalStore<HandEdited, ItemError>(
            readingFrom: folder, snapshot: "values.json", journal: "values.journal")
        #expect(reader.values.count == 1 && reader.values.unknownMembers.isEmpty)
        var writer = try open()
        #expect(writer.values.unknownMembers.count == 1)
        _ = writer.close()
    }
}

/// `Item` as a build of schema version 1 declared it: an older build, beside one that migrated.
struct ItemAtVersion1: StoredValue {
    var id: Int
    var title: String
    var count: Int

    static let schemaVersion = 1
    static func precedes(_ first: Int, _ second: Int) -> Bool { first < second }
}

/// An older build's `recover` of a newer build's damaged store refuses, as its open does: it
/// would set every value it cannot read aside, and write an empty store in its place.
@Suite struct OlderBuildRecoveryTests {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("OlderBuildRecoveryTests-\(UUID().uuidString)")

    func flip(_ bytes: Range<Int>, of name: String) throws -> Data {
        let file = folder.appendingPathComponent(name)
        var data = try Data(contentsOf: file)
        for offset in bytes { data[offset] ^= 4 }
        try data.write(to: file)
        return data
    }

    func expectNewerSchema(_ recover: () throws -> StoreRecovery, file name: String) throws {
        let before = try Data(contentsOf: folder.appendingPathComponent(name))
        #expect(
            throws: ItemError.newerSchema(
                file: folder.appendingPathComponent(name), found: 2, supported: 1)
        ) {
            try recover()
        }
        #expect(try Data(contentsOf: folder.appendingPathComponent(name)) == before)
    }

    @Test(arguments: [3000..<3001, 3000..<3004])
    func ofTheJournalStoresSnapshot(damage: Range<Int>) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var newer = try JournalStore<Item, ItemError>(
            directory: folder, snapshot: "items.json", journal: "items.journal",
            lock: "items.lock", compactionFloor: 256)
        try newer.commit(.saved((1...200).map { Item(id: $0, title: "Item \($0)", count: 7) }))
        _ = newer.close()
        _ = try flip(damage, of: "items.json")

        try expectNewerSchema(
            {
                try JournalStore<ItemAtVersion1, ItemError>.recover(
                    directory: folder, snapshot: "items.json", journal: "items.journal",
                    lock: "items.lock")
            }, file: "items.json")
        let reopened = try JournalStore<Item, ItemError>.recover(
            directory: folder, snapshot: "items.json", journal: "items.journal",
            lock: "items.lock")
        #expect(reopened.valuesKept >= 199)
    }

    @Test func ofAJournalRecordWithOneBitDamaged() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var newer = try JournalStore<Item, ItemError>(
            directory: folder, snapshot: "items.json", journal: "items.journal",
            lock: "items.lock", compactionFloor: 1 << 20)
        try newer.commit(.saved((1...3).map { Item(id: $0, title: "Item \($0)", count: 7) }))
        try newer.commit(.saved([Item(id: 4, title: "Item 4", count: 7)]))
        _ = newer.close()
        // Only the record is left, so that nothing but it tells the version.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("items.json"))
        _ = try flip(20..<21, of: "items.journal")

        try expectNewerSchema(
            {
                try JournalStore<ItemAtVersion1, ItemError>.recover(
                    directory: folder, snapshot: "items.json", journal: "items.journal",
                    lock: "items.lock")
            }, file: "items.journal")
    }

    @Test(arguments: [3000..<3001, 3000..<3004])
    func ofTheSnapshotStoresFile(damage: Range<Int>) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var newer = try SnapshotStore<Item, ItemError>(
            directory: folder, file: "items.json", lock: "items.lock")
        try newer.commit(.saved((1...200).map { Item(id: $0, title: "Item \($0)", count: 7) }))
        newer.close()
        _ = try flip(damage, of: "items.json")

        try expectNewerSchema(
            {
                try SnapshotStore<ItemAtVersion1, ItemError>.recover(
                    directory: folder, file: "items.json", lock: "items.lock")
            }, file: "items.json")
    }
}
