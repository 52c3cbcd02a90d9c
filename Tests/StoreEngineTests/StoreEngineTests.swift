import Foundation
import Testing

@testable import StoreEngine

/// A model as a generated one declares it, for the engine alone.
struct Item: StoredValue {
    var id: Int
    var title: String
    var count: Int64

    static let schemaVersion = 2

    static func precedes(_ first: Int, _ second: Int) -> Bool { first < second }

    /// Version 1 stored `count` as an Int; its migration converts it.
    static func decodeStored(_ version: Int, from decoder: any Decoder) throws -> [Item] {
        switch version {
        case 1: try [V1](from: decoder).migrated()
        default: try [Item](from: decoder)
        }
    }

    struct V1: Codable, Sendable, Hashable, FrozenVersion {
        var id: Int
        var title: String
        var count: Int

        /// A migration written before migrations could throw: it still chains.
        func migrated() -> Item { Item(id: id, title: title, count: Int64(count)) }
    }
}

/// A model whose migration has a value nobody has decided yet.
struct Undecided: StoredValue {
    var id: Int
    var count: Int64

    static let schemaVersion = 2

    static func precedes(_ first: Int, _ second: Int) -> Bool { first < second }

    static func decodeStored(_ version: Int, from decoder: any Decoder) throws -> [Undecided] {
        switch version {
        case 1: try [V1](from: decoder).migrated()
        default: try [Undecided](from: decoder)
        }
    }

    struct V1: Codable, Sendable, Hashable, FrozenVersion {
        var id: Int
        var count: String

        func migrated() throws -> Undecided { Undecided(id: id, count: try undecided("count")) }
    }
}

/// A repository's error enum, as a generated one declares it: the conformance to the engine's
/// `nonisolated` protocol in a `nonisolated` extension. (Declared on the enum itself, the
/// compiler can report "'nonisolated' modifier cannot be applied" on the cases that witness its
/// requirements, depending on how it splits the module's files into jobs.)
enum ItemError: Error, Equatable {
    case unreadable(file: URL, reason: String)
    case unwritable(file: URL, reason: String)
    case locked(file: URL)
    case corrupt(file: URL, offset: Int, reason: String)
    case incompatible(file: URL, reason: String)
    case newerSchema(file: URL, found: Int, supported: Int)
    case notMigrated(file: URL, field: String, migration: String, reason: String)
    case notUnique(field: String, value: String)
    case missingReference(field: String, id: String)
    case stillReferenced(by: String, count: Int)
    case closed
    case suspended
}

nonisolated extension ItemError: SQLiteFailure {}

