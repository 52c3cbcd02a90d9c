import Foundation
import MainActorByDefault
import XCTest

/// The behaviour of ``NoteRepository`` and ``NoteListViewModel``, in XCTest.
nonisolated final class NoteRepositoryXCTests: XCTestCase {
    private typealias Support = NoteTestSupport

    func testSaveThenFind() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try NoteRepository(directory: directory)

        try await repository.save(Support.sample(1))

        let found = await repository.find(by: Support.sample(1).id)
        XCTAssertEqual(found, Support.sample(1))
        let missing = await repository.find(by: Support.sample(2).id)
        XCTAssertNil(missing)
    }

    func testSaveWithSameIDReplaces() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try NoteRepository(directory: directory)

        try await repository.save(Support.sample(1))
        try await repository.save(Support.sample(1, revision: 1))

        let found = await repository.find(by: Support.sample(1).id)
        XCTAssertEqual(found, Support.sample(1, revision: 1))
        let count = await repository.count
        XCTAssertEqual(count, 1)
    }

    func testDeleteRemoves() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try NoteRepository(directory: directory)
        try await repository.save(Support.sample(1))
        try await repository.save(Support.sample(2))

        try await repository.delete(Support.sample(1).id)

        let all = await repository.loadAll()
        XCTAssertEqual(all, [Support.sample(2)])
    }

    func testReopeningAfterManySavesAndDeletesKeepsEverything() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try NoteRepository(directory: directory)
        for number in 0..<50 {
            try await repository.save(Support.sample(number))
        }
        for number in stride(from: 0, to: 50, by: 3) {
            try await repository.delete(Support.sample(number).id)
        }
        try await repository.save(contentsOf: (40..<60).map { Support.sample($0, revision: 1) })
        let before = await repository.loadAll()
        await repository.close()

        let reopened = try NoteRepository(directory: directory)

        let after = await reopened.loadAll()
        XCTAssertEqual(after, before)
        XCTAssertEqual(after.count, 46)
    }

    func testConcurrentSavesAllLand() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try NoteRepository(directory: directory)

        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<100 {
                group.addTask { try await repository.save(Support.sample(number)) }
            }
            try await group.waitForAll()
        }

        let count = await repository.count
        XCTAssertEqual(count, 100)
        await repository.close()
        let reopened = try NoteRepository(directory: directory)
        let reopenedCount = await reopened.count
        XCTAssertEqual(reopenedCount, 100)
    }

    func testBatchSaveDeleteAndRemoveAll() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try NoteRepository(directory: directory)

        try await repository.save(contentsOf: (0..<10).map { Support.sample($0) })
        try await repository.delete(ids: [0, 1, 2, 99].map { Support.sample($0).id })

        let afterDelete = await repository.loadAll()
        XCTAssertEqual(afterDelete, (3..<10).map { Support.sample($0) })
        try await repository.removeAll()
        let afterRemoveAll = await repository.count
        XCTAssertEqual(afterRemoveAll, 0)
        await repository.close()
        let reopened = try NoteRepository(directory: directory)
        let reopenedCount = await reopened.count
        XCTAssertEqual(reopenedCount, 0)
    }

    func testLoadAllIsSortedByID() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try NoteRepository(directory: directory)
        for number in [3, 1, 2, 10] {
            try await repository.save(Support.sample(number))
        }

        let ids = await repository.loadAll().map(\.id.uuidString)

        XCTAssertEqual(ids, ids.sorted())
        XCTAssertEqual(ids.count, 4)
    }

    func testManyValuesSavedAndDeletedInAnyOrderStayInIDOrder() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try NoteRepository(directory: directory)
        // 2,000 values in batches of 100, in an order unrelated to their ids, then every third
        // one deleted: enough to fill, split and empty the runs the store keeps in memory.
        let numbers = (0..<2000).map { ($0 * 7919) % 2000 }
        for start in stride(from: 0, to: numbers.count, by: 100) {
            try await repository.save(
                contentsOf: numbers[start..<(start + 100)].map { Support.sample($0) })
        }
        let deleted = numbers.filter { $0 % 3 == 0 }.map { Support.sample($0).id }
        for start in stride(from: 0, to: deleted.count, by: 100) {
            try await repository.delete(
                ids: Array(deleted[start..<min(start + 100, deleted.count)]))
        }

        let expected = (0..<2000).filter { $0 % 3 != 0 }.map { Support.sample($0) }
            .sorted { NoteRepository.precedes($0.id, $1.id) }
        let all = await repository.loadAll()
        XCTAssertEqual(all, expected)
        let count = await repository.count
        XCTAssertEqual(count, expected.count)
        let kept = await repository.find(by: Support.sample(1999).id)
        XCTAssertEqual(kept, Support.sample(1999))
        let gone = await repository.find(by: Support.sample(999).id)
        XCTAssertNil(gone)
        await repository.close()
        let reopened = try await NoteRepository(directory: directory).loadAll()
        XCTAssertEqual(reopened, expected)
    }

    func testUpdateChangesOneValueDurablyAndQueriesFilter() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try NoteRepository(directory: directory)
        try await repository.save(contentsOf: (0..<4).map { Support.sample($0) })
        let id = Support.sample(2).id

        let updated = try await repository.update(id: id) { $0 = Support.sample(2, revision: 1) }
        let missing = try await repository.update(id: Support.sample(9).id) { _ in }

        XCTAssertTrue(updated)
        XCTAssertFalse(missing)
        let matching = await repository.count(where: { $0.id == id })
        XCTAssertEqual(matching, 1)
        let others = await repository.loadAll(where: { $0.id != id })
        XCTAssertEqual(others.count, 3)
        await repository.close()
        let reopened = try NoteRepository(directory: directory)
        let found = await reopened.find(by: id)
        XCTAssertEqual(found, Support.sample(2, revision: 1))
    }

    func testMissingFilesAreAnEmptyStore() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }

        let repository = try NoteRepository(directory: directory.appendingPathComponent("new"))

        let count = await repository.count
        XCTAssertEqual(count, 0)
    }

    func testCorruptFileThrowsAndIsKept() throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let file = directory.appendingPathComponent(NoteRepository.snapshotFileName)
        let damaged = Data("[{\"not\": \"a Note\"".utf8)
        try damaged.write(to: file)

        XCTAssertThrowsError(try NoteRepository(directory: directory)) { error in
            guard case .corrupt(let named, _, _) = error as? NoteRepositoryError else {
                return XCTFail("expected a corrupt-file error, got \(error)")
            }
            XCTAssertEqual(named.lastPathComponent, file.lastPathComponent)
            XCTAssertTrue("\(error)".contains(file.lastPathComponent))
        }
        XCTAssertEqual(try Data(contentsOf: file), damaged)
    }

    func testAFlippedByteInTheFileIsFoundByItsChecksum() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try NoteRepository(directory: directory)
        try await repository.save(contentsOf: (0..<3).map { Support.sample($0) })
        await repository.close()
        let file = directory.appendingPathComponent(Support.storeFileName)
        var bytes = try Data(contentsOf: file)
        // Any byte of the JSON: many flips, say a letter in a string, would still decode.
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: file)

        XCTAssertThrowsError(try NoteRepository(directory: directory)) { error in
            let failure = error as? NoteRepositoryError
            guard case .corrupt(let named, _, let reason) = failure else {
                return XCTFail("expected a corrupt-file error, got \(error)")
            }
            XCTAssertEqual(named.lastPathComponent, file.lastPathComponent)
            XCTAssertTrue(reason.contains("checksum"))
        }
        XCTAssertEqual(try Data(contentsOf: file), bytes)
    }

    func testAFileWithoutAChecksumOpensAndIsRewrittenWithOne() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let file = directory.appendingPathComponent(Support.storeFileName)
        let values = (0..<3).map { Support.sample($0) }
        try Support.fileWithoutChecksum(values).write(to: file)

        let repository = try NoteRepository(directory: directory)

        let loaded = await repository.loadAll()
        XCTAssertEqual(loaded, values)
        let rewritten = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        XCTAssertEqual(rewritten.split(separator: "\n").last?.hasPrefix("crc32 "), true)
        await repository.close()
        let reopened = try await NoteRepository(directory: directory).loadAll()
        XCTAssertEqual(reopened, values)
    }

    func testAFileThatIsAFolderOrABrokenLinkIsUnreadable() throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let file = directory.appendingPathComponent(Support.storeFileName)
        try FileManager.default.createSymbolicLink(
            at: file, withDestinationURL: directory.appendingPathComponent("gone"))
        func expectUnreadable() {
            XCTAssertThrowsError(try NoteRepository(directory: directory)) { error in
                let failure = error as? NoteRepositoryError
                guard case .unreadable(let named, _) = failure else {
                    return XCTFail("expected an unreadable-file error, got \(error)")
                }
                XCTAssertEqual(named.lastPathComponent, file.lastPathComponent)
            }
        }

        expectUnreadable()
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        expectUnreadable()
    }

    func testAFailedWriteKeepsTheValuesAndALaterWriteSucceeds() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try NoteRepository(directory: directory)
        try await repository.save(contentsOf: (0..<3).map { Support.sample($0) })
        // A folder where the write must put a file makes it fail, as a full disk would.
        let blocker = try Support.blockWrites(in: directory)

        do {
            try await repository.compact()
            XCTFail("the write succeeded")
        } catch {
            guard case .unwritable = error as? NoteRepositoryError else {
                return XCTFail("expected an unwritable-file error, got \(error)")
            }
        }
        let kept = await repository.loadAll()
        XCTAssertEqual(kept, (0..<3).map { Support.sample($0) })
        XCTAssertEqual(Support.leftovers(in: directory), [])

        try FileManager.default.removeItem(at: blocker)
        try await repository.save(Support.sample(3))
        try await repository.compact()
        await repository.close()
        let reopened = try await NoteRepository(directory: directory).loadAll()
        XCTAssertEqual(reopened, (0..<4).map { Support.sample($0) })
    }

    func testAStoreWrittenBySchemaVersion1OpensWithItsValuesMigrated() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let stored = (0..<3).map { Support.sampleV1($0) }
        let file = directory.appendingPathComponent(Support.storeFileName)
        try Support.fileWithoutChecksum(stored, version: 1).write(to: file)

        let repository = try NoteRepository(directory: directory)

        let migrated = await repository.loadAll()
        XCTAssertEqual(migrated, stored.map { $0.migrated() })
        await repository.close()
        let reopened = try await NoteRepository(directory: directory).loadAll()
        XCTAssertEqual(reopened, stored.map { $0.migrated() })
    }

    func testJSONWrittenBeforeTheDefaultedFieldsExistedDecodesToTheDefaults() throws {
        let encoded = try JSONEncoder().encode(Support.sample(1))
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        object["title"] = nil
        object["status"] = nil
        object["tags"] = nil

        let decoded = try JSONDecoder().decode(
            Note.self, from: JSONSerialization.data(withJSONObject: object))

        XCTAssertEqual(decoded.id, Support.sample(1).id)
        XCTAssertEqual(decoded.title, "Untitled")
        XCTAssertEqual(decoded.status, .draft)
        XCTAssertEqual(decoded.tags, [])
    }

    func testCompactionKeepsEveryValueAndEmptiesTheJournal() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try NoteRepository(directory: directory)
        for number in 0..<20 {
            try await repository.save(Support.sample(number))
        }
        try await repository.delete(Support.sample(5).id)
        XCTAssertGreaterThan(Support.fileSize(repository.journalURL), 0)

        try await repository.compact()
        XCTAssertEqual(Support.fileSize(repository.journalURL), 0)
        // A batch larger than the compaction floor is written as a snapshot by itself.
        try await repository.save(contentsOf: (100..<10_100).map { Support.sample($0) })
        XCTAssertEqual(Support.fileSize(repository.journalURL), 0)
        let before = await repository.loadAll()
        await repository.close()

        let reopened = try NoteRepository(directory: directory)

        let after = await reopened.loadAll()
        XCTAssertEqual(after, before)
        XCTAssertEqual(after.count, 10_019)
    }

    func testATornLastRecordIsDroppedAndTheRestLoads() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try NoteRepository(directory: directory)
        try await repository.save(contentsOf: (0..<3).map { Support.sample($0) })
        await repository.close()
        // A crash in the middle of an append leaves a record without its newline.
        let journal = try FileHandle(forWritingTo: repository.journalURL)
        try journal.seekToEnd()
        try journal.write(contentsOf: Data("{\"save\":[{\"id\"".utf8))
        try journal.close()

        let reopened = try NoteRepository(directory: directory)
        try await reopened.save(Support.sample(3))
        await reopened.close()

        let again = try NoteRepository(directory: directory)
        let all = await again.loadAll()
        XCTAssertEqual(all, (0..<4).map { Support.sample($0) })
    }

    func testADamagedJournalThrowsWithItsPositionAndIsKept() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try NoteRepository(directory: directory)
        // A batch as large as the store goes to the snapshot; the single saves to the journal.
        try await repository.save(contentsOf: (0..<3).map { Support.sample($0) })
        try await repository.save(Support.sample(3))
        try await repository.save(Support.sample(4))
        await repository.close()
        var bytes = try Data(contentsOf: repository.journalURL)
        let secondRecord = try XCTUnwrap(bytes.firstIndex(of: UInt8(ascii: "\n"))) + 1
        bytes[secondRecord + 2] ^= 0x01
        try bytes.write(to: repository.journalURL)

        XCTAssertThrowsError(try NoteRepository(directory: directory)) { error in
            guard case .corrupt(let file, let offset, _) = error as? NoteRepositoryError else {
                return XCTFail("expected a corrupt-journal error, got \(error)")
            }
            XCTAssertEqual(file.lastPathComponent, NoteRepository.journalFileName)
            XCTAssertEqual(offset, secondRecord)
        }
        XCTAssertEqual(try Data(contentsOf: repository.journalURL), bytes)
    }

    func testASecondOpenerIsRefusedUntilTheFirstCloses() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let first = try NoteRepository(directory: directory)

        XCTAssertThrowsError(try NoteRepository(directory: directory)) { error in
            guard case .locked = error as? NoteRepositoryError else {
                return XCTFail("expected a locked error, got \(error)")
            }
        }

        await first.close()
        XCTAssertNoThrow(try NoteRepository(directory: directory))
    }

    func testASnapshotFromANewerSchemaIsRefused() throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let newer = NoteRepository.schemaVersion + 1
        let file = directory.appendingPathComponent(NoteRepository.snapshotFileName)
        try Data("{\"items\":[],\"schemaVersion\":\(newer)}".utf8).write(to: file)

        XCTAssertThrowsError(try NoteRepository(directory: directory)) { error in
            XCTAssertEqual(
                error as? NoteRepositoryError,
                .newerSchema(file: file, found: newer, supported: NoteRepository.schemaVersion))
        }
    }

    func testEveryObserverGetsEachChangeOnceItIsDurable() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try NoteRepository(directory: directory)
        let first = await repository.changes()
        let second = await repository.changes()

        try await repository.save(Support.sample(1))
        try await repository.delete(Support.sample(1).id)
        try await repository.save(contentsOf: [Support.sample(2), Support.sample(3)])
        try await repository.removeAll()
        await repository.close()
        try? await repository.save(Support.sample(4))  // Fails: publishes nothing.

        let expected: [NoteRepository.Change] = [
            .saved([Support.sample(1)]), .deleted([Support.sample(1).id]),
            .saved([Support.sample(2), Support.sample(3)]), .removedAll,
        ]
        let firstReceived = await Support.first(5, of: first, within: 0.3)
        XCTAssertEqual(firstReceived, expected)
        let secondReceived = await Support.first(4, of: second)
        XCTAssertEqual(secondReceived, expected)
    }

    func testACancelledObserverStopsAndIsForgotten() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try NoteRepository(directory: directory)
        let changes = await repository.changes()
        let observer = Task {
            var received = 0
            for await _ in changes { received += 1 }
            return received
        }
        try await repository.save(Support.sample(1))

        observer.cancel()

        let received = await observer.value
        XCTAssertLessThanOrEqual(received, 1)
        var remaining = await repository.observerCount
        for _ in 0..<2000 where remaining > 0 {
            try await Task.sleep(nanoseconds: 1_000_000)
            remaining = await repository.observerCount
        }
        XCTAssertEqual(remaining, 0)
        try await repository.save(Support.sample(2))
    }

    func testSharedGivesEveryCallerTheSameRepositoryPerFolder() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let first = try await NoteRepository.shared(in: directory)
        let second = try await NoteRepository.shared(
            in: directory.appendingPathComponent("other/.."))

        try await first.save(Support.sample(1))

        XCTAssertTrue(first === second)
        let found = await second.find(by: Support.sample(1).id)
        XCTAssertEqual(found, Support.sample(1))
        await first.close()
        let reopened = try await NoteRepository.shared(in: directory)
        XCTAssertFalse(reopened === first)
        try await reopened.save(Support.sample(2))
        let count = await reopened.count
        XCTAssertEqual(count, 2)
    }

    @MainActor
    func testTwoViewModelsAndADirectSaveStayInStep() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try NoteRepository(directory: directory)
        let list = NoteListViewModel(repository: repository)
        let detail = NoteListViewModel(repository: repository)
        await list.load()
        await detail.load()

        await list.add(Support.sample(1))
        await detail.add(Support.sample(2))
        try await repository.save(Support.sample(3))
        await list.delete(Support.sample(1).id)
        await detail.add(Support.sample(2, revision: 1))

        let expected = [Support.sample(2, revision: 1), Support.sample(3)]
        let listCaughtUp = await Support.eventually { list.notes == expected }
        XCTAssertTrue(listCaughtUp, "\(list.notes)")
        let detailCaughtUp = await Support.eventually { detail.notes == expected }
        XCTAssertTrue(detailCaughtUp, "\(detail.notes)")
    }

    @MainActor
    func testViewModelsEndAsTheStoreEndsWhateverTheInterleaving() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try NoteRepository(directory: directory)
        let first = NoteListViewModel(repository: repository)
        let second = NoteListViewModel(
            repository: repository, order: .init { NoteRepository.precedes($1.id, $0.id) })
        await first.load()
        await second.load()
        let hidden = Support.sample(3).id

        // Adds, deletes, direct saves and filter changes on six ids, all at once.
        await withTaskGroup(of: Void.self) { group in
            for step in 0..<60 {
                group.addTask { await first.add(Support.sample(step % 6, revision: step)) }
                group.addTask { await second.delete(Support.sample((step + 2) % 6).id) }
                group.addTask {
                    try? await repository.save(Support.sample((step + 4) % 6, revision: step))
                }
                if step % 20 == 0 {
                    group.addTask { await second.filter(by: { $0.id != hidden }) }
                    group.addTask { await second.filter(by: nil) }
                }
            }
        }

        let stored = await repository.loadAll()
        let shownBySecond = Array(stored.filter { second.filter?($0) ?? true }.reversed())
        let firstCaughtUp = await Support.eventually { first.notes == stored }
        XCTAssertTrue(firstCaughtUp, "\(first.notes) != \(stored)")
        let secondCaughtUp = await Support.eventually { second.notes == shownBySecond }
        XCTAssertTrue(secondCaughtUp, "\(second.notes) != \(shownBySecond)")
    }

    @MainActor
    func testAViewModelKeepsItsOrderAsValuesArrive() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try NoteRepository(directory: directory)
        try await repository.save(contentsOf: [Support.sample(5), Support.sample(2)])
        let descending = NoteListViewModel(
            repository: repository, order: .by(\.id.uuidString, descending: true))
        let custom = NoteListViewModel(
            repository: repository, order: .init { NoteRepository.precedes($1.id, $0.id) })
        await descending.load()
        await custom.load()

        for number in [3, 1, 4] {
            try await repository.save(Support.sample(number))
        }
        await custom.add(Support.sample(6))

        let expected = await repository.loadAll().reversed().map(\.id)
        let descendingInOrder = await Support.eventually {
            descending.notes.map(\.id) == expected
        }
        XCTAssertTrue(descendingInOrder)
        let customInOrder = await Support.eventually { custom.notes.map(\.id) == expected }
        XCTAssertTrue(customInOrder)
        XCTAssertEqual(expected.count, 6)
    }

    @MainActor
    func testAFilteredViewModelShowsOnlyMatchesAsValuesChange() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try NoteRepository(directory: directory)
        try await repository.save(contentsOf: (1...3).map { Support.sample($0) })
        let hidden = Support.sample(2).id
        let viewModel = NoteListViewModel(repository: repository)
        await viewModel.load()

        await viewModel.filter(by: { $0.id != hidden })
        try await repository.save(Support.sample(2, revision: 1))
        try await repository.save(Support.sample(4))

        let expected = [1, 3, 4].map { Support.sample($0) }
        let filtered = await Support.eventually { viewModel.notes == expected }
        XCTAssertTrue(filtered, "\(viewModel.notes)")
        await viewModel.filter(by: nil)
        XCTAssertEqual(viewModel.notes.count, 4)
        XCTAssertFalse(viewModel.isLoading)
    }

    @MainActor
    func testAViewModelUpdatesAndDeletesAtOffsets() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try NoteRepository(directory: directory)
        try await repository.save(contentsOf: (0..<4).map { Support.sample($0) })
        let viewModel = NoteListViewModel(repository: repository)
        await viewModel.load()

        await viewModel.update(id: Support.sample(1).id) { $0 = Support.sample(1, revision: 1) }
        await viewModel.delete(atOffsets: [0, 2])

        let expected = [Support.sample(1, revision: 1), Support.sample(3)]
        XCTAssertEqual(viewModel.notes, expected)
        let stored = await repository.loadAll()
        XCTAssertEqual(stored, expected)
        XCTAssertNil(viewModel.error)
    }

    @MainActor
    func testViewModelLoadsAddsAndDeletes() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try NoteRepository(directory: directory)
        try await repository.save(Support.sample(1))
        let viewModel = NoteListViewModel(repository: repository)

        await viewModel.load()
        XCTAssertEqual(viewModel.notes, [Support.sample(1)])

        await viewModel.add(Support.sample(2))
        XCTAssertEqual(viewModel.notes, [Support.sample(1), Support.sample(2)])

        await viewModel.delete(Support.sample(1).id)
        XCTAssertEqual(viewModel.notes, [Support.sample(2)])
        XCTAssertNil(viewModel.error)
    }

    @MainActor
    func testViewModelReportsAFailedSave() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try NoteRepository(directory: directory)
        let viewModel = NoteListViewModel(repository: repository)
        await repository.close()

        await viewModel.add(Support.sample(1))

        XCTAssertEqual(viewModel.error as? NoteRepositoryError, .closed)
        XCTAssertEqual(viewModel.notes, [])
        let count = await repository.count
        XCTAssertEqual(count, 0)
    }
}
