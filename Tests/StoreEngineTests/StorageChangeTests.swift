import Foundation
import Testing

@testable import StoreEngine

/// A model moved to another storage keeps its values: the new store imports what the former
/// one left in the folder, once, and a crash at any step leaves a state the next open finishes.
@Suite struct StorageChangeTests {
    let folder: URL
    let journalFiles = ["items.snapshot.json", "items.journal"]

    init() {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("StorageChangeTests-\(UUID().uuidString)")
    }

    func item(_ number: Int) -> Item { Item(id: number, title: "Item \(number)", count: 7) }

    func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path)
    }

    /// A journal store with items 1...5 saved, item 2 deleted and item 3 changed, in its journal
    /// (no compaction), closed.
    func writeJournalStore() throws {
        var store = try JournalStore<Item, ItemError>(
            directory: folder, snapshot: journalFiles[0], journal: journalFiles[1],
            lock: "items.lock", compactionFloor: 256)
        try store.commit(.saved((1...5).map(item)))
        try store.commit(.deleted([2]))
        try store.commit(.saved([Item(id: 3, title: "changed", count: 1)]))
        _ = store.close()
    }

    func table() throws -> SQLiteTable<Item, ItemError> {
        try SQLiteTable(
            "items", in: SQLiteDatabase<ItemError>(file: folder.appendingPathComponent("S.sqlite")))
    }

    /// The values of the journal store files `names` (its snapshot, then its journal).
    func readJournal(_ names: [String]) throws -> [Item] {
        try JournalStore<Item, ItemError>.storedValues(
            in: folder, snapshot: names[0], journal: names[1])
    }

    /// Imports the journal store's files into `table`, as a sqlite repository's open does.
    @discardableResult
    func importJournal(into table: SQLiteTable<Item, ItemError>) throws -> Bool {
        try JournalStore<Item, ItemError>.importStore(
            snapshot: journalFiles[0], journal: journalFiles[1], in: folder, lock: "items.lock",
            into: table.importValues)
    }

    @Test func aJournalStoresValuesMoveIntoATableOnceAndItsFilesAreKept() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeJournalStore()
        let items = try table()

        #expect(try importJournal(into: items))

        #expect(try items.page(after: nil, limit: 10).map(\.id) == [1, 3, 4, 5])
        #expect(try items.find(3)?.title == "changed")
        #expect(!exists("items.journal") && exists("items.journal.imported"))
        #expect(!exists("items.journal.importing"))
        // The next open finds nothing to import, and a save after it stays.
        try items.database.transaction { try items.delete([4]) }
        #expect(try !importJournal(into: items))
        #expect(try items.find(4) == nil)
    }

    /// An empty journal that an older build's open made after the import is imported (nothing)
    /// and removed, never renamed over the copy the first import kept.
    @Test func anEmptyFileNeverReplacesTheCopyAnImportKept() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeJournalStore()
        let items = try table()
        #expect(try importJournal(into: items))
        let kept = try Data(contentsOf: folder.appendingPathComponent("items.journal.imported"))
        #expect(!kept.isEmpty)

        try Data().write(to: folder.appendingPathComponent("items.journal"))
        #expect(try importJournal(into: items))

        #expect(
            try Data(contentsOf: folder.appendingPathComponent("items.journal.imported")) == kept)
        #expect(!exists("items.journal") && !exists("items.journal.importing"))
        #expect(try items.page(after: nil, limit: 10).map(\.id) == [1, 3, 4, 5])
    }

    /// An older build that still reads the journal storage after a newer one moved the model
    /// to a table is refused, rather than shown an empty store: its files are there only as
    /// `.imported` (or `.importing`, an import under way). A store that has its own files again
    /// opens, whatever copies are kept beside them.
    @Test func anOlderBuildIsRefusedTheFilesANewerBuildMovedAway() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let check = {
            try StoreFiles.checkNotMovedAway(
                self.journalFiles, in: self.folder, reporting: ItemError.self)
        }
        try check()
        try writeJournalStore()
        #expect(try importJournal(into: table()))

        let error = #expect(throws: ItemError.self) { try check() }
        guard case .unreadable(let file, let reason)? = error else {
            Issue.record("expected unreadable, got \(String(describing: error))")
            return
        }
        #expect(file.lastPathComponent == "items.snapshot.json.imported")
        #expect(reason.contains("update it"))
        for name in journalFiles where exists(name + ".imported") {
            try FileManager.default.moveItem(
                at: folder.appendingPathComponent(name + ".imported"),
                to: folder.appendingPathComponent(name + ".importing"))
        }
        #expect(throws: ItemError.self) { try check() }

        // The journal store opens with an empty journal: still nothing of its own.
        try Data().write(to: folder.appendingPathComponent("items.journal"))
        #expect(throws: ItemError.self) { try check() }
        // An import under way, or stopped by a crash, beside a file it has not moved yet.
        try Data("{}\n".utf8).write(to: folder.appendingPathComponent("items.journal"))
        #expect(throws: ItemError.self) { try check() }
        // The store has its own values again: the copies kept beside them stop nothing.
        for name in journalFiles where exists(name + ".importing") {
            try FileManager.default.moveItem(
                at: folder.appendingPathComponent(name + ".importing"),
                to: folder.appendingPathComponent(name + ".imported"))
        }
        try check()
        // Once the store holds the lock, the empty journal its open made goes with a refusal.
        try Data().write(to: folder.appendingPathComponent("items.journal"))
        #expect(throws: ItemError.self) {
            try StoreFiles.checkNotMovedAway(
                journalFiles, in: folder, removingEmpty: true, reporting: ItemError.self)
        }
        #expect(!exists("items.journal"))
    }

    /// A `StoreTransaction` opens a model's table without its repository, so without the
    /// import: it is refused while the former store's files wait, under either name.
    @Test func aTableOpenedBeforeItsImportIsRefusedUntilTheFilesAreImported() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeJournalStore()
        let check = {
            try StoreFiles.checkImported(
                journalFiles, in: folder, repository: "ItemRepository", reporting: ItemError.self)
        }
        let refusal = { (file: String) in
            { (error: any Error) -> Bool in
                guard case ItemError.unreadable(let url, let reason) = error else { return false }
                return url.lastPathComponent == file
                    && reason.contains("ItemRepository(directory:)")
            }
        }
        #expect(throws: Never.self) {
            try StoreFiles.checkImported(
                journalFiles, in: folder.appendingPathComponent("elsewhere"),
                repository: "ItemRepository", reporting: ItemError.self)
        }
        #expect(performing: check, throws: refusal("items.snapshot.json"))
        try FileManager.default.moveItem(
            at: folder.appendingPathComponent("items.snapshot.json"),
            to: folder.appendingPathComponent("items.snapshot.json.importing"))
        #expect(performing: check, throws: refusal("items.journal"))

        try FileManager.default.moveItem(
            at: folder.appendingPathComponent("items.snapshot.json.importing"),
            to: folder.appendingPathComponent("items.snapshot.json"))
        #expect(try importJournal(into: table()))
        #expect(throws: Never.self) { try check() }
    }

    @Test func aCrashAfterTheRenameOrAfterTheCommitIsFinishedByTheNextOpen() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeJournalStore()
        let items = try table()
        struct Crash: Error {}
        // A crash before the save: the files are renamed, nothing is in the table.
        #expect(throws: Crash.self) {
            try StoreFiles.importFormerStore(
                files: journalFiles, in: folder, lock: "items.lock", reporting: ItemError.self,
                read: { _ -> [Item] in throw Crash() }, save: items.importValues)
        }
        #expect(exists("items.journal.importing") && !exists("items.journal"))
        #expect(try items.count() == 0)
        // A crash after the commit, before the files were moved to .imported.
        #expect(throws: Crash.self) {
            try StoreFiles.importFormerStore(
                files: journalFiles, in: folder, lock: "items.lock", reporting: ItemError.self,
                read: readJournal,
                save: { values in
                    try items.importValues(values)
                    throw Crash()
                })
        }
        #expect(try items.count() == 4)

        #expect(try importJournal(into: items))

        #expect(try items.page(after: nil, limit: 10).map(\.id) == [1, 3, 4, 5])
        #expect(exists("items.journal.imported") && !exists("items.journal.importing"))
    }

    /// The import's record says how far it came: `total` values, `done` of them written, the
    /// last with the key `last`; values 1 and 2 are in the table (titled "done").
    func recordImport(
        of total: Int, done: Int, last: Int, in items: SQLiteTable<Item, ItemError>
    ) throws {
        try items.database.transaction {
            try items.save(
                [Item(id: 1, title: "done", count: 0), Item(id: 2, title: "done", count: 0)])
            try items.database.run(
                "INSERT OR REPLACE INTO store_imports VALUES ('items', ?, ?, ?)",
                bind: { statement in
                    statement.bind(Int64(total), at: 1)
                    statement.bind(Int64(done), at: 2)
                    statement.bind(Int64(last), at: 3)
                }, row: { _ in })
        }
    }

    func importRecords(in items: SQLiteTable<Item, ItemError>) throws -> Int {
        var count = 0
        try items.database.run("SELECT count(*) FROM store_imports") {
            count = Int($0.int64(at: 0))
        }
        return count
    }

    @Test func anImportStoppedOnTheWayGoesOnFromWhereItCameAndRemovesItsRecord() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let items = try table()
        // The order the values come in does not matter: they go in key order.
        let values = [5, 3, 1, 4, 2].map(item)
        try items.importValues([], chunk: 2)  // Creates store_imports.
        try recordImport(of: 5, done: 2, last: 2, in: items)

        try items.importValues(values, chunk: 2)

        #expect(
            try items.page(after: nil, limit: 10).map(\.title) == [
                "done", "done", "Item 3", "Item 4", "Item 5",
            ])
        #expect(try importRecords(in: items) == 0)
    }

    /// A record of another set of values, or of another order, is not trusted.
    @Test(arguments: [(9, 2, 2), (5, 2, 3), (5, 7, 2), (5, 0, 0)])
    func anImportWhoseRecordDoesNotFitStartsOver(total: Int, done: Int, last: Int) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let items = try table()
        try items.importValues([], chunk: 2)
        try recordImport(of: total, done: done, last: last, in: items)

        try items.importValues((1...5).map(item), chunk: 2)

        #expect(try items.page(after: nil, limit: 10).map(\.title) == (1...5).map { "Item \($0)" })
        #expect(try importRecords(in: items) == 0)
    }

    /// A record whose total reads 0 (its byte damaged), met by an import of no values (former
    /// files that read empty) is not trusted either: the import ends, with no trap (found by a
    /// review: a range `1...0` trapped).
    @Test func anEmptyImportBesideARecordOfNoValuesEnds() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let items = try table()
        try items.importValues([], chunk: 2)
        try recordImport(of: 0, done: 0, last: 0, in: items)

        try items.importValues([], chunk: 2)

        // The two values written beside the record stay: an import never deletes.
        #expect(try items.count() == 2)
        #expect(try importRecords(in: items) == 0)
    }

    @Test func anImportThatFailsOnTheWayKeepsWhatItCommittedAndGoesOnFromThere() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let entries = try SQLiteTable<Entry, ItemError>(
            "entries",
            in: SQLiteDatabase<ItemError>(file: folder.appendingPathComponent("S.sqlite")))
        let ids = (1...5).map { UUID(uuidString: "0000000\($0)-0000-0000-0000-000000000000")! }
        var values = ids.reversed().map {
            Entry(id: $0, title: "", score: 1, rank: 0, done: false, mood: .calm, note: nil)
        }
        // The fourth in key order cannot be written (JSON has no NaN): the second transaction
        // fails, as an import stopped by a crash would, after the first committed.
        values[1].score = .nan

        #expect(throws: ItemError.self) { try entries.importValues(values, chunk: 2) }

        #expect(try entries.page(after: nil, limit: 10).map(\.id) == Array(ids[0..<2]))
        var record: [Int64] = []
        try entries.database.run("SELECT total, done FROM store_imports") {
            record = [$0.int64(at: 0), $0.int64(at: 1)]
        }
        #expect(record == [5, 2])
        values[1].score = 2

        try entries.importValues(values, chunk: 2)

        #expect(try entries.page(after: nil, limit: 10).map(\.id) == ids)
        #expect(try entries.find(ids[3])?.score == 2)
        record = []
        try entries.database.run("SELECT total, done FROM store_imports") {
            record = [$0.int64(at: 0), $0.int64(at: 1)]
        }
        #expect(record.isEmpty)
        // Another process's changes() learns that any value may have changed.
        var logged: [String] = []
        try entries.database.run("SELECT keys FROM \(SQLiteChangeLog.table)") {
            logged.append($0.text(at: 0))
        }
        #expect(logged == ["null"])
        #expect((try? JSONDecoder().decode([UUID].self, from: Data("null".utf8))) == nil)
    }

    @Test func aDamagedFormerFileStopsTheOpenAndStaysAsItWas() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeJournalStore()
        // A title in the middle of whichever file holds it: damage, not a torn end.
        let name = try #require(
            journalFiles.first { name in
                let bytes = try? Data(contentsOf: folder.appendingPathComponent(name))
                return bytes?.firstRange(of: Data("Item 1".utf8)) != nil
            })
        let file = folder.appendingPathComponent(name)
        var bytes = try Data(contentsOf: file)
        let title = try #require(bytes.firstRange(of: Data("Item 1".utf8)))
        bytes[title.lowerBound] = UInt8(ascii: "J")
        try bytes.write(to: file)
        let items = try table()

        #expect(throws: ItemError.self) { try importJournal(into: items) }

        #expect(try items.count() == 0)
        #expect(
            try Data(contentsOf: folder.appendingPathComponent(name + ".importing")) == bytes)
    }

    /// Flips the first byte of `text` in whichever of `names` holds it; returns that file's name.
    @discardableResult
    func damage(_ text: String, in names: [String]) throws -> String {
        let name = try #require(
            names.first { name in
                let bytes = try? Data(contentsOf: folder.appendingPathComponent(name))
                return bytes?.firstRange(of: Data(text.utf8)) != nil
            })
        let file = folder.appendingPathComponent(name)
        var bytes = try Data(contentsOf: file)
        let range = try #require(bytes.firstRange(of: Data(text.utf8)))
        bytes[range.lowerBound] ^= 0x01
        try bytes.write(to: file)
        return name
    }

    @Test func aDamagedFormerFileIsRecoveredUnderItsImportingNameAndTheImportTakesTheRest() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeJournalStore()
        // The last record, which changed item 3: damage the next import would stop at.
        let name = try damage("changed", in: journalFiles)
        let items = try table()
        #expect(throws: ItemError.self) { try importJournal(into: items) }

        let recovery = try #require(
            try JournalStore<Item, ItemError>.recoverImport(
                snapshot: journalFiles[0], journal: journalFiles[1], in: folder,
                lock: "items.lock"))

        let importing = folder.appendingPathComponent(name + ".importing")
        // One damaged bit: put back from the record's checksum.
        #expect(recovery.repaired.map(\.file) == [importing])
        #expect(recovery.copies == [importing.appendingPathExtension("damaged")])
        #expect(recovery.valuesKept == 4)
        #expect(try importJournal(into: items))
        // Every value moved in, as it was written.
        #expect(
            try items.page(after: nil, limit: 10)
                == [item(1), Item(id: 3, title: "changed", count: 1), item(4), item(5)])
    }

    @Test func aFormerFileNotYetMovedIsRecoveredAsTheImportWouldMoveIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var former = try SnapshotStore<Item, ItemError>(
            directory: folder, file: "items.json", lock: "items.lock")
        try former.commit(.saved((1...3).map(item)))
        former.close()
        try damage("Item 2", in: ["items.json"])

        let recovery = try #require(
            try SnapshotStore<Item, ItemError>.recoverImport(
                file: "items.json", in: folder, lock: "items.lock"))

        // One bit of a title's letter: put back from the file's checksum.
        #expect(
            recovery.repaired.map(\.file) == [folder.appendingPathComponent("items.json.importing")]
        )
        #expect(!exists("items.json") && exists("items.json.importing.damaged"))
        let items = try table()
        #expect(
            try SnapshotStore<Item, ItemError>.importStore(
                file: "items.json", in: folder, lock: "items.lock", into: items.importValues))
        #expect(try items.page(after: nil, limit: 10) == (1...3).map(item))
    }

    @Test func withNothingToImportRecoveringTouchesNothing() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeJournalStore()
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()

        let recovery = try JournalStore<Item, ItemError>.recoverImport(
            snapshot: journalFiles[0], journal: journalFiles[1], in: folder, lock: "items.lock",
            leftoversOnly: true)

        #expect(recovery == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before)
    }

    @Test func recoveringAFormerStoreDoesNotWaitForAnotherRepositorysLock() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeJournalStore()
        let other = try StoreFiles.Lock(
            folder.appendingPathComponent("items.lock"), reporting: ItemError.self)
        defer { other.release() }

        #expect(throws: ItemError.locked(file: folder.appendingPathComponent("items.lock"))) {
            try JournalStore<Item, ItemError>.recoverImport(
                snapshot: journalFiles[0], journal: journalFiles[1], in: folder,
                lock: "items.lock")
        }
        #expect(exists(journalFiles[0]) && exists(journalFiles[1]))
    }

    @Test func anImportWaitsWhileAnotherRepositoryHoldsTheLock() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeJournalStore()
        let items = try table()
        let other = try StoreFiles.Lock(
            folder.appendingPathComponent("items.lock"), reporting: ItemError.self)
        let released = Flag()
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.2)
            released.set()
            other.release()
        }

        #expect(try importJournal(into: items))

        #expect(released.isSet, "the import went ahead while another one held the lock")
        #expect(try items.count() == 4)
    }

    /// A repository of the former storage still open (an older build of the app, or of its
    /// extension) holds the folder's lock with no import under way: the open throws `locked`
    /// after a while (it hung until that repository closed), and the former files stay.
    @Test func anImportDoesNotWaitForTheFormerStoragesRepositoryToClose() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeJournalStore()
        let items = try table()
        let former = try StoreFiles.Lock(
            folder.appendingPathComponent("items.lock"), reporting: ItemError.self)
        defer { former.release() }
        let start = ContinuousClock.now

        #expect(throws: ItemError.locked(file: folder.appendingPathComponent("items.lock"))) {
            try importJournal(into: items)
        }

        #expect(ContinuousClock.now - start >= StoreFiles.lockPatience)
        #expect(exists(journalFiles[0]) && exists(journalFiles[1]))
        #expect(try items.count() == 0)
    }

    /// Another open's import (its files renamed to `.importing`) is waited for past the
    /// patience given to a former storage's repository, to its end: one that keeps its files as
    /// `.imported` and holds the lock a moment longer, to sync the folder, leaves nothing to
    /// import; one still holding `.importing` files when it lets go leaves them to this one.
    @Test(arguments: [false, true])
    func anImportWaitsForAnotherImportToItsEnd(endsBeforeLettingGo: Bool) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeJournalStore()
        let items = try table()
        let other = try StoreFiles.Lock(
            folder.appendingPathComponent("items.lock"), reporting: ItemError.self)
        let manager = FileManager.default
        for name in journalFiles {
            try manager.moveItem(
                at: folder.appendingPathComponent(name),
                to: folder.appendingPathComponent(name + StoreFiles.importingSuffix))
        }
        let released = Flag()
        let folder = folder
        let names = journalFiles
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 5.2)
            for name in names where endsBeforeLettingGo {
                try? manager.moveItem(
                    at: folder.appendingPathComponent(name + StoreFiles.importingSuffix),
                    to: folder.appendingPathComponent(name + ".imported"))
            }
            Thread.sleep(forTimeInterval: 0.3)
            released.set()
            other.release()
        }

        #expect(try importJournal(into: items) == !endsBeforeLettingGo)

        #expect(released.isSet, "the import went ahead while another one held the lock")
        #expect(try items.count() == (endsBeforeLettingGo ? 0 : 4))
    }

    @Test func onItsOwnNamesAStoreImportsOnlyWhatAnImportLeftHalfMoved() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try writeJournalStore()
        let manager = FileManager.default
        // A crash moved the snapshot aside for another storage, and not yet the journal whose
        // records go with it.
        try manager.moveItem(
            at: folder.appendingPathComponent(journalFiles[0]),
            to: folder.appendingPathComponent(journalFiles[0] + ".importing"))
        try StoreFiles.finishHalfMove(
            journalFiles, in: folder, lock: "items.lock", reporting: ItemError.self)
        #expect(exists(journalFiles[1] + ".importing") && !exists(journalFiles[1]))
        var store = try JournalStore<Item, ItemError>(
            directory: folder, snapshot: journalFiles[0], journal: journalFiles[1],
            lock: "items.lock", compactionFloor: 256)
        let leftovers = { (store: inout JournalStore<Item, ItemError>) in
            try JournalStore<Item, ItemError>.importStore(
                snapshot: journalFiles[0], journal: journalFiles[1], in: folder, lock: nil,
                leftoversOnly: true, into: { try store.commit(.saved($0)) })
        }

        #expect(try leftovers(&store))

        #expect(store.values.items.map(\.id) == [1, 3, 4, 5])
        #expect(exists(journalFiles[0] + ".imported") && exists(journalFiles[1] + ".imported"))
        // Its own files are never moved once it is open: the next open finds nothing to import.
        _ = store.close()
        try StoreFiles.finishHalfMove(
            journalFiles, in: folder, lock: "items.lock", reporting: ItemError.self)
        store = try JournalStore<Item, ItemError>(
            directory: folder, snapshot: journalFiles[0], journal: journalFiles[1],
            lock: "items.lock", compactionFloor: 256)
        #expect(try !leftovers(&store))
        #expect(store.values.items.map(\.id) == [1, 3, 4, 5])
    }

    @Test func aSnapshotStoresFileMovesIntoAJournalStoreThatHoldsTheSameLock() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var former = try SnapshotStore<Item, ItemError>(
            directory: folder, file: "items.json", lock: "items.lock")
        try former.commit(.saved((1...3).map(item)))
        former.close()
        var store = try JournalStore<Item, ItemError>(
            directory: folder, snapshot: journalFiles[0], journal: journalFiles[1],
            lock: "items.lock", compactionFloor: 256)

        let imported = try SnapshotStore<Item, ItemError>.importStore(
            file: "items.json", in: folder, lock: nil, into: { try store.commit(.saved($0)) })

        #expect(imported)
        #expect(store.values.items.map(\.id) == [1, 2, 3])
        #expect(exists("items.json.imported") && !exists("items.json"))
        _ = store.close()
        let reopened = try JournalStore<Item, ItemError>(
            readingFrom: folder, snapshot: journalFiles[0], journal: journalFiles[1])
        #expect(reopened.values.items.map(\.id) == [1, 2, 3])
    }
}

/// A flag one thread sets and another reads.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }

    var isSet: Bool { lock.withLock { value } }
}
