import Foundation
import Testing

@testable import StoreEngine

/// Recovering a journal store that opening refuses as damaged: what the checksums still vouch
/// for is kept, the damaged files are copied aside as they were, and the store opens again.
@Suite struct JournalRecoveryTests {
    let folder: URL
    var journal: URL { folder.appendingPathComponent("items.journal") }
    var snapshot: URL { folder.appendingPathComponent("items.json") }

    init() {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("JournalRecoveryTests-\(UUID().uuidString)")
    }

    func open() throws -> JournalStore<Item, ItemError> {
        try JournalStore(
            directory: folder, snapshot: "items.json", journal: "items.journal",
            lock: "items.lock", compactionFloor: 1 << 20)
    }

    func recover() throws -> StoreRecovery {
        try JournalStore<Item, ItemError>.recover(
            directory: folder, snapshot: "items.json", journal: "items.journal",
            lock: "items.lock")
    }

    func item(_ number: Int, _ title: String? = nil) -> Item {
        Item(id: number, title: title ?? "Item \(number)", count: 7)
    }

    /// Replaces the first `old` in `file` with `new`, of the same length: a damaged byte.
    func damage(_ file: URL, replacing old: String, with new: String) throws -> Int {
        var data = try Data(contentsOf: file)
        let range = try #require(data.range(of: Data(old.utf8)))
        data.replaceSubrange(range, with: Data(new.utf8))
        try data.write(to: file)
        return range.lowerBound
    }

