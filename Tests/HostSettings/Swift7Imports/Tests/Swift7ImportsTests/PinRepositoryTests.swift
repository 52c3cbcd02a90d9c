import Foundation
import Observation
import Swift7Imports
import Testing

import struct Swift7Imports.Memo
import struct Swift7Imports.Pin

/// The behaviour of ``PinRepository`` and ``PinListViewModel``, in Swift Testing.
@Suite nonisolated struct PinRepositoryTests {
    private typealias Support = PinTestSupport

    @Test func testSaveThenFind() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)

        try await repository.save(Support.sample(1))

        expectEqual(try await repository.find(by: Support.sample(1).id), Support.sample(1))
        expectNil(try await repository.find(by: Support.sample(2).id))
    }

    @Test func testNilInAnOptionalFieldIsReadBackAfterReopening() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
        var value = Support.sample(1)
        value.noteID = nil

        try await repository.save(value)
        expectEqual(try await repository.find(by: value.id), value)
        await repository.close()

        let reopened = try PinRepository(directory: directory)
        expectEqual(try await reopened.find(by: value.id), value)
    }

    @Test func testSaveWithSameIDReplaces() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)

        try await repository.save(Support.sample(1))
        try await repository.save(Support.sample(1, revision: 1))

        let found = try await repository.find(by: Support.sample(1).id)
        expectEqual(found, Support.sample(1, revision: 1))
        expectEqual(try await repository.count, 1)
    }

    @Test func testDeleteRemoves() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
        try await repository.save(Support.sample(1))
        try await repository.save(Support.sample(2))

        try await repository.delete(Support.sample(1).id)

        expectEqual(try await repository.loadAll(), [Support.sample(2)])
    }

    @Test func testReopeningAfterManySavesAndDeletesKeepsEverything() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
        for number in 0..<50 {
            try await repository.save(Support.sample(number))
        }
        for number in stride(from: 0, to: 50, by: 3) {
            try await repository.delete(Support.sample(number).id)
        }
        try await repository.save(contentsOf: (40..<60).map { Support.sample($0, revision: 1) })
        let before = try await repository.loadAll()
        await repository.close()

        let reopened = try PinRepository(directory: directory)

        let after = try await reopened.loadAll()
        expectEqual(after, before)
        expectEqual(after.count, 46)
    }

    @Test func testConcurrentSavesAllLand() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)

        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<100 {
                group.addTask { try await repository.save(Support.sample(number)) }
            }
            try await group.waitForAll()
        }

        expectEqual(try await repository.count, 100)
        await repository.close()
        let reopened = try PinRepository(directory: directory)
        expectEqual(try await reopened.count, 100)
    }

    @Test func testBatchSaveDeleteAndRemoveAll() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)

        try await repository.save(contentsOf: (0..<10).map { Support.sample($0) })
        try await repository.delete(ids: [0, 1, 2, 99].map { Support.sample($0).id })

        expectEqual(try await repository.loadAll(), (3..<10).map { Support.sample($0) })
        try await repository.removeAll()
        expectEqual(try await repository.count, 0)
        await repository.close()
        let reopened = try PinRepository(directory: directory)
        expectEqual(try await reopened.count, 0)
    }

    @Test func testLoadAllIsSortedByID() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
        for number in [3, 1, 2, 10] {
            try await repository.save(Support.sample(number))
        }

        let ids = try await repository.loadAll().map(\.id)

        expectEqual(ids, ids.sorted())
        expectEqual(ids.count, 4)
    }

    @Test func testManyValuesSavedAndDeletedInAnyOrderStayInIDOrder() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
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
            .sorted { PinRepository.precedes($0.id, $1.id) }
        expectEqual(try await repository.loadAll(), expected)
        expectEqual(try await repository.count, expected.count)
        expectEqual(try await repository.find(by: Support.sample(1999).id), Support.sample(1999))
        expectNil(try await repository.find(by: Support.sample(999).id))
        await repository.close()
        expectEqual(try await PinRepository(directory: directory).loadAll(), expected)
    }

    @Test func testUpdateChangesOneValueDurablyAndQueriesFilter() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
        try await repository.save(contentsOf: (0..<4).map { Support.sample($0) })
        let id = Support.sample(2).id

        let updated = try await repository.update(id: id) { $0 = Support.sample(2, revision: 1) }
        let missing = try await repository.update(id: Support.sample(9).id) { _ in }

        expectTrue(updated)
        expectTrue(!missing)
        expectEqual(try await repository.count(where: { $0.id == id }), 1)
        expectEqual(try await repository.loadAll(where: { $0.id != id }).count, 3)
        await repository.close()
        let reopened = try PinRepository(directory: directory)
        expectEqual(try await reopened.find(by: id), Support.sample(2, revision: 1))
        expectEqual(try await reopened.count, 4)
    }

    @Test func testMissingFilesAreAnEmptyStore() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }

        let repository = try PinRepository(
            directory: directory.appendingPathComponent("new"))

        expectEqual(try await repository.count, 0)
    }

    @Test func testCorruptFileThrowsAndIsKept() throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let file = directory.appendingPathComponent(Support.storeFileName)
        let damaged = Data("[{\"not\": \"a Pin\"".utf8)
        try damaged.write(to: file)

        let error = thrownError { try PinRepository(directory: directory) }

        try expectEqual(Data(contentsOf: file), damaged)
        guard let failure = error as? PinRepositoryError,
            case .corrupt(let named, _, _) = failure
        else {
            fail("expected a corrupt-file error, got \(String(describing: error))")
            return
        }
        expectEqual(named.lastPathComponent, file.lastPathComponent)
        expectTrue(failure.description.contains(file.lastPathComponent), failure.description)
    }

    @Test func testAFileThatIsAFolderOrABrokenLinkIsUnreadable() throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let file = directory.appendingPathComponent(Support.storeFileName)
        // The database that holds the samples' referred values is not this test's file.
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createSymbolicLink(
            at: file, withDestinationURL: directory.appendingPathComponent("gone"))

        let linkError = thrownError { try PinRepository(directory: directory) }

        switch linkError as? PinRepositoryError {
        case .unreadable(let named, _):
            expectEqual(named.lastPathComponent, file.lastPathComponent)
        default:
            fail("expected an unreadable-file error, got \(String(describing: linkError))")
        }

        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        let folderError = thrownError { try PinRepository(directory: directory) }

        switch folderError as? PinRepositoryError {
        case .unreadable(let named, _):
            expectEqual(named.lastPathComponent, file.lastPathComponent)
        default:
            fail("expected an unreadable-file error, got \(String(describing: folderError))")
        }
    }

    @Test func testAFlippedByteInARowIsFoundByItsChecksumAndRecoverSetsItAside() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
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

        let reopened = try PinRepository(directory: directory)
        let error = await thrownError { try await reopened.loadAll() }

        try expectEqual(Data(contentsOf: file), bytes)
        guard case .corrupt(let named, _, let reason) = error as? PinRepositoryError else {
            fail("expected a corrupt-row error, got \(String(describing: error))")
            return
        }
        expectEqual(named.lastPathComponent, file.lastPathComponent)
        expectTrue(reason.contains("checksum"), reason)

        // The repository stays open: the row is copied aside, and every other value reads.
        let recovery = try PinRepository.recover(directory: directory)

        expectEqual(recovery.valuesKept, 2)
        expectEqual(recovery.setAside.count, 1)
        expectEqual(try await reopened.loadAll(), [Support.sample(1), Support.sample(2)])
        expectTrue(try PinRepository.recover(directory: directory).wasSound)
        await reopened.close()
    }

    @Test func testATableFromANewerSchemaIsRefused() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        try await PinRepository(directory: directory).close()
        let file = directory.appendingPathComponent(Support.storeFileName)
        let newer = PinRepository.schemaVersion + 1
        // A newer app migrates every row it opens: a version recorded above every row's is
        // damage, which opening writes again.
        try StoredRows.insert(
            [Support.sample(0)], ids: [Support.sample(0).id], version: newer,
            into: PinRepository.tableName, in: file)
        try StoredRows.execute("UPDATE store_tables SET version = \(newer)", in: file)

        let error = thrownError { try PinRepository(directory: directory) }

        expectEqual(
            error as? PinRepositoryError,
            .newerSchema(file: file, found: newer, supported: PinRepository.schemaVersion))
    }

    @Test func testAQueryFiltersSortsAndPagesInSQL() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
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
            let wanted = Support.sample(3).memoID
            let found = try await repository.loadAll(
                Support.Query().filter(Support.Fields.memoID.isEqual(to: wanted)))
            expectTrue(found.contains(Support.sample(3)), "memoID")
            expectTrue(found.allSatisfy { $0.memoID == wanted }, "memoID")
        }
        // Each field is found by its stored value, as SQL reads it from the row's JSON.
        do {
            let wanted = Support.sample(3).label
            let found = try await repository.loadAll(
                Support.Query().filter(Support.Fields.label.isEqual(to: wanted)))
            expectTrue(found.contains(Support.sample(3)), "label")
            expectTrue(found.allSatisfy { $0.label == wanted }, "label")
        }
        // Each field is found by its stored value, as SQL reads it from the row's JSON.
        do {
            let wanted = Support.sample(3).rank
            let found = try await repository.loadAll(
                Support.Query().filter(Support.Fields.rank.isEqual(to: wanted)))
            expectTrue(found.contains(Support.sample(3)), "rank")
            expectTrue(found.allSatisfy { $0.rank == wanted }, "rank")
        }
        // Each field is found by its stored value, as SQL reads it from the row's JSON.
        do {
            let wanted = Support.sample(3).noteID
            let found = try await repository.loadAll(
                Support.Query().filter(Support.Fields.noteID.isEqual(to: wanted)))
            expectTrue(found.contains(Support.sample(3)), "noteID")
            expectTrue(found.allSatisfy { $0.noteID == wanted }, "noteID")
        }
    }

    @Test @MainActor func testAViewModelShowsAWindowAndLoadsMoreAsValuesChange() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
        try await repository.save(contentsOf: (0..<25).map { Support.sample($0) })
        let newestFirst = Support.Query().sorted(by: Support.Fields.id, descending: true)
        let numbers = (0..<25).sorted {
            PinRepository.precedes(Support.sample($1).id, Support.sample($0).id)
        }
        let viewModel = PinListViewModel(
            repository: repository, query: newestFirst, pageSize: 10)
        await viewModel.load()
        expectEqual(viewModel.pins, numbers.prefix(10).map { Support.sample($0) })
        expectTrue(viewModel.hasMore)

        // A value shown is deleted (the next one takes its place), one changes in place, one
        // beyond the window waits for its page.
        try await repository.delete(Support.sample(numbers[0]).id)
        try await repository.save(Support.sample(numbers[1], revision: 1))
        try await repository.save(Support.sample(numbers[20], revision: 1))

        let shown =
            [Support.sample(numbers[1], revision: 1)] + numbers[2..<11].map { Support.sample($0) }
        let caughtUp = await Support.eventually { viewModel.pins == shown }
        expectTrue(caughtUp, "\(viewModel.pins)")
        for _ in 0..<10 where viewModel.hasMore {
            await viewModel.loadMore()
        }
        expectEqual(viewModel.pins, try await repository.loadAll(newestFirst))
        expectEqual(viewModel.pins.count, 24)
        expectNil(viewModel.error)
    }

    @Test @MainActor func testDeletingEveryValueShownShowsTheNextOnes() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
        try await repository.save(contentsOf: (0..<25).map { Support.sample($0) })
        let viewModel = PinListViewModel(repository: repository, pageSize: 10)
        await viewModel.load()
        let all = try await repository.loadAll()

        // As another process would: the repository, not the view-model, deletes them.
        try await repository.delete(ids: all.prefix(10).map(\.id))

        let refilled = await Support.eventually {
            viewModel.pins == Array(all[10..<20])
        }
        expectTrue(refilled, "\(viewModel.pins)")
        expectTrue(viewModel.hasMore)
        // Deleting them all leaves the list empty and complete.
        try await repository.delete(ids: all[10...].map(\.id))
        let emptied = await Support.eventually {
            viewModel.pins.isEmpty && !viewModel.hasMore
        }
        expectTrue(emptied, "\(viewModel.pins) \(viewModel.hasMore)")
        expectNil(viewModel.error)
    }

    @Test @MainActor func testWindowsEndAsTheStoreEndsWhateverTheInterleaving() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
        let first = PinListViewModel(repository: repository, pageSize: 2)
        let second = PinListViewModel(
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
        let firstCaughtUp = await Support.eventually { first.pins == stored }
        expectTrue(firstCaughtUp, "\(first.pins) != \(stored)")
        let secondCaughtUp = await Support.eventually { second.pins == stored.reversed() }
        expectTrue(secondCaughtUp, "\(second.pins) != \(stored)")
    }

    @Test func testAMemoIDThatNamesNothingIsNotSaved() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
        var stray = Support.sample(2)
        stray.memoID = MemoTestSupport.sample(7).id

        let error = await thrownError { try await repository.save(stray) }

        expectEqual(
            error as? PinRepositoryError,
            .missingReference(field: "memoID", id: "\(MemoTestSupport.sample(7).id)"))
        expectNil(try await repository.find(by: stray.id))
    }

    @Test func testDeletingWhatMemoIDNamesFollowsItsRulecascade() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
        // Samples of revision 0 refer to sample 0 of the model they refer to.
        let referring = (2..<5).map { number in
            var value = Support.sample(number)
            // The other references name sample 1, so that only this one's rule applies.
            value.noteID = MemoTestSupport.sample(1).id
            return value
        }
        try await repository.save(contentsOf: referring)
        let changes = await repository.changes()
        let referred = try MemoRepository(directory: directory)

        try await referred.delete(MemoTestSupport.sample(0).id)

        expectEqual(try await repository.count, 0)
        // The repository hears of the cascade, as its view-models do.
        let heard = await Support.first(1, of: changes)
        guard case .deleted(let ids)? = heard.first else {
            fail("expected the cascade's deletes, got \(heard)")
            return
        }
        expectEqual(Set(ids), Set(referring.map(\.id)))
    }

    @Test func testANoteIDThatNamesNothingIsNotSaved() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
        var stray = Support.sample(2)
        stray.noteID = MemoTestSupport.sample(7).id

        let error = await thrownError { try await repository.save(stray) }

        expectEqual(
            error as? PinRepositoryError,
            .missingReference(field: "noteID", id: "\(MemoTestSupport.sample(7).id)"))
        expectNil(try await repository.find(by: stray.id))
    }

    @Test func testDeletingWhatNoteIDNamesFollowsItsRulenullify() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
        // Samples of revision 0 refer to sample 0 of the model they refer to.
        let referring = (2..<5).map { number in
            var value = Support.sample(number)
            // The other references name sample 1, so that only this one's rule applies.
            value.memoID = MemoTestSupport.sample(1).id
            return value
        }
        try await repository.save(contentsOf: referring)
        let changes = await repository.changes()
        let referred = try MemoRepository(directory: directory)

        try await referred.delete(MemoTestSupport.sample(0).id)

        expectEqual(try await repository.count, 3)
        let kept = try unwrap(try await repository.find(by: referring[0].id))
        expectNil(kept.noteID)
        // The repository hears of the change, as its view-models do.
        let heard = await Support.first(1, of: changes)
        guard case .saved(let values)? = heard.first else {
            fail("expected the nullified values, got \(heard)")
            return
        }
        expectEqual(Set(values.map(\.id)), Set(referring.map(\.id)))
        expectTrue(values.allSatisfy { $0.noteID == nil })
    }

    @Test func testTheLookupByMemoIDFindsWhatAScanFinds() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
        try await repository.save(contentsOf: (2..<8).map { Support.sample($0, revision: $0 % 2) })
        let wanted = try unwrap(Support.sample(3, revision: 1).memoID)

        let found = try await repository.pins(inMemo: wanted)

        expectEqual(found, try await repository.loadAll().filter { $0.memoID == wanted })
        expectTrue(!found.isEmpty)
        let page = try await repository.pins(inMemo: wanted, Support.Query().limit(1))
        expectEqual(page, Array(found.prefix(1)))
    }

    @Test func testASecondValueWithTheLabelOfAnotherIsNotSaved() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
        try await repository.save(Support.sample(2))
        var second = Support.sample(3)
        second.label = Support.sample(2).label

        let error = await thrownError { try await repository.save(second) }

        guard case .notUnique(let field, _)? = error as? PinRepositoryError else {
            fail("expected a notUnique error, got \(String(describing: error))")
            return
        }
        expectEqual(field, "label")
        expectNil(try await repository.find(by: second.id))
        // The same value saved again is not a second one.
        try await repository.save(Support.sample(2, revision: 0))
        let taken = try unwrap(Support.sample(2).label)
        expectEqual(try await repository.find(byLabel: taken), Support.sample(2))
    }

    @Test func testTheLookupByRankFindsWhatAScanFinds() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
        try await repository.save(contentsOf: (2..<8).map { Support.sample($0, revision: $0 % 2) })
        let wanted = try unwrap(Support.sample(3, revision: 1).rank)

        let found = try await repository.pins(withRank: wanted)

        expectEqual(found, try await repository.loadAll().filter { $0.rank == wanted })
        expectTrue(!found.isEmpty)
        let page = try await repository.pins(withRank: wanted, Support.Query().limit(1))
        expectEqual(page, Array(found.prefix(1)))
    }

    @Test func testTheLookupByNoteIDFindsWhatAScanFinds() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
        try await repository.save(contentsOf: (2..<8).map { Support.sample($0, revision: $0 % 2) })
        let wanted = try unwrap(Support.sample(3, revision: 1).noteID)

        let found = try await repository.pins(inNote: wanted)

        expectEqual(found, try await repository.loadAll().filter { $0.noteID == wanted })
        expectTrue(!found.isEmpty)
        let page = try await repository.pins(inNote: wanted, Support.Query().limit(1))
        expectEqual(page, Array(found.prefix(1)))
    }

    @Test func testASecondRepositoryOnTheFolderSharesTheDatabase() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let first = try PinRepository(directory: directory)
        let second = try PinRepository(directory: directory)

        try await first.save(Support.sample(1))
        try await second.save(Support.sample(2))

        // Each reads what the other committed: another process (a widget, an extension) would too.
        expectEqual(Set(try await first.loadAll()), [Support.sample(1), Support.sample(2)])
        expectEqual(try await second.find(by: Support.sample(1).id), Support.sample(1))
    }

    @Test func testASuspendedRepositoryHoldsNoConnectionAndResumesWithItsChanges()
        async throws
    {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
        try await repository.save(Support.sample(1))
        let changes = await repository.changes()

        await repository.suspend()
        let error = await thrownError { try await repository.find(by: Support.sample(1).id) }
        expectEqual(error as? PinRepositoryError, .suspended)
        let other = try PinRepository(directory: directory)
        try await other.save(Support.sample(2))

        try await repository.resume()

        expectEqual(try await repository.count, 2)
        // What another repository saved meanwhile reaches changes() once it resumes.
        expectEqual(await Support.first(1, of: changes), [.saved([Support.sample(2)])])
    }

    @Test func testEveryObserverGetsEachChangeOnceItIsDurable() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
        let first = await repository.changes()
        let second = await repository.changes()

        try await repository.save(Support.sample(1))
        try await repository.delete(Support.sample(1).id)
        try await repository.save(contentsOf: [Support.sample(2), Support.sample(3)])
        try await repository.removeAll()
        await repository.close()
        try? await repository.save(Support.sample(4))  // Fails: publishes nothing.

        let expected: [PinRepository.Change] = [
            .saved([Support.sample(1)]), .deleted([Support.sample(1).id]),
            .saved([Support.sample(2), Support.sample(3)]), .removedAll,
        ]
        expectEqual(await Support.first(5, of: first, within: 0.3), expected)
        expectEqual(await Support.first(4, of: second), expected)
    }

    @Test func testACancelledObserverStopsAndIsForgotten() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
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

    @Test func testSharedGivesEveryCallerTheSameRepositoryPerFolder() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let first = try await PinRepository.shared(in: directory)
        let second = try await PinRepository.shared(
            in: directory.appendingPathComponent("other/.."))

        try await first.save(Support.sample(1))

        expectTrue(first === second)
        expectEqual(try await second.find(by: Support.sample(1).id), Support.sample(1))
        await first.close()
        let reopened = try await PinRepository.shared(in: directory)
        expectTrue(reopened !== first)
        try await reopened.save(Support.sample(2))
        expectEqual(try await reopened.count, 2)
    }

    @Test @MainActor func testTwoViewModelsAndADirectSaveStayInStep() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
        let list = PinListViewModel(repository: repository)
        let detail = PinListViewModel(repository: repository)
        await list.load()
        await detail.load()

        await list.add(Support.sample(1))
        await detail.add(Support.sample(2))
        try await repository.save(Support.sample(3))
        await list.delete(Support.sample(1).id)
        await detail.add(Support.sample(2, revision: 1))

        let expected = [Support.sample(2, revision: 1), Support.sample(3)]
        let listCaughtUp = await Support.eventually { list.pins == expected }
        expectTrue(listCaughtUp, "\(list.pins)")
        let detailCaughtUp = await Support.eventually { detail.pins == expected }
        expectTrue(detailCaughtUp, "\(detail.pins)")
    }

    @Test @MainActor func testAViewModelUpdatesAndDeletesAtOffsets() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
        try await repository.save(contentsOf: (0..<4).map { Support.sample($0) })
        let viewModel = PinListViewModel(repository: repository)
        await viewModel.load()

        await viewModel.update(id: Support.sample(1).id) { $0 = Support.sample(1, revision: 1) }
        await viewModel.delete(atOffsets: [0, 2])

        let expected = [Support.sample(1, revision: 1), Support.sample(3)]
        expectEqual(viewModel.pins, expected)
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

    @Test @MainActor func testAnInMemoryRepositoryKeepsItsChangesWithoutAFile() async throws {
        let repository = PinRepository.inMemory([Support.sample(2), Support.sample(1)])
        let viewModel = PinListViewModel(repository: repository)
        await viewModel.load()

        try await repository.save(Support.sample(3))
        try await repository.delete(Support.sample(1).id)

        expectEqual(try await repository.loadAll(), [Support.sample(2), Support.sample(3)])
        expectTrue(
            await Support.eventually {
                viewModel.pins == [Support.sample(2), Support.sample(3)]
            })
        // Nothing can be created below /dev/null.
        expectEqual(repository.directory.path, "/dev/null")
    }

    @Test @MainActor func testAPreviewViewModelShowsItsValuesAtOnceAndFollowsChanges() async {
        let viewModel = PinListViewModel.preview([Support.sample(2), Support.sample(1)])
        expectEqual(viewModel.pins, [Support.sample(1), Support.sample(2)])

        await viewModel.add(Support.sample(3))
        await viewModel.delete(Support.sample(1).id)

        expectEqual(viewModel.pins, [Support.sample(2), Support.sample(3)])
        expectNil(viewModel.error)
    }

    @Test @MainActor func testViewModelLoadsAddsAndDeletes() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
        try await repository.save(Support.sample(1))
        let viewModel = PinListViewModel(repository: repository)

        await viewModel.load()
        expectEqual(viewModel.pins, [Support.sample(1)])

        await viewModel.add(Support.sample(2))
        expectEqual(viewModel.pins, [Support.sample(1), Support.sample(2)])

        await viewModel.delete(Support.sample(1).id)
        expectEqual(viewModel.pins, [Support.sample(2)])
        expectNil(viewModel.error)
    }

    @Test @MainActor func testViewModelReportsAFailedSave() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try PinRepository(directory: directory)
        let viewModel = PinListViewModel(repository: repository)
        await repository.close()

        await viewModel.add(Support.sample(1))

        expectEqual(viewModel.error as? PinRepositoryError, .closed)
        expectEqual(viewModel.pins, [])
    }

    // MARK: - Assertions

    // The scenarios above assert through these helpers; the XCTest suite defines the same ones.
    // Each takes the caller's source location, so that a failure points at the scenario's line.

    private func expectEqual<T: Equatable>(
        _ actual: T, _ expected: T, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        #expect(actual == expected, sourceLocation: sourceLocation)
    }

    private func expectTrue(
        _ condition: Bool, _ message: String? = nil,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        #expect(
            condition, message.map(Testing.Comment.init(rawValue:)), sourceLocation: sourceLocation)
    }

    private func expectNil<T>(
        _ value: T?, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        #expect(value == nil, sourceLocation: sourceLocation)
    }

    private func unwrap<T>(
        _ value: T?, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> T {
        try #require(value, sourceLocation: sourceLocation)
    }

    private func fail(
        _ message: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        Testing.Issue.record(Testing.Comment(rawValue: message), sourceLocation: sourceLocation)
    }

    /// The error `body` throws; nil, and a failure recorded, when it throws none.
    private func thrownError<T>(
        _ body: () throws -> T, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> (any Error)? {
        #expect(throws: (any Error).self, sourceLocation: sourceLocation) { _ = try body() }
    }

    /// The error `body` throws; nil, and a failure recorded, when it throws none.
    private func thrownError<T>(
        _ body: () async throws -> T, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async -> (any Error)? {
        await #expect(throws: (any Error).self, sourceLocation: sourceLocation) {
            _ = try await body()
        }
    }
}