@Suite struct StoreEngineTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("StoreEngineTests-\(UUID().uuidString)")
    }

    func open() throws -> JournalStore<Item, ItemError> {
        try JournalStore(
            directory: folder, snapshot: "items.json", journal: "items.journal",
            lock: "items.lock", compactionFloor: 256)
    }

    func item(_ number: Int) -> Item { Item(id: number, title: "Item \(number)", count: 7) }

    /// Commits `change`, then compacts when the journal asks for it, as a journal repository
    /// does: the compaction's task writes the snapshot, and its result is put in place.
    func commit(_ change: StoreChange<Item>, to store: inout JournalStore<Item, ItemError>)
        async throws
    {
        try store.commit(change)
        if store.needsCompaction,
            let compaction = try store.beginCompaction(
                from: Self.reading(store.values, journalEnd: store.journalEnd))
        {
            try store.finishCompaction(compaction, result: await compaction.task.result)
        }
    }

    /// What a journal repository hands a compaction to read its values with: here, the values
    /// as they are now, whatever the store does meanwhile, and the journal's end as `gate`
    /// tells it, or `journalEnd` (nil: the journal is not copied, and stays whole).
    static func reading(
        _ values: StoredValues<Item>, after gate: Gate? = nil, journalEnd: Int? = nil
    ) -> JournalStore<Item, ItemError>.CompactionSource {
        JournalStore.CompactionSource(
            values: { last in
                await gate?.wait()
                return values.values(after: last)
            },
            journalEnd: { await gate?.journalEnd ?? journalEnd })
    }

    /// Holds a compaction's task back until the test has made its changes, and then tells it
    /// where the journal's records end.
    actor Gate {
        private var waiting: [CheckedContinuation<Void, Never>] = []
        private(set) var journalEnd: Int?

        func wait() async {
            if journalEnd == nil { await withCheckedContinuation { waiting.append($0) } }
        }

        /// Returns once a compaction waits here: past its checks for cancellation, it can only
        /// end once the gate opens.
        func untilWaitedOn() async {
            for _ in 0..<5_000 where waiting.isEmpty {
                try? await _Concurrency.Task.sleep(nanoseconds: 1_000_000)
            }
        }

        func open(journalEnd: Int) {
            self.journalEnd = journalEnd
            for call in waiting { call.resume() }
            waiting = []
        }
    }

    /// The lines of the journal: one per record.
    func journalLines() throws -> [Substring] {
        let text = try String(
            contentsOf: folder.appendingPathComponent("items.journal"), encoding: .utf8)
        return text.split(separator: "\n")
    }

    /// The snapshot's bytes as encoding the whole file at once gives them.
    func wholeSnapshot(of items: [Item], generation: Int) throws -> Data {
        struct Whole: Encodable {
            let generation: Int
            let items: [Item]
            let schemaVersion: Int
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return StoreFiles.CRC32.sealed(
            try encoder.encode(
                Whole(generation: generation, items: items, schemaVersion: Item.schemaVersion)))
    }

    @Test func valuesStayInIDOrderWhateverTheOrderOfTheChanges() {
        var values = StoredValues<Item>()

        values.apply(.saved([item(3), item(1), item(2)]))
        values.apply(.saved([Item(id: 2, title: "again", count: 1)]))
        values.apply(.deleted([1, 9]))

        #expect(values.items.map(\.id) == [2, 3])
        #expect(values.items.first?.title == "again")
        values.apply(.removedAll)
        #expect(values.isEmpty)
    }

    @Test func aJournalStoreReopensWithEveryChangeThroughItsCompactions() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = try open()
        for number in 0..<40 { try await commit(.saved([item(number)]), to: &store) }
        try await commit(.deleted([0, 1]), to: &store)
        #expect(try journalLines().count < 20)  // Compacted on the way.
        store.close()

        var reopened = try open()

        #expect(reopened.values.items.map(\.id) == Array(2..<40))
        reopened.close()
        #expect(throws: ItemError.closed) {
            var closed = try open()
            closed.close()
            try closed.commit(.removedAll)
        }
    }

    @Test func aReaderFollowsTheWriterThroughCompactionsWithoutItsLockAndCannotWrite()
        async throws
    {
        defer { try? FileManager.default.removeItem(at: folder) }
        var writer = try open()
        try writer.commit(.saved([item(1), item(2)]))
        var reader = try JournalStore<Item, ItemError>(
            readingFrom: folder, snapshot: "items.json", journal: "items.journal")
        #expect(reader.values.items.map(\.id) == [1, 2])

        try writer.commit(.deleted([1]))
        try writer.commit(.saved([item(3)]))
        #expect(try reader.refresh() == [.deleted([1]), .saved([item(3)])])  // The new records.
        #expect(try reader.refresh() == [])

        for number in 4...40 { try await commit(.saved([item(number)]), to: &writer) }
        try await commit(.deleted([2]), to: &writer)
        let changes = try reader.refresh()  // Read again, as what differs.
        #expect(changes == [.deleted([2]), .saved((4...40).map(item))])
        #expect(reader.values.items == writer.values.items)

        #expect(throws: ItemError.self) { try reader.commit(.saved([item(99)])) }
        #expect(throws: ItemError.self) {
            try reader.beginCompaction(from: Self.reading(reader.values))
        }
        // The folder's lock is the writer's alone.
        #expect(throws: ItemError.locked(file: folder.appendingPathComponent("items.lock"))) {
            try open()
        }
    }

    @Test func aReaderLeavesALineBeingWrittenForLaterAndTruncatesNothing() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var writer = try open()
        try writer.commit(.saved([item(1), item(2)]))  // The snapshot.
        try writer.commit(.saved([item(3)]))  // A record in the journal.
        let journal = folder.appendingPathComponent("items.journal")
        let whole = try Data(contentsOf: journal)
        let line = Data(whole.dropLast())
        // A second record, its newline not written yet.
        try (whole + line).write(to: journal)

        var reader = try JournalStore<Item, ItemError>(
            readingFrom: folder, snapshot: "items.json", journal: "items.journal")
        #expect(reader.values.items.map(\.id) == [1, 2, 3])
        #expect(try Data(contentsOf: journal) == whole + line)
        try (whole + line + Data("\n".utf8)).write(to: journal)
        #expect(try reader.refresh() == [.saved([item(3)])])
    }

    @Test func aSnapshotReaderReadsTheFileAgainOnlyWhenTheWriterReplacedIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var writer = try SnapshotStore<Item, ItemError>(
            directory: folder, file: "items.json", lock: "items.lock")
        try writer.commit(.saved([item(1), item(2)]))
        var reader = try SnapshotStore<Item, ItemError>(readingFrom: folder, file: "items.json")
        #expect(try reader.refresh() == [])

        try writer.commit(.deleted([1]))
        try writer.commit(.saved([Item(id: 2, title: "changed", count: 1)]))

        #expect(
            try reader.refresh() == [
                .deleted([1]), .saved([Item(id: 2, title: "changed", count: 1)]),
            ])
        #expect(throws: ItemError.self) { try reader.commit(.removedAll) }
    }

    @Test func aSuspendedJournalStoreReleasesItsLockAndResumesWithWhatAnotherWriterSaved()
        throws
    {
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = try open()
        try store.commit(.saved([item(1), item(2)]))
        store.suspend()
        #expect(store.values.items.map(\.id) == [1, 2])  // Reads answer from memory.
        #expect(throws: ItemError.suspended) { try store.commit(.saved([item(3)])) }
        #expect(try store.resume() == [])  // Nothing changed: the files are taken back.
        try store.commit(.saved([item(3)]))

        store.suspend()
        do {
            var other = try open()  // The lock is free while suspended.
            try other.commit(.deleted([1]))
            #expect(throws: ItemError.self) { _ = try store.resume() }  // `other` holds it.
            #expect(store.isSuspended)
        }
        #expect(try store.resume() == [.deleted([1])])
        try store.commit(.saved([item(4)]))
        #expect(store.values.items.map(\.id) == [2, 3, 4])
        #expect(throws: ItemError.self) { try open() }  // The lock is held again.
    }

    @Test func aSuspendedSnapshotStoreReleasesItsLockAndReadsWhatChangedMeanwhile() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        func openSnapshot() throws -> SnapshotStore<Item, ItemError> {
            try SnapshotStore(directory: folder, file: "items.json", lock: "items.lock")
        }
        var store = try openSnapshot()
        try store.commit(.saved([item(1)]))
        store.suspend()
        #expect(throws: ItemError.suspended) { try store.commit(.removedAll) }
        do {
            var other = try openSnapshot()
            try other.commit(.saved([item(2)]))
        }
        #expect(try store.resume() == [.saved([item(2)])])
        #expect(throws: ItemError.self) { try openSnapshot() }
    }

    @Test func aCompactionOffTheTurnKeepsTheWritesMadeWhileItRanAndTheirJournalOnly()
        async throws
    {
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = try open()
        // More values than a run holds, so the snapshot is written in several parts.
        try store.commit(.saved((0..<600).map(item)))
        for number in 600..<620 { try store.commit(.saved([item(number)])) }
        let before = store.values.items
        let gate = Gate()
        let compaction = try #require(
            try store.beginCompaction(from: Self.reading(store.values, after: gate)))
        // One at a time.
        #expect(try store.beginCompaction(from: Self.reading(store.values)) == nil)

        // The repository goes on writing while the task writes the snapshot.
        try store.commit(.saved([item(700)]))
        try store.commit(.deleted([3]))
        // A crash now: the old snapshot, and the journal with the records of both generations.
        let crashed = folder.appendingPathComponent("crashed")
        try FileManager.default.createDirectory(at: crashed, withIntermediateDirectories: true)
        for file in ["items.json", "items.journal"] {
            try FileManager.default.copyItem(
                at: folder.appendingPathComponent(file), to: crashed.appendingPathComponent(file))
        }
        let afterCrash = try JournalStore<Item, ItemError>(
            directory: crashed, snapshot: "items.json", journal: "items.journal",
            lock: "items.lock", compactionFloor: 256)
        #expect(afterCrash.values.items == store.values.items)

        // The task copies the journal's records as far as they went then; the last one,
        // written after, is added when the compaction finishes.
        await gate.open(journalEnd: store.journalEnd)
        try store.commit(.saved([Item(id: 5, title: "changed", count: 1)]))
        let expected = store.values.items
        try store.finishCompaction(compaction, result: await compaction.task.result)

        // The snapshot holds the values of when the compaction began, byte for byte as one
        // encoding of them all; the journal only the three records written since.
        let snapshot = try Data(contentsOf: folder.appendingPathComponent("items.json"))
        #expect(snapshot == (try wholeSnapshot(of: before, generation: compaction.generation)))
        #expect(try journalLines().count == 3)
        #expect(store.values.items == expected)
        store.close()
        #expect(try open().values.items == expected)
    }

    /// A reader that reads the new snapshot and the old journal, between the compaction's
    /// rename and the journal's replacement, hears every record written after.
    @Test func aReaderBetweenTheSnapshotsRenameAndTheNewJournalMissesNothing() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var writer = try open()
        try writer.commit(.saved((0..<10).map(item)))
        for number in 20..<23 { try writer.commit(.saved([item(number)])) }  // Records before.
        let gate = Gate()
        let compaction = try #require(
            try writer.beginCompaction(from: Self.reading(writer.values, after: gate)))
        try writer.commit(.saved([item(10)]))
        await gate.open(journalEnd: writer.journalEnd)
        let written = await compaction.task.result  // The new snapshot is in place.
        var reader = try JournalStore<Item, ItemError>(
            readingFrom: folder, snapshot: "items.json", journal: "items.journal")
        #expect(reader.values.items == writer.values.items)

        try writer.commit(.saved([item(11)]))
        try writer.finishCompaction(compaction, result: written)  // A new journal.
        // Records of one length, so that the old journal's offset falls on a line of the new.
        try writer.commit(.saved([item(12)]))
        try writer.commit(.saved([item(13)]))

        _ = try reader.refresh()
        #expect(reader.values.items == writer.values.items)
    }

    @Test func aSnapshotThatReadValuesChangedSinceItBeganIsRightOnceTheJournalIsReplayed()
        async throws
    {
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = try open()
        try store.commit(.saved((0..<600).map(item)))
        let before = store.values
        let changes: [StoreChange<Item>] = [
            .saved([Item(id: 560, title: "changed", count: 1)]), .deleted([550, 10]),
            .saved([item(900)]),
        ]
        var changed = before
        for change in changes { changed.apply(change) }
        let after = changed
        // The first few hundred values are read as they were, the rest as they are after the
        // changes, as a repository's compaction reads them between saves.
        let compaction = try #require(
            try store.beginCompaction(
                from: JournalStore.CompactionSource(
                    values: { last in (last == nil ? before : after).values(after: last) },
                    journalEnd: { nil })))
        for change in changes { try store.commit(change) }
        try store.finishCompaction(compaction, result: await compaction.task.result)
        store.close()

        #expect(try open().values.items == after.items)
    }

    /// A compaction that never put its snapshot in place left records of its generation; the
    /// store that opens next writes later ones, and its compaction a later generation still,
    /// so the older records are never replayed over what they hold.
    @Test func recordsOfACompactionThatNeverFinishedAreNotReplayedOverLaterSaves() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = try open()
        try store.commit(.saved((0..<10).map(item)))
        let gate = Gate()
        let abandoned = try #require(
            try store.beginCompaction(from: Self.reading(store.values, after: gate)))
        try store.commit(.saved([Item(id: 1, title: "A", count: 1)]))
        let stopped = store.close()
        await gate.open(journalEnd: 0)
        _ = await stopped?.result
        _ = abandoned

        var reopened = try open()
        try reopened.commit(.saved([Item(id: 1, title: "B", count: 2)]))
        let compaction = try #require(
            try reopened.beginCompaction(from: Self.reading(reopened.values)))
        _ = await compaction.task.result
        // A crash now: the new snapshot is in place, the journal not replaced yet.
        let crashed = folder.appendingPathComponent("crashed")
        try FileManager.default.createDirectory(at: crashed, withIntermediateDirectories: true)
        for file in ["items.json", "items.journal"] {
            try FileManager.default.copyItem(
                at: folder.appendingPathComponent(file), to: crashed.appendingPathComponent(file))
        }

        let afterCrash = try JournalStore<Item, ItemError>(
            directory: crashed, snapshot: "items.json", journal: "items.journal",
            lock: "items.lock", compactionFloor: 256)
        #expect(afterCrash.values[1]?.title == "B")
    }

    /// A compaction's task shares the folder's lock, so that nothing else writes the folder
    /// while it may still rename a file: closing waits for it to end, then releases the lock
    /// itself, rather than when the task lets go of its files, a moment later.
    @Test func closingReleasesTheLockOnceACompactionUnderWayHasEndedAndNotBefore() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = try open()
        try store.commit(.saved((0..<10).map(item)))
        let gate = Gate()
        let compaction = try #require(
            try store.beginCompaction(from: Self.reading(store.values, after: gate)))
        await gate.untilWaitedOn()
        let stopped = store.close()
        let closing = try #require(stopped)
        #expect(throws: ItemError.locked(file: folder.appendingPathComponent("items.lock"))) {
            try open()  // The compaction may still rename its snapshot.
        }

        let secondClose = store.close()
        let closingAgain = try #require(secondClose)  // The same wait, not a free lock.
        await gate.open(journalEnd: 0)
        await closing.value
        await closingAgain.value
        #expect(try open().values.items.map(\.id) == Array(0..<10))
        _ = compaction

        // Suspended while compacting, then closed: close() waits for the same compaction.
        var suspended = try open()
        let held = Gate()
        let cancelled = try #require(
            try suspended.beginCompaction(from: Self.reading(suspended.values, after: held)))
        await held.untilWaitedOn()
        suspended.suspend()
        let stopping = suspended.close()
        #expect(stopping != nil)
        #expect(throws: ItemError.self) { try open() }
        await held.open(journalEnd: 0)
        await stopping?.value
        var reopened = try open()
        reopened.close()
        _ = cancelled

        // With no compaction under way, the lock is free as soon as close() returns, even
        // though a finished compaction's files may still be going away.
        var again = try open()
        for round in 0..<20 {
            try again.commit(.saved([item(round)]))
            let finished = try #require(
                try again.beginCompaction(from: Self.reading(again.values)))
            try again.finishCompaction(finished, result: await finished.task.result)
            #expect(again.close() == nil)
            again = try open()
        }
        #expect(again.values.items.map(\.id) == Array(0..<20))
    }

    @Test func aLockReleasedByHandFreesTheFolderWhileFilesThatShareItRemain() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try StoreFiles.Journal<ItemError>(
            directory: folder, snapshot: "items.json", journal: "items.journal", lock: "items.lock")
        let pending = try files.newSnapshot()  // Holds the lock, as a compaction's task does.
        #expect(throws: ItemError.self) { try open() }

        files.lock.release()
        files.lock.release()  // Again: nothing happens.
        #expect(throws: Never.self) { _ = try open() }
        _ = pending
    }

    /// Writes to /dev/full fail with ENOSPC, as on a full disk.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func aCompactionThatFailsOrIsClosedLosesNothingAndLeavesNoFile() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = try open()
        try store.commit(.saved((0..<10).map(item)))
        for number in 10..<30 { try store.commit(.saved([item(number)])) }
        #expect(store.needsCompaction)
        let temporary = folder.appendingPathComponent("items.json.tmp")

        // A full disk: the task fails, removes its file, and no save starts another at once.
        try FileManager.default.createSymbolicLink(
            at: temporary, withDestinationURL: URL(fileURLWithPath: "/dev/full"))
        let failed = try #require(
            try store.beginCompaction(from: Self.reading(store.values)))
        try store.commit(.saved([item(30)]))
        let result = await failed.task.result
        #expect(throws: ItemError.self) { try store.finishCompaction(failed, result: result) }
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: temporary.path)) == nil)
        try store.commit(.saved([item(31)]))
        #expect(!store.needsCompaction)

        // Closed while the snapshot is written: the task removes its file, and the store opens
        // with every value.
        let closed = try #require(
            try store.beginCompaction(from: Self.reading(store.values)))
        try store.commit(.deleted([0]))
        let closing = store.close()
        let ended = await closed.task.result
        #expect(throws: ItemError.closed) { try store.finishCompaction(closed, result: ended) }
        await closing?.value
        #expect(!FileManager.default.fileExists(atPath: temporary.path))
        #expect(try open().values.items.map(\.id) == Array(1...31))
    }

    @Test func anInMemoryStoreKeepsItsChangesAndWritesNothing() throws {
        var store = JournalStore<Item, ItemError>(inMemory: [item(2), item(1)])

        try store.commit(.saved([item(3)]))
        #expect(try store.beginCompaction(from: Self.reading(store.values)) == nil)

        #expect(store.values.items.map(\.id) == [1, 2, 3])
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test func aStoreOfAnEarlierVersionIsMigratedByAMigrationThatDoesNotThrow() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let old = #"{"generation":0,"items":[{"count":5,"id":1,"title":"Old"}],"schemaVersion":1}"#
        try Data(old.utf8).write(to: folder.appendingPathComponent("items.json"))

        let store = try open()

        #expect(store.values.items == [Item(id: 1, title: "Old", count: 5)])
    }

    @Test func anUndecidedValueKeepsTheStoreClosedAndItsFileAsItWas() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("items.json")
        let old = Data(#"{"generation":0,"items":[{"count":"5","id":1}],"schemaVersion":1}"#.utf8)
        try old.write(to: file)

        #expect(
            throws: ItemError.notMigrated(
                file: file, field: "count", migration: "StoreEngineTests/StoreEngineTests.swift",
                reason: "is not decided yet")
        ) {
            _ = try JournalStore<Undecided, ItemError>(
                directory: folder, snapshot: "items.json", journal: "items.journal",
                lock: "items.lock", compactionFloor: 256)
        }
        #expect(try Data(contentsOf: file) == old)
    }

    @Test func aConversionWithoutAnExactResultNamesTheStoredValue() throws {
        let older = Item.V1(id: 1, title: "a", count: 9_007_199_254_740_993)

        #expect(
            try older.lossless(Int64(exactly: older.count), "count", from: older.count)
                == 9_007_199_254_740_993)
        #expect {
            _ = try older.lossless(Double?.none, "count", from: older.count)
        } throws: { error in
            (error as? UnmigratedValue)?.reason
                == "holds a stored value (9007199254740993) that does not convert without loss"
        }
        // A migration written before the value was named still compiles, and says less.
        #expect {
            _ = try older.lossless(Double?.none, "count")
        } throws: { error in
            (error as? UnmigratedValue)?.reason
                == "holds a stored value that does not convert without loss"
        }
    }

    @Test func aSealedFileFindsAFlippedByte() throws {
        let sealed = StoreFiles.CRC32.sealed(Data(#"{"items":[]}"#.utf8))
        var flipped = sealed
        flipped[3] ^= 0x01

        #expect(try StoreFiles.CRC32.unsealed(sealed).isChecked)
        #expect(throws: (any Error).self) { try StoreFiles.CRC32.unsealed(flipped) }
    }

    /// A batch small beside the store moves its values one at a time (splitting runs), one
    /// large beside it merges the store anew (its runs packed full); either way the values are
    /// what sorting them all would give, the last save of an id in a batch winning.
    @Test(arguments: [(600, false), (3_000, true)])
    func aBatchOfAnySizeLeavesTheValuesAsSortingThemAllWould(size: Int, merges: Bool) {
        let start = (0..<20_000).map { item($0 * 2) }
        var values = StoredValues<Item>()
        values.apply(.saved(start))
        var expected = Dictionary(uniqueKeysWithValues: start.map { ($0.id, $0) })
        // Odd ids are new, even ones replace, and each id is saved twice, the second time
        // with another title; then as many deleted, some of them just saved.
        let saved = (0..<size).flatMap { number in
            let id = number * 7 % 40_000
            return [
                Item(id: id, title: "First \(number)", count: 1),
                Item(id: id, title: "Saved \(number)", count: 1),
            ]
        }
        let deleted = (0..<size).map { $0 * 11 % 40_001 }

        values.apply(.saved(saved))
        let runsAfterSaving = values.runCount
        values.apply(.deleted(deleted))
        var replayed = StoredValues<Item>()
        replayed.apply(.saved([item(1)]))
        replayed.apply(
            contentsOf: [
                .init(change: .removedAll), .init(change: .saved(start)),
                .init(change: .saved(saved)), .init(change: .deleted(deleted)),
            ])

        for value in saved { expected[value.id] = value }
        for id in deleted { expected[id] = nil }
        let sorted = expected.values.sorted { $0.id < $1.id }
        #expect(values.items == sorted)
        #expect(values.count == sorted.count)
        #expect(replayed.items == sorted)
        #expect(values.values(after: sorted[99].id).first == sorted[100])
        #expect(saved.count / 2 == size)
        let packed = (20_000 + size / 2 + 511) / 512
        #expect((runsAfterSaving == packed) == merges, "\(runsAfterSaving) runs")
    }

    /// Values deleted one at a time, from anywhere in the store, leave no run of a few values:
    /// small runs are joined with a neighbour, in new arrays that free the room the deleted
    /// values took, and the values stay in id order.
    @Test func deletesOneAtATimeLeaveNoSmallRuns() {
        var values = StoredValues<Item>()
        values.apply(.saved((0..<100_000).map(item)))
        var kept = Set(0..<100_000)
        // 99% of the values, spread over every run, then every run but one emptied.
        for id in 0..<100_000 where id % 100 != 0 {
            values.apply(.deleted([id]))
            kept.remove(id)
        }
        #expect(values.items == kept.sorted().map(item))
        #expect(values.runCount <= kept.count / 128 + 1, "\(values.runCount) runs")
        #expect(values.room <= 4 * kept.count, "room for \(values.room)")
        for id in kept.sorted().dropFirst(3) { values.apply(.deleted([id])) }
        #expect(values.items == [item(0), item(100), item(200)])
        #expect(values.room < 16, "room for \(values.room)")
        values.apply(.saved((0..<600).map(item)))
        #expect(values.items == (0..<600).map(item))
    }

    /// A change of many values in a long list is applied off the caller's actor, to the same
    /// list that applying it in place gives; one value, or a short list, is applied in place.
    @Test func aCostlyChangeIsAppliedToACopyAsInPlace() async {
        var list = LiveList<Item>(order: .by(\.title))
        list.show((0..<100_000).map(item), inIDOrder: true)
        let many = StoreChange<Item>.saved(
            (0..<11).map { Item(id: $0 * 9_001, title: "New", count: 1) })
        var short = LiveList<Item>(order: .byID)
        short.show((0..<1_000).map(item), inIDOrder: true)

        #expect(list.isCostly(many))
        #expect(!list.isCostly(.saved([item(3)])))
        #expect(list.isCostly(.removedAll))  // Freeing the list is left to a task too.
        #expect(!short.isCostly(many))
        #expect(!LiveList<Item>(order: .byID).isCostly(.removedAll))
        let applied = await LiveList.applying(many, to: list)
        var inPlace = list
        inPlace.apply(many)
        #expect(applied.values == inPlace.values)
        #expect(applied.values != list.values)
        #expect(list.values.count == 100_000)  // The list handed over is left as it was.
    }

    @Test func aLargeBatchIsMergedIntoAListAsSortingItAllWouldPlaceIt() {
        var list = LiveList<Item>(order: .by(\.title, descending: true))
        list.filter = { $0.count > 0 }
        let shown = (0..<40).map { Item(id: $0, title: "T\($0 % 7)", count: 1) }
        list.show(shown, inIDOrder: true)
        // New values, changed ones, one the filter now rejects and one it rejects anyway.
        let batch =
            (100..<115).map { Item(id: $0, title: "T\($0 % 5)", count: 1) }
            + [Item(id: 3, title: "T9", count: 1), Item(id: 4, title: "T0", count: 0)]
            + [Item(id: 200, title: "T1", count: 0)]

        list.apply(.saved(batch))

        var expected = LiveList<Item>(order: .by(\.title, descending: true))
        expected.filter = list.filter
        var all = StoredValues<Item>()
        all.apply(.saved(shown))
        all.apply(.saved(batch))
        expected.show(all.filter { $0.count > 0 }, inIDOrder: true)
        #expect(list.values == expected.values)
        #expect(list.values.count == 40 + 15 - 1)
    }

    @Test func fieldIndexesFindRefuseAndFollowEveryChange() {
        var values = StoredValues<Item>()
        values.apply(.saved([item(1), Item(id: 2, title: "Twin", count: 7)]))
        var indexes = FieldIndexes<Item>([
            .init("title", isUnique: true) { AnyHashable($0.title) },
            .init("count") { AnyHashable($0.count) },
        ])

        #expect(indexes.ids("count", AnyHashable(Int64(7)), in: values) == [1, 2])
        let twin = StoreChange<Item>.saved([Item(id: 3, title: "Twin", count: 1)])
        #expect(indexes.conflict(in: twin, with: values)?.field == "title")
        let pair = StoreChange<Item>.saved([
            Item(id: 4, title: "Pair", count: 1), Item(id: 5, title: "Pair", count: 1),
        ])
        #expect(indexes.conflict(in: pair, with: values)?.value == "Pair")
        // Renaming 2 frees "Twin" for 3 in the same batch.
        let swap = StoreChange<Item>.saved([
            Item(id: 2, title: "Other", count: 7), Item(id: 3, title: "Twin", count: 1),
        ])
        #expect(indexes.conflict(in: swap, with: values) == nil)

        for change in [swap, .deleted([1])] {
            let replaced = indexes.replaced(by: change, in: values)
            values.apply(change)
            indexes.apply(change, replacing: replaced)
        }
        #expect(indexes.ids("title", AnyHashable("Twin"), in: values) == [3])
        #expect(indexes.ids("count", AnyHashable(Int64(7)), in: values) == [2])
        #expect(indexes.duplicates(in: values).isEmpty)
    }

    @Test func aValueJSONCannotHoldIsTheStoresErrorAndNothingIsWritten() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = try JournalStore<Entry, ItemError>(
            directory: folder, snapshot: "entries.json", journal: "entries.journal",
            lock: "entries.lock", compactionFloor: 1 << 20)
        let id = UUID()
        let entry = Entry(id: id, title: "", score: 1, rank: 0, done: false, mood: .calm, note: nil)
        var other = entry
        other.id = UUID()
        // Two values first: a save of fewer than the store holds is appended to the journal.
        try store.commit(.saved([entry, other]))
        let journalURL = folder.appendingPathComponent("entries.journal")
        let before = try Data(contentsOf: journalURL)
        var broken = entry
        broken.score = .nan

        #expect {
            try store.commit(.saved([broken]))
        } throws: { error in
            guard case ItemError.unwritable(_, let reason)? = error as? ItemError else {
                return false
            }
            return reason.contains("nan")
        }

        #expect(store.values[id]?.score == 1)
        #expect(try Data(contentsOf: journalURL) == before)
    }
}