    /// The byte where the line holding `offset` starts.
    func lineStart(_ file: URL, holding offset: Int) throws -> Int {
        let data = try Data(contentsOf: file)
        return (data[..<offset].lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
    }

    /// Writes items 1 to 4 as a snapshot, then item 5, item 1 again and the deletion of item
    /// 2 as journal records.
    func writeStore() throws {
        var store = try open()
        // A batch as large as the store is written as a snapshot; the rest go to the journal.
        try store.commit(.saved((1...4).map { item($0) }))
        try store.commit(.saved([item(5)]))
        try store.commit(.saved([item(1, "Item 1 again")]))
        try store.commit(.deleted([2]))
        store.close()
    }

    /// Damage to more than one bit: read as it is, the record could delete or replace another
    /// value, so it is set aside.
    @Test func aRecordDamagedInMoreThanOneBitIsSetAsideAndEveryOtherValueOpensAgain() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeStore()
        let byte = try damage(journal, replacing: "Item 5", with: "Item #")
        let damaged = try Data(contentsOf: journal)
        #expect(throws: ItemError.self) { _ = try open() }

        let recovery = try recover()

        let record = try lineStart(journal.appendingPathExtension("damaged"), holding: byte)
        #expect(
            recovery.setAside == [
                StoreRecovery.Damage(file: journal, offset: record, reason: "wrong checksum")
            ])
        #expect(recovery.keptUnverified.isEmpty)
        #expect(recovery.copies == [journal.appendingPathExtension("damaged")])
        #expect(try Data(contentsOf: journal.appendingPathExtension("damaged")) == damaged)
        #expect(recovery.valuesKept == 3)
        let reopened = try open()
        #expect(reopened.values.items == [item(1, "Item 1 again"), item(3), item(4)])
    }

    /// One flipped bit, in the record's JSON, its checksum's digits or the space before them,
    /// is put back from the checksum: the record is kept as it was written.
    @Test func oneDamagedBitOfARecordIsPutBack() throws {
        for (old, new) in [
            ("Item 5", "Item 4"),  // A value's text.
            (#"{"delete":[2]"#, #"{"delete":[3]"#),  // A deletion's id: 3 is stored.
            (#""generation""#, #""generatioN""#),  // A key.
        ] {
            defer { try? FileManager.default.removeItem(at: folder) }
            try writeStore()
            let written = try Data(contentsOf: journal)
            let byte = try damage(journal, replacing: old, with: new)

            let recovery = try recover()

            #expect(recovery.setAside.isEmpty, "\(new)")
            #expect(
                recovery.repaired.map(\.offset)
                    == [try lineStart(journal.appendingPathExtension("damaged"), holding: byte)],
                "\(new)")
            #expect(
                try open().values.items == [item(1, "Item 1 again"), item(3), item(4), item(5)],
                "\(new)")
            // The checksum's digits and the space before them.
            for offset in [1, 9] {
                var data = written
                let newline = data.indices.filter { data[$0] == UInt8(ascii: "\n") }[1]
                data[newline - offset] ^= 0x04
                try data.write(to: journal)
                #expect(try recover().repaired.count == 1)
                #expect(
                    try open().values.items == [item(1, "Item 1 again"), item(3), item(4), item(5)])
            }
        }
    }

    /// A record's generation whose key is damaged in two bits would read as none, and the
    /// record be skipped unreported: it is set aside.
    @Test func aDamagedRecordWhoseGenerationDoesNotReadIsSetAside() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeStore()
        let byte = try damage(journal, replacing: "\"generation\"", with: "\"generatiON\"")

        let recovery = try recover()

        let record = try lineStart(journal.appendingPathExtension("damaged"), holding: byte)
        #expect(recovery.setAside.map(\.offset) == [record])
        #expect(try open().values.items == [item(1, "Item 1 again"), item(3), item(4)])
    }

    /// A damaged newline makes one line of two records: neither is taken for the other's, so
    /// the deletion in the second is not lost behind the first's values.
    @Test func twoRecordsOnOneDamagedLineAreBothSetAside() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeStore()
        var data = try Data(contentsOf: journal)
        let newlines = data.indices.filter { data[$0] == UInt8(ascii: "\n") }
        data[newlines[1]] = UInt8(ascii: "X")  // The end of item 1's record, before the delete.
        try data.write(to: journal)

        let recovery = try recover()

        #expect(recovery.setAside.map(\.offset) == [newlines[0] + 1])
        #expect(recovery.keptUnverified.isEmpty)
        #expect(try open().values.items == [item(1), item(2), item(3), item(4), item(5)])
    }

    /// One damaged bit in a batch costs nothing: the batch is put back whole (one damaged
    /// letter in a batch of 600 lost all 600 before).
    @Test func oneDamagedBitInABatchIsPutBackWhole() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = try open()
        try store.commit(.saved((1...700).map { item($0) }))
        try store.commit(.saved((1...600).map { item($0, "New \($0)") }))
        store.close()
        _ = try damage(journal, replacing: "\"title\":\"New 300\"", with: "\"tItle\":\"New 300\"")

        let recovery = try recover()

        #expect(recovery.setAside.isEmpty)
        #expect(recovery.repaired.count == 1)
        #expect(
            try open().values.items
                == (1...700).map { $0 <= 600 ? item($0, "New \($0)") : item($0) })
    }

    @Test func aRecordWhoseNewlineIsDamagedIsKeptAndTheJournalWrittenAgain() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = try open()
        try store.commit(.saved([item(1), item(2)]))
        try store.commit(.saved([item(3)]))
        store.close()
        var bytes = try Data(contentsOf: journal)
        bytes[bytes.count - 1] = UInt8(ascii: "x")
        try bytes.write(to: journal)
        #expect(throws: ItemError.self) { _ = try open() }

        let recovery = try recover()

        #expect(recovery.setAside.isEmpty)
        #expect(recovery.repaired.map(\.offset) == [0])
        #expect(recovery.copies == [journal.appendingPathExtension("damaged")])
        #expect(try open().values.items == [item(1), item(2), item(3)])
    }

    @Test func aSoundStoreIsLeftAsItIs() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = try open()
        try store.commit(.saved([item(1), item(2)]))
        try store.commit(.saved([item(3)]))
        store.close()
        let before = try [Data(contentsOf: snapshot), Data(contentsOf: journal)]

        let recovery = try recover()

        #expect(recovery.wasSound)
        #expect(recovery.valuesKept == 3)
        #expect(try [Data(contentsOf: snapshot), Data(contentsOf: journal)] == before)
    }

    @Test func aSnapshotWhoseChecksumFailsIsKeptAsReadWhenItStillDecodes() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = try open()
        try store.commit(.saved((1...5).map { item($0) }))
        try store.commit(.saved([item(6)]))
        store.close()
        _ = try damage(snapshot, replacing: "Item 4", with: "Item #")
        #expect(throws: ItemError.self) { _ = try open() }

        let recovery = try recover()

        #expect(recovery.setAside.isEmpty)
        #expect(recovery.keptUnverified == [snapshot])
        #expect(recovery.copies == [snapshot.appendingPathExtension("damaged")])
        let reopened = try open()
        #expect(reopened.values.items.map(\.id) == [1, 2, 3, 4, 5, 6])
        #expect(reopened.values.items[3].title == "Item #")
    }

    @Test func aSnapshotThatNoLongerDecodesIsSetAsideAndTheJournalsValuesOpen() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = try open()
        try store.commit(.saved((1...5).map { item($0) }))
        try store.commit(.saved([item(6)]))
        store.close()
        // A schema version newer than the model's: no value can be read as the version that
        // wrote it.
        _ = try damage(snapshot, replacing: "\"schemaVersion\":2}", with: "\"schemaVersion\":7}")

        let recovery = try recover()

        #expect(recovery.setAside.map(\.file) == [snapshot])
        #expect(recovery.setAside.map(\.offset) == [0])
        var reopened = try open()
        #expect(reopened.values.items == [item(6)])
        reopened.close()
        // A second recovery of the same folder finds it sound, and keeps the first copy.
        #expect(try recover().wasSound)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
                "items.journal", "items.json", "items.json.damaged", "items.lock",
            ])
    }

    /// One damaged byte in one value's bytes costs that value, not the snapshot's others.
    @Test func aSnapshotValueThatNoLongerDecodesIsSetAsideAndTheOthersKept() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = try open()
        try store.commit(.saved((1...600).map { item($0) }))
        try store.commit(.saved([item(601)]))
        store.close()
        let offset = try damage(
            snapshot, replacing: "\"title\":\"Item 300\"", with: "\"TItle\":\"Item 300\"")

        let recovery = try recover()

        let start = try #require(
            Data(contentsOf: snapshot.appendingPathExtension("damaged"))[..<offset]
                .lastIndex(of: UInt8(ascii: "{")))
        #expect(recovery.setAside.map(\.offset) == [start])
        #expect(recovery.keptUnverified == [snapshot])
        #expect(recovery.valuesKept == 600)
        #expect(try open().values.items == (1...601).filter { $0 != 300 }.map { item($0) })
    }

    /// A damaged `[` hides the first value's start: it is reported, and the rest are kept.
    @Test func aSnapshotWhoseArrayIsDamagedKeepsTheValuesAfterIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = try open()
        try store.commit(.saved((1...5).map { item($0) }))
        try store.commit(.saved([item(6)]))
        store.close()
        _ = try damage(snapshot, replacing: "\"items\":[", with: "\"items\":<")

        let recovery = try recover()

        #expect(recovery.setAside.map(\.offset) == [0])
        #expect(try open().values.items.map(\.id) == [2, 3, 4, 5, 6])
    }

    @Test func aSnapshotWhoseChecksumLineIsDamagedIsKeptAsRead() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = try open()
        try store.commit(.saved((1...5).map { item($0) }))
        store.close()
        _ = try damage(snapshot, replacing: "\ncrc32 ", with: "\ncrd32 ")
        #expect(throws: ItemError.self) { _ = try open() }

        let recovery = try recover()

        #expect(recovery.keptUnverified == [snapshot])
        #expect(try open().values.items.map(\.id) == [1, 2, 3, 4, 5])
    }

    /// The generation is in the bytes the failed checksum covers: every record is replayed
    /// over the snapshot, so a damaged one cannot make the records after it look older.
    @Test func aDamagedGenerationInTheSnapshotSkipsNoRecord() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = try open()
        try store.commit(.saved((1...5).map { item($0) }))
        try store.commit(.saved([item(6)]))
        try store.commit(.deleted([1]))
        store.close()
        _ = try damage(snapshot, replacing: "{\"generation\":1,", with: "{\"generation\":7,")

        let recovery = try recover()

        #expect(recovery.keptUnverified == [snapshot])
        #expect(try open().values.items.map(\.id) == [2, 3, 4, 5, 6])
    }

    @Test func anOpenStoreIsNotRecoveredUnderIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try open()
        #expect(throws: ItemError.locked(file: folder.appendingPathComponent("items.lock"))) {
            _ = try recover()
        }
        _ = store
    }
}

