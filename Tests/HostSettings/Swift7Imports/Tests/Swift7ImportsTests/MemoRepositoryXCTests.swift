import Foundation
import Observation
import Swift7Imports
import XCTest

import struct Swift7Imports.Memo

/// The behaviour of ``MemoRepository`` and ``MemoListViewModel``, in XCTest.
nonisolated final class MemoRepositoryXCTests: XCTestCase {
    private typealias Support = MemoTestSupport

    func testSaveThenFind() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try MemoRepository(directory: directory)

        try await repository.save(Support.sample(1))

        expectEqual(try await repository.find(by: Support.sample(1).id), Support.sample(1))
        expectNil(try await repository.find(by: Support.sample(2).id))
    }

    func testNilInAnOptionalFieldIsReadBackAfterReopening() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try MemoRepository(directory: directory)
        var value = Support.sample(1)
        value.due = nil

        try await repository.save(value)
        expectEqual(try await repository.find(by: value.id), value)
        await repository.close()

        let reopened = try MemoRepository(directory: directory)
        expectEqual(try await reopened.find(by: value.id), value)
    }

    func testSaveWithSameIDReplaces() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try MemoRepository(directory: directory)

        try await repository.save(Support.sample(1))
        try await repository.save(Support.sample(1, revision: 1))

        let found = try await repository.find(by: Support.sample(1).id)
        expectEqual(found, Support.sample(1, revision: 1))
        expectEqual(try await repository.count, 1)
    }

    func testDeleteRemoves() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try MemoRepository(directory: directory)
        try await repository.save(Support.sample(1))
        try await repository.save(Support.sample(2))

        try await repository.delete(Support.sample(1).id)

        expectEqual(try await repository.loadAll(), [Support.sample(2)])
    }

    func testReopeningAfterManySavesAndDeletesKeepsEverything() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try MemoRepository(directory: directory)
        for number in 0..<50 {
            try await repository.save(Support.sample(number))
        }
        for number in stride(from: 0, to: 50, by: 3) {
            try await repository.delete(Support.sample(number).id)
        }
        try await repository.save(contentsOf: (40..<60).map { Support.sample($0, revision: 1) })
        let before = try await repository.loadAll()
        await repository.close()

        let reopened = try MemoRepository(directory: directory)

        let after = try await reopened.loadAll()
        expectEqual(after, before)
        expectEqual(after.count, 46)
    }

    func testConcurrentSavesAllLand() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try MemoRepository(directory: directory)

        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<100 {
                group.addTask { try await repository.save(Support.sample(number)) }
            }
            try await group.waitForAll()
        }

        expectEqual(try await repository.count, 100)
        await repository.close()
        let reopened = try MemoRepository(directory: directory)
        expectEqual(try await reopened.count, 100)
    }

    func testBatchSaveDeleteAndRemoveAll() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try MemoRepository(directory: directory)

        try await repository.save(contentsOf: (0..<10).map { Support.sample($0) })
        try await repository.delete(ids: [0, 1, 2, 99].map { Support.sample($0).id })

        expectEqual(try await repository.loadAll(), (3..<10).map { Support.sample($0) })
        try await repository.removeAll()
        expectEqual(try await repository.count, 0)
        await repository.close()
        let reopened = try MemoRepository(directory: directory)
        expectEqual(try await reopened.count, 0)
    }

    func testLoadAllIsSortedByID() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try MemoRepository(directory: directory)
        for number in [3, 1, 2, 10] {
            try await repository.save(Support.sample(number))
        }

        let ids = try await repository.loadAll().map(\.id)

        expectEqual(ids, ids.sorted())
        expectEqual(ids.count, 4)
    }

    func testManyValuesSavedAndDeletedInAnyOrderStayInIDOrder() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try MemoRepository(directory: directory)
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
            .sorted { MemoRepository.precedes($0.id, $1.id) }
        expectEqual(try await repository.loadAll(), expected)
        expectEqual(try await repository.count, expected.count)
        expectEqual(try await repository.find(by: Support.sample(1999).id), Support.sample(1999))
        expectNil(try await repository.find(by: Support.sample(999).id))
        await repository.close()
        expectEqual(try await MemoRepository(directory: directory).loadAll(), expected)
    }

    func testUpdateChangesOneValueDurablyAndQueriesFilter() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try MemoRepository(directory: directory)
        try await repository.save(contentsOf: (0..<4).map { Support.sample($0) })
        let id = Support.sample(2).id

        let updated = try await repository.update(id: id) { $0 = Support.sample(2, revision: 1) }
        let missing = try await repository.update(id: Support.sample(9).id) { _ in }

        expectTrue(updated)
        expectTrue(!missing)
        expectEqual(try await repository.count(where: { $0.id == id }), 1)
        expectEqual(try await repository.loadAll(where: { $0.id != id }).count, 3)
        await repository.close()
        let reopened = try MemoRepository(directory: directory)
        expectEqual(try await reopened.find(by: id), Support.sample(2, revision: 1))
        expectEqual(try await reopened.count, 4)
    }

    func testValuesTheJournalStoreSavedMoveInOnce() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        // The store file of the storage Memo had before, as an earlier release wrote it
        // (without a checksum line, which both stores still read).
        let former = "memos.snapshot.json"
        let items = try JSONEncoder().encode([Support.sample(1), Support.sample(2)])
        let file = Data("{\"items\":".utf8) + items + Data(",\"schemaVersion\":1}".utf8)
        try file.write(to: directory.appendingPathComponent(former))

        let repository = try MemoRepository(directory: directory)
        expectEqual(try await repository.count, 2)
        try await repository.delete(Support.sample(1).id)
        await repository.close()
        let reopened = try MemoRepository(directory: directory)

        // Imported once: the deleted value does not come back.
        expectEqual(try await reopened.count, 1)
        expectEqual(try await reopened.find(by: Support.sample(2).id), Support.sample(2))
        let kept = directory.appendingPathComponent(former + ".imported")
        expectTrue(FileManager.default.fileExists(atPath: kept.path), "\(kept.path) should be kept")
    }

    func testDamagedJournalFilesAreRecoveredThenMoveIn() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        // The same file, with a checksum line its bytes do not match.
        let former = "memos.snapshot.json"
        let items = try JSONEncoder().encode([Support.sample(1), Support.sample(2)])
        let file = Data("{\"items\":".utf8) + items + Data(",\"schemaVersion\":1}".utf8)
        let damaged = file + Data("\ncrc32 00000000\n".utf8)
        try damaged.write(to: directory.appendingPathComponent(former))
        let error = thrownError { try MemoRepository(directory: directory) }
        guard case .corrupt? = error as? MemoRepositoryError else {
            fail("expected a damaged file, got \(String(describing: error))")
            return
        }

        let recovery = try MemoRepository.recover(directory: directory)

        // Its values still decode: kept as read, and its bytes copied beside it.
        let importing = directory.appendingPathComponent(former + ".importing")
        expectEqual(recovery.keptUnverified, [importing])
        expectEqual(recovery.copies, [importing.appendingPathExtension("damaged")])
        expectEqual(recovery.valuesKept, 2)
        let reopened = try MemoRepository(directory: directory)
        let both = [Support.sample(1), Support.sample(2)]
        let inOrder = both.sorted { MemoRepository.precedes($0.id, $1.id) }
        expectEqual(try await reopened.loadAll(), inOrder)
        await reopened.close()
    }

    func testValuesTheSnapshotStoreSavedMoveInOnce() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        // The store file of the storage Memo had before, as an earlier release wrote it
        // (without a checksum line, which both stores still read).
        let former = "memos.json"
        let items = try JSONEncoder().encode([Support.sample(1), Support.sample(2)])
        let file = Data("{\"items\":".utf8) + items + Data(",\"schemaVersion\":1}".utf8)
        try file.write(to: directory.appendingPathComponent(former))

        let repository = try MemoRepository(directory: directory)
        expectEqual(try await repository.count, 2)
        try await repository.delete(Support.sample(1).id)
        await repository.close()
        let reopened = try MemoRepository(directory: directory)

        // Imported once: the deleted value does not come back.
        expectEqual(try await reopened.count, 1)
        expectEqual(try await reopened.find(by: Support.sample(2).id), Support.sample(2))
        let kept = directory.appendingPathComponent(former + ".imported")
        expectTrue(FileManager.default.fileExists(atPath: kept.path), "\(kept.path) should be kept")
    }

    func testDamagedSnapshotFilesAreRecoveredThenMoveIn() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        // The same file, with a checksum line its bytes do not match.
        let former = "memos.json"
        let items = try JSONEncoder().encode([Support.sample(1), Support.sample(2)])
        let file = Data("{\"items\":".utf8) + items + Data(",\"schemaVersion\":1}".utf8)
        let damaged = file + Data("\ncrc32 00000000\n".utf8)
        try damaged.write(to: directory.appendingPathComponent(former))
        let error = thrownError { try MemoRepository(directory: directory) }
        guard case .corrupt? = error as? MemoRepositoryError else {
            fail("expected a damaged file, got \(String(describing: error))")
            return
        }

        let recovery = try MemoRepository.recover(directory: directory)

        // Its values still decode: kept as read, and its bytes copied beside it.
        let importing = directory.appendingPathComponent(former + ".importing")
        expectEqual(recovery.keptUnverified, [importing])
        expectEqual(recovery.copies, [importing.appendingPathExtension("damaged")])
        expectEqual(recovery.valuesKept, 2)
        let reopened = try MemoRepository(directory: directory)
        let both = [Support.sample(1), Support.sample(2)]
        let inOrder = both.sorted { MemoRepository.precedes($0.id, $1.id) }
        expectEqual(try await reopened.loadAll(), inOrder)
        await reopened.close()
    }

    func testMissingFilesAreAnEmptyStore() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }

        let repository = try MemoRepository(
            directory: directory.appendingPathComponent("new"))

        expectEqual(try await repository.count, 0)
    }

    func testCorruptFileThrowsAndIsKept() throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let file = directory.appendingPathComponent(Support.storeFileName)
        let damaged = Data("[{\"not\": \"a Memo\"".utf8)
        try damaged.write(to: file)

        let error = thrownError { try MemoRepository(directory: directory) }

        try expectEqual(Data(contentsOf: file), damaged)
        guard let failure = error as? MemoRepositoryError,
            case .corrupt(let named, _, _) = failure
        else {
            fail("expected a corrupt-file error, got \(String(describing: error))")
            return
        }
        expectEqual(named.lastPathComponent, file.lastPathComponent)
        expectTrue(failure.description.contains(file.lastPathComponent), failure.description)
    }

    func testAFileThatIsAFolderOrABrokenLinkIsUnreadable() throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let file = directory.appendingPathComponent(Support.storeFileName)
        try FileManager.default.createSymbolicLink(
            at: file, withDestinationURL: directory.appendingPathComponent("gone"))

        let linkError = thrownError { try MemoRepository(directory: directory) }

        switch linkError as? MemoRepositoryError {
        case .unreadable(let named, _):
            expectEqual(named.lastPathComponent, file.lastPathComponent)
        default:
            fail("expected an unreadable-file error, got \(String(describing: linkError))")
        }

        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        let folderError = thrownError { try MemoRepository(directory: directory) }

        switch folderError as? MemoRepositoryError {
        case .unreadable(let named, _):
            expectEqual(named.lastPathComponent, file.lastPathComponent)
        default:
            fail("expected an unreadable-file error, got \(String(describing: folderError))")
        }
    }

    func testAFlippedByteInARowIsFoundByItsChecksumAndRecoverSetsItAside() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try MemoRepository(directory: directory)
        try await repository.save(contentsOf: (0..<3).map { Support.sample($0) })
        await repository.close()
        let file = directory.appendingPathComponent(Support.storeFileName)
        var bytes = try Data(contentsOf: file)
        // A byte of a row's JSON, which SQLite itself reads as it is: its first key's.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let row = try unwrap(bytes.range(of: encoder.encode(Support.sample(0))))
        bytes[row.lowerBound + 2] ^= 0x01
        try bytes.write(to: file)

        let reopened = try MemoRepository(directory: directory)
        let error = await thrownError { try await reopened.loadAll() }

        try expectEqual(Data(contentsOf: file), bytes)
        guard case .corrupt(let named, _, let reason) = error as? MemoRepositoryError else {
            fail("expected a corrupt-row error, got \(String(describing: error))")
            return
        }
        expectEqual(named.lastPathComponent, file.lastPathComponent)
        expectTrue(reason.contains("checksum"), reason)

        // The repository stays open: the row is copied aside, and every other value reads.
        let recovery = try MemoRepository.recover(directory: directory)

        expectEqual(recovery.valuesKept, 2)
        expectEqual(recovery.setAside.count, 1)
        expectEqual(try await reopened.loadAll(), [Support.sample(1), Support.sample(2)])
        expectTrue(try MemoRepository.recover(directory: directory).wasSound)
        await reopened.close()
    }

    func testATableFromANewerSchemaIsRefused() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        try await MemoRepository(directory: directory).close()
        let file = directory.appendingPathComponent(Support.storeFileName)
        let newer = MemoRepository.schemaVersion + 1
        // A newer app migrates every row it opens: a version recorded above every row's is
        // damage, which opening writes again.
        try StoredRows.insert(
            [Support.sample(0)], ids: [Support.sample(0).id], version: newer,
            into: MemoRepository.tableName, in: file)
        try StoredRows.execute("UPDATE store_tables SET version = \(newer)", in: file)

        let error = thrownError { try MemoRepository(directory: directory) }

        expectEqual(
            error as? MemoRepositoryError,
            .newerSchema(file: file, found: newer, supported: MemoRepository.schemaVersion))
    }

    func testAQueryFiltersSortsAndPagesInSQL() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try MemoRepository(directory: directory)
        try await repository.save(contentsOf: (0..<30).map { Support.sample($0) })
        let all = try await repository.loadAll()
        let pivot = all[10].id

        let query = Support.Query()
            .filter(Support.Fields.id.isGreater(than: pivot))
            .sorted(by: Support.Fields.id, descending: true)

        let expected = Array(all.suffix(19).reversed())
        expectEqual(try await repository.loadAll(query), expected)
        expectEqual(try await repository.count(query), 19)
        expectEqual(try await repository.loadAll(query.limit(5, offset: 2)), Array(expected[2..<7]))
        let next = query.after(expected[6]).limit(3)
        expectEqual(try await repository.loadAll(next), Array(expected[7..<10]))
        // Each field is found by its stored value, as SQL reads it from the row's JSON.
        do {
            let wanted = Support.sample(3).title
            let found = try await repository.loadAll(
                Support.Query().filter(Support.Fields.title.isEqual(to: wanted)))
            expectTrue(found.contains(Support.sample(3)), "title")
            expectTrue(found.allSatisfy { $0.title == wanted }, "title")
        }
        // Each field is found by its stored value, as SQL reads it from the row's JSON.
        do {
            let wanted = Support.sample(3).due
            let found = try await repository.loadAll(
                Support.Query().filter(Support.Fields.due.isEqual(to: wanted)))
            expectTrue(found.contains(Support.sample(3)), "due")
            expectTrue(found.allSatisfy { $0.due == wanted }, "due")
        }
        // Each field is found by its stored value, as SQL reads it from the row's JSON.
        do {
            let wanted = Support.sample(3).kind
            let found = try await repository.loadAll(
                Support.Query().filter(Support.Fields.kind.isEqual(to: wanted)))
            expectTrue(found.contains(Support.sample(3)), "kind")
            expectTrue(found.allSatisfy { $0.kind == wanted }, "kind")
        }
    }

    @MainActor func testAViewModelShowsAWindowAndLoadsMoreAsValuesChange() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try MemoRepository(directory: directory)
        try await repository.save(contentsOf: (0..<25).map { Support.sample($0) })
        let newestFirst = Support.Query().sorted(by: Support.Fields.id, descending: true)
        let numbers = (0..<25).sorted {
            MemoRepository.precedes(Support.sample($1).id, Support.sample($0).id)
        }
        let viewModel = MemoListViewModel(
            repository: repository, query: newestFirst, pageSize: 10)
        await viewModel.load()
        expectEqual(viewModel.memos, numbers.prefix(10).map { Support.sample($0) })
        expectTrue(viewModel.hasMore)

        // A value shown is deleted (the next one takes its place), one changes in place, one
        // beyond the window waits for its page.
        try await repository.delete(Support.sample(numbers[0]).id)
        try await repository.save(Support.sample(numbers[1], revision: 1))
        try await repository.save(Support.sample(numbers[20], revision: 1))

        let shown =
            [Support.sample(numbers[1], revision: 1)] + numbers[2..<11].map { Support.sample($0) }
        let caughtUp = await Support.eventually { viewModel.memos == shown }
        expectTrue(caughtUp, "\(viewModel.memos)")
        for _ in 0..<10 where viewModel.hasMore {
            await viewModel.loadMore()
        }
        expectEqual(viewModel.memos, try await repository.loadAll(newestFirst))
        expectEqual(viewModel.memos.count, 24)
        expectNil(viewModel.error)
    }

    @MainActor func testDeletingEveryValueShownShowsTheNextOnes() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try MemoRepository(directory: directory)
        try await repository.save(contentsOf: (0..<25).map { Support.sample($0) })
        let viewModel = MemoListViewModel(repository: repository, pageSize: 10)
        await viewModel.load()
        let all = try await repository.loadAll()

        // As another process would: the repository, not the view-model, deletes them.
        try await repository.delete(ids: all.prefix(10).map(\.id))

        let refilled = await Support.eventually {
            viewModel.memos == Array(all[10..<20])
        }
        expectTrue(refilled, "\(viewModel.memos)")
        expectTrue(viewModel.hasMore)
        // Deleting them all leaves the list empty and complete.
        try await repository.delete(ids: all[10...].map(\.id))
        let emptied = await Support.eventually {
            viewModel.memos.isEmpty && !viewModel.hasMore
        }
        expectTrue(emptied, "\(viewModel.memos) \(viewModel.hasMore)")
        expectNil(viewModel.error)
    }

    @MainActor func testWindowsEndAsTheStoreEndsWhateverTheInterleaving() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try MemoRepository(directory: directory)
        let first = MemoListViewModel(repository: repository, pageSize: 2)
        let second = MemoListViewModel(
            repository: repository,
            query: Support.Query().sorted(by: Support.Fields.id, descending: true),
            pageSize: 3)
        await first.load()
        await second.load()

        // Adds, deletes, direct saves and pages read on eight ids, all at once.
        await withTaskGroup(of: Void.self) { group in
            for step in 0..<60 {
                group.addTask { await first.add(Support.sample(step % 8, revision: step)) }
                group.addTask { await second.delete(Support.sample((step + 3) % 8).id) }
                group.addTask {
                    try? await repository.save(Support.sample((step + 5) % 8, revision: step))
                }
                if step % 10 == 0 {
                    group.addTask { await first.loadMore() }
                    group.addTask { await second.loadMore() }
                }
            }
        }
        for viewModel in [first, second] {
            for _ in 0..<10 where viewModel.hasMore {
                await viewModel.loadMore()
            }
        }

        let stored = try await repository.loadAll()
        let firstCaughtUp = await Support.eventually { first.memos == stored }
        expectTrue(firstCaughtUp, "\(first.memos) != \(stored)")
        let secondCaughtUp = await Support.eventually { second.memos == stored.reversed() }
        expectTrue(secondCaughtUp, "\(second.memos) != \(stored)")
    }

    func testASecondRepositoryOnTheFolderSharesTheDatabase() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let first = try MemoRepository(directory: directory)
        let second = try MemoRepository(directory: directory)

        try await first.save(Support.sample(1))
        try await second.save(Support.sample(2))

        // Each reads what the other committed: another process (a widget, an extension) would too.
        expectEqual(Set(try await first.loadAll()), [Support.sample(1), Support.sample(2)])
        expectEqual(try await second.find(by: Support.sample(1).id), Support.sample(1))
    }

    func testASuspendedRepositoryHoldsNoConnectionAndResumesWithItsChanges()
        async throws
    {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try MemoRepository(directory: directory)
        try await repository.save(Support.sample(1))
        let changes = await repository.changes()

        await repository.suspend()
        let error = await thrownError { try await repository.find(by: Support.sample(1).id) }
        expectEqual(error as? MemoRepositoryError, .suspended)
        let other = try MemoRepository(directory: directory)
        try await other.save(Support.sample(2))

        try await repository.resume()

        expectEqual(try await repository.count, 2)
        // What another repository saved meanwhile reaches changes() once it resumes.
        expectEqual(await Support.first(1, of: changes), [.saved([Support.sample(2)])])
    }

    func testEveryObserverGetsEachChangeOnceItIsDurable() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try MemoRepository(directory: directory)
        let first = await repository.changes()
        let second = await repository.changes()

        try await repository.save(Support.sample(1))
        try await repository.delete(Support.sample(1).id)
        try await repository.save(contentsOf: [Support.sample(2), Support.sample(3)])
        try await repository.removeAll()
        await repository.close()
        try? await repository.save(Support.sample(4))  // Fails: publishes nothing.

        let expected: [MemoRepository.Change] = [
            .saved([Support.sample(1)]), .deleted([Support.sample(1).id]),
            .saved([Support.sample(2), Support.sample(3)]), .removedAll,
        ]
        expectEqual(await Support.first(5, of: first, within: 0.3), expected)
        expectEqual(await Support.first(4, of: second), expected)
    }

    func testACancelledObserverStopsAndIsForgotten() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try MemoRepository(directory: directory)
        let changes = await repository.changes()
        let observer = Task {
            var received = 0
            for await _ in changes { received += 1 }
            return received
        }
        try await repository.save(Support.sample(1))

        observer.cancel()

        let received = await observer.value
        expectTrue(received <= 1, "received \(received) changes")
        var remaining = await repository.observerCount
        for _ in 0..<2000 where remaining > 0 {
            try await Task.sleep(nanoseconds: 1_000_000)
            remaining = await repository.observerCount
        }
        expectEqual(remaining, 0)
        try await repository.save(Support.sample(2))
    }

    func testSharedGivesEveryCallerTheSameRepositoryPerFolder() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let first = try await MemoRepository.shared(in: directory)
        let second = try await MemoRepository.shared(
            in: directory.appendingPathComponent("other/.."))

        try await first.save(Support.sample(1))

        expectTrue(first === second)
        expectEqual(try await second.find(by: Support.sample(1).id), Support.sample(1))
        await first.close()
        let reopened = try await MemoRepository.shared(in: directory)
        expectTrue(reopened !== first)
        try await reopened.save(Support.sample(2))
        expectEqual(try await reopened.count, 2)
    }

    @MainActor func testTwoViewModelsAndADirectSaveStayInStep() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try MemoRepository(directory: directory)
        let list = MemoListViewModel(repository: repository)
        let detail = MemoListViewModel(repository: repository)
        await list.load()
        await detail.load()

        await list.add(Support.sample(1))
        await detail.add(Support.sample(2))
        try await repository.save(Support.sample(3))
        await list.delete(Support.sample(1).id)
        await detail.add(Support.sample(2, revision: 1))

        let expected = [Support.sample(2, revision: 1), Support.sample(3)]
        let listCaughtUp = await Support.eventually { list.memos == expected }
        expectTrue(listCaughtUp, "\(list.memos)")
        let detailCaughtUp = await Support.eventually { detail.memos == expected }
        expectTrue(detailCaughtUp, "\(detail.memos)")
    }

    @MainActor func testAViewModelUpdatesAndDeletesAtOffsets() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try MemoRepository(directory: directory)
        try await repository.save(contentsOf: (0..<4).map { Support.sample($0) })
        let viewModel = MemoListViewModel(repository: repository)
        await viewModel.load()

        await viewModel.update(id: Support.sample(1).id) { $0 = Support.sample(1, revision: 1) }
        await viewModel.delete(atOffsets: [0, 2])

        let expected = [Support.sample(1, revision: 1), Support.sample(3)]
        expectEqual(viewModel.memos, expected)
        expectEqual(try await repository.loadAll(), expected)
        expectNil(viewModel.error)

        // What `onDelete(perform:)` calls (the synchronous form): the id at offset 0 is taken at
        // once, so a value saved elsewhere at the top of the list before the delete's task runs
        // is not the one deleted.
        let onDelete: (IndexSet) -> Void = viewModel.delete(atOffsets:)
        onDelete([0])
        try await repository.save(Support.sample(0))
        for _ in 0..<10_000 {
            guard try await repository.find(by: Support.sample(1).id) != nil else { break }
            await Task.yield()
        }
        expectEqual(try await repository.loadAll(), [Support.sample(0), Support.sample(3)])
    }

    @MainActor func testAnInMemoryRepositoryKeepsItsChangesWithoutAFile() async throws {
        let repository = MemoRepository.inMemory([Support.sample(2), Support.sample(1)])
        let viewModel = MemoListViewModel(repository: repository)
        await viewModel.load()

        try await repository.save(Support.sample(3))
        try await repository.delete(Support.sample(1).id)

        expectEqual(try await repository.loadAll(), [Support.sample(2), Support.sample(3)])
        expectTrue(
            await Support.eventually {
                viewModel.memos == [Support.sample(2), Support.sample(3)]
            })
        // Nothing can be created below /dev/null.
        expectEqual(repository.directory.path, "/dev/null")
    }

    @MainActor func testAPreviewViewModelShowsItsValuesAtOnceAndFollowsChanges() async {
        let viewModel = MemoListViewModel.preview([Support.sample(2), Support.sample(1)])
        expectEqual(viewModel.memos, [Support.sample(1), Support.sample(2)])

        await viewModel.add(Support.sample(3))
        await viewModel.delete(Support.sample(1).id)

        expectEqual(viewModel.memos, [Support.sample(2), Support.sample(3)])
        expectNil(viewModel.error)
    }

    @MainActor func testViewModelLoadsAddsAndDeletes() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try MemoRepository(directory: directory)
        try await repository.save(Support.sample(1))
        let viewModel = MemoListViewModel(repository: repository)

        await viewModel.load()
        expectEqual(viewModel.memos, [Support.sample(1)])

        await viewModel.add(Support.sample(2))
        expectEqual(viewModel.memos, [Support.sample(1), Support.sample(2)])

        await viewModel.delete(Support.sample(1).id)
        expectEqual(viewModel.memos, [Support.sample(2)])
        expectNil(viewModel.error)
    }

    @MainActor func testViewModelReportsAFailedSave() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try MemoRepository(directory: directory)
        let viewModel = MemoListViewModel(repository: repository)
        await repository.close()

        await viewModel.add(Support.sample(1))

        expectEqual(viewModel.error as? MemoRepositoryError, .closed)
        expectEqual(viewModel.memos, [])
    }

    // MARK: - Assertions

    // The scenarios above assert through these helpers; the Swift Testing suite defines the same
    // ones. Each takes the caller's file and line, so that a failure points at the scenario's line.

    private func expectEqual<T: Equatable>(
        _ actual: T, _ expected: T, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(actual, expected, file: file, line: line)
    }

    private func expectTrue(
        _ condition: Bool, _ message: String? = nil, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertTrue(condition, message ?? "", file: file, line: line)
    }

    private func expectNil<T>(_ value: T?, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertNil(value, file: file, line: line)
    }

    private func unwrap<T>(
        _ value: T?, file: StaticString = #filePath, line: UInt = #line
    ) throws -> T {
        try XCTUnwrap(value, file: file, line: line)
    }

    private func fail(_ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTFail(message, file: file, line: line)
    }

    /// The error `body` throws; nil, and a failure recorded, when it throws none.
    private func thrownError<T>(
        _ body: () throws -> T, file: StaticString = #filePath, line: UInt = #line
    ) -> (any Error)? {
        var thrown: (any Error)?
        XCTAssertThrowsError(try body(), file: file, line: line) { thrown = $0 }
        return thrown
    }

    /// The error `body` throws; nil, and a failure recorded, when it throws none.
    private func thrownError<T>(
        _ body: () async throws -> T, file: StaticString = #filePath, line: UInt = #line
    ) async -> (any Error)? {
        do {
            _ = try await body()
        } catch {
            return error
        }
        XCTFail("expected an error, but none was thrown", file: file, line: line)
        return nil
    }
}