/// Recovering a snapshot store that opening refuses as damaged: its one checksum covers the
/// whole file, so what still decodes is kept as read, and the file is copied aside first.
@Suite struct SnapshotRecoveryTests {
    let folder: URL
    var file: URL { folder.appendingPathComponent("items.json") }
    var copy: URL { file.appendingPathExtension("damaged") }

    init() {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("SnapshotRecoveryTests-\(UUID().uuidString)")
    }

    func open() throws -> SnapshotStore<Item, ItemError> {
        try SnapshotStore(directory: folder, file: "items.json", lock: "items.lock")
    }

    func recover() throws -> StoreRecovery {
        try SnapshotStore<Item, ItemError>.recover(
            directory: folder, file: "items.json", lock: "items.lock")
    }

    func item(_ number: Int) -> Item { Item(id: number, title: "Item \(number)", count: 7) }

    /// Writes items 1 to 3, then replaces `old` in the file with `new`, of the same length.
    func storeDamaged(replacing old: String, with new: String) throws -> Data {
        var store = try open()
        try store.commit(.saved((1...3).map(item)))
        store.close()
        var data = try Data(contentsOf: file)
        let range = try #require(data.range(of: Data(old.utf8)))
        data.replaceSubrange(range, with: Data(new.utf8))
        try data.write(to: file)
        #expect(throws: ItemError.self) { _ = try open() }
        return data
    }

    @Test func aFileThatStillDecodesIsKeptAsReadAndCopiedAsItWas() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let damaged = try storeDamaged(replacing: "Item 2", with: "Item #")

        let recovery = try recover()

        #expect(recovery.keptUnverified == [file])
        #expect(recovery.setAside.isEmpty)
        #expect(recovery.copies == [copy])
        #expect(try Data(contentsOf: copy) == damaged)
        #expect(try open().values.items.map(\.title) == ["Item 1", "Item #", "Item 3"])
        #expect(try recover().wasSound)
    }

    @Test func aFileWhoseChecksumLineIsDamagedIsKeptAsRead() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try storeDamaged(replacing: "\ncrc32 ", with: "\nc#c32 ")

        #expect(try recover().keptUnverified == [file])
        #expect(try open().values.items.map(\.id) == [1, 2, 3])
    }

    /// A file from before checksums that does not fit the model is not damage: recovering
    /// throws as opening does and leaves it as it is.
    @Test func anIntactFileFromBeforeChecksumsThatDoesNotFitIsLeftAsItIs() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let old = Data(#"{"items":[{"count":7,"id":1,"title":5}],"schemaVersion":1}"#.utf8)
        try old.write(to: file)

        #expect(throws: ItemError.self) { _ = try recover() }

        #expect(try Data(contentsOf: file) == old)
        #expect(!FileManager.default.fileExists(atPath: copy.path))
    }

    @Test func aFileThatNoLongerDecodesIsSetAsideAndTheStoreOpensEmpty() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let damaged = try storeDamaged(
            replacing: "\"schemaVersion\" : 2", with: "\"schemaVersion\" : 7")

        let recovery = try recover()

        #expect(recovery.setAside.map(\.file) == [file])
        #expect(recovery.valuesKept == 0)
        #expect(try Data(contentsOf: copy) == damaged)
        #expect(try open().values.items.isEmpty)
    }

    @Test func aValueThatNoLongerDecodesIsSetAsideAndTheOthersKept() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let damaged = try storeDamaged(replacing: "\"id\" : 2", with: "\"id\" : X")

        let recovery = try recover()

        #expect(recovery.setAside.count == 1)
        #expect(recovery.keptUnverified == [file])
        #expect(try Data(contentsOf: copy) == damaged)
        #expect(try open().values.items == [item(1), item(3)])
    }
}
