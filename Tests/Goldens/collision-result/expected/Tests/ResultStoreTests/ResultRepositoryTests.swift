import Foundation
import Observation
import ResultStore
import Testing

import struct ResultStore.Result

/// The behaviour of ``ResultRepository`` and ``ResultListViewModel``, in Swift Testing.
@Suite nonisolated struct ResultRepositoryTests {
    private typealias Support = ResultTestSupport

    @Test func testSaveThenFind() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ResultRepository(directory: directory)

        try await repository.save(Support.sample(1))

        expectEqual(await repository.find(by: Support.sample(1).id), Support.sample(1))
        expectNil(await repository.find(by: Support.sample(2).id))
    }

    @Test func testSaveWithSameIDReplaces() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ResultRepository(directory: directory)

        try await repository.save(Support.sample(1))
        try await repository.save(Support.sample(1, revision: 1))

        let found = await repository.find(by: Support.sample(1).id)
        expectEqual(found, Support.sample(1, revision: 1))
        expectEqual(await repository.count, 1)
    }

    @Test func testDeleteRemoves() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ResultRepository(directory: directory)
        try await repository.save(Support.sample(1))
        try await repository.save(Support.sample(2))

        try await repository.delete(Support.sample(1).id)

        expectEqual(await repository.loadAll(), [Support.sample(2)])
    }

    @Test func testReopeningAfterManySavesAndDeletesKeepsEverything() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ResultRepository(directory: directory)
        for number in 0..<50 {
            try await repository.save(Support.sample(number))
        }
        for number in stride(from: 0, to: 50, by: 3) {
            try await repository.delete(Support.sample(number).id)
        }
        try await repository.save(contentsOf: (40..<60).map { Support.sample($0, revision: 1) })
        let before = await repository.loadAll()
        await repository.close()

        let reopened = try ResultRepository(directory: directory)

        let after = await reopened.loadAll()
        expectEqual(after, before)
        expectEqual(after.count, 46)
    }

    @Test func testConcurrentSavesAllLand() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ResultRepository(directory: directory)

        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<100 {
                group.addTask { try await repository.save(Support.sample(number)) }
            }
            try await group.waitForAll()
        }

        expectEqual(await repository.count, 100)
        await repository.close()
        let reopened = try ResultRepository(directory: directory)
        expectEqual(await reopened.count, 100)
    }

    @Test func testBatchSaveDeleteAndRemoveAll() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ResultRepository(directory: directory)

        try await repository.save(contentsOf: (0..<10).map { Support.sample($0) })
        try await repository.delete(ids: [0, 1, 2, 99].map { Support.sample($0).id })

        expectEqual(await repository.loadAll(), (3..<10).map { Support.sample($0) })
        try await repository.removeAll()
        expectEqual(await repository.count, 0)
        await repository.close()
        let reopened = try ResultRepository(directory: directory)
        expectEqual(await reopened.count, 0)
    }

    @Test func testLoadAllIsSortedByID() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ResultRepository(directory: directory)
        for number in [3, 1, 2, 10] {
            try await repository.save(Support.sample(number))
        }

        let ids = await repository.loadAll().map(\.id.uuidString)

        expectEqual(ids, ids.sorted())
        expectEqual(ids.count, 4)
    }

    @Test func testManyValuesSavedAndDeletedInAnyOrderStayInIDOrder() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ResultRepository(directory: directory)
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
            .sorted { ResultRepository.precedes($0.id, $1.id) }
        expectEqual(await repository.loadAll(), expected)
        expectEqual(await repository.count, expected.count)
        expectEqual(await repository.find(by: Support.sample(1999).id), Support.sample(1999))
        expectNil(await repository.find(by: Support.sample(999).id))
        await repository.close()
        expectEqual(try await ResultRepository(directory: directory).loadAll(), expected)
    }

    @Test func testUpdateChangesOneValueDurablyAndQueriesFilter() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ResultRepository(directory: directory)
        try await repository.save(contentsOf: (0..<4).map { Support.sample($0) })
        let id = Support.sample(2).id

        let updated = try await repository.update(id: id) { $0 = Support.sample(2, revision: 1) }
        let missing = try await repository.update(id: Support.sample(9).id) { _ in }

        expectTrue(updated)
        expectTrue(!missing)
        expectEqual(await repository.count(where: { $0.id == id }), 1)
        expectEqual(await repository.loadAll(where: { $0.id != id }).count, 3)
        await repository.close()
        let reopened = try ResultRepository(directory: directory)
        expectEqual(await reopened.find(by: id), Support.sample(2, revision: 1))
        expectEqual(await reopened.count, 4)
    }

    @Test func testMissingFilesAreAnEmptyStore() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }

        let repository = try ResultRepository(
            directory: directory.appendingPathComponent("new"))

        expectEqual(await repository.count, 0)
    }

    @Test func testCorruptFileThrowsAndIsKept() throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let file = directory.appendingPathComponent(Support.storeFileName)
        let damaged = Data("[{\"not\": \"a Result\"".utf8)
        try damaged.write(to: file)

        let error = thrownError { try ResultRepository(directory: directory) }

        try expectEqual(Data(contentsOf: file), damaged)
        guard let failure = error as? ResultRepositoryError,
            case .corrupt(let named, _, _) = failure
        else {
            fail("expected a corrupt-file error, got \(String(describing: error))")
            return
        }
        expectEqual(named.lastPathComponent, file.lastPathComponent)
        expectTrue(failure.description.contains(file.lastPathComponent), failure.description)
    }

    @Test func testAFlippedByteInTheFileIsFoundByItsChecksum() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ResultRepository(directory: directory)
        try await repository.save(contentsOf: (0..<3).map { Support.sample($0) })
        await repository.close()
        let file = directory.appendingPathComponent(Support.storeFileName)
        var bytes = try Data(contentsOf: file)
        // Any byte of the JSON: many flips, say a letter in a string, would still decode.
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: file)

        let error = thrownError { try ResultRepository(directory: directory) }

        try expectEqual(Data(contentsOf: file), bytes)
        guard case .corrupt(let named, _, let reason) = error as? ResultRepositoryError else {
            fail("expected a corrupt-file error, got \(String(describing: error))")
            return
        }
        expectEqual(named.lastPathComponent, file.lastPathComponent)
        expectTrue(reason.contains("checksum"), reason)
    }

    @Test func testRecoverKeepsEveryValueButTheOneADamagedByteHolds() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ResultRepository(directory: directory)
        try await repository.save(contentsOf: (0..<5).map { Support.sample($0) })
        let stored = await repository.loadAll()
        await repository.close()
        let file = directory.appendingPathComponent(Support.storeFileName)
        var bytes = try Data(contentsOf: file)
        // The third value's opening brace: where that value starts can no longer be found.
        let starts = bytes.indices.filter { bytes[$0...].starts(with: Data("\n    {".utf8)) }
        bytes[starts[2] + 5] = UInt8(ascii: "X")
        try bytes.write(to: file)
        _ = thrownError { try ResultRepository(directory: directory) }

        let recovery = try ResultRepository.recover(directory: directory)

        expectEqual(recovery.valuesKept, 4)
        expectEqual(recovery.stretchesSetAside, 1)
        try expectEqual(Data(contentsOf: unwrap(recovery.copy)), bytes)
        let reopened = try ResultRepository(directory: directory)
        expectEqual(
            await reopened.loadAll(), stored.enumerated().filter { $0.offset != 2 }.map(\.element))
    }

    @Test func testAFileWithoutAChecksumOpensAndIsRewrittenWithOne() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let file = directory.appendingPathComponent(Support.storeFileName)
        let values = (0..<3).map { Support.sample($0) }
        try Support.fileWithoutChecksum(values).write(to: file)

        let repository = try ResultRepository(directory: directory)

        expectEqual(await repository.loadAll(), values)
        let rewritten = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        expectEqual(rewritten.split(separator: "\n").last?.hasPrefix("crc32 "), true)
        await repository.close()
        let reopened = try ResultRepository(directory: directory)
        expectEqual(await reopened.loadAll(), values)
    }

    @Test func testAFileThatIsAFolderOrABrokenLinkIsUnreadable() throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let file = directory.appendingPathComponent(Support.storeFileName)
        try FileManager.default.createSymbolicLink(
            at: file, withDestinationURL: directory.appendingPathComponent("gone"))

        let linkError = thrownError { try ResultRepository(directory: directory) }

        switch linkError as? ResultRepositoryError {
        case .unreadable(let named, _):
            expectEqual(named.lastPathComponent, file.lastPathComponent)
        default:
            fail("expected an unreadable-file error, got \(String(describing: linkError))")
        }

        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        let folderError = thrownError { try ResultRepository(directory: directory) }

        switch folderError as? ResultRepositoryError {
        case .unreadable(let named, _):
            expectEqual(named.lastPathComponent, file.lastPathComponent)
        default:
            fail("expected an unreadable-file error, got \(String(describing: folderError))")
        }
    }

    @Test func testAFailedWriteKeepsTheValuesAndALaterWriteSucceeds() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ResultRepository(directory: directory)
        try await repository.save(contentsOf: (0..<3).map { Support.sample($0) })
        // A folder where the write must put a file makes it fail, as a full disk would.
        let blocker = try Support.blockWrites(in: directory)

        let error = await thrownError {
            try await repository.save(Support.sample(3))
        }

        switch error as? ResultRepositoryError {
        case .unwritable: break
        default: fail("expected an unwritable-file error, got \(String(describing: error))")
        }
        expectEqual(await repository.loadAll(), (0..<3).map { Support.sample($0) })
        expectEqual(Support.leftovers(in: directory), [])

        try FileManager.default.removeItem(at: blocker)
        try await repository.save(Support.sample(3))
        await repository.close()
        let reopened = try ResultRepository(directory: directory)
        expectEqual(await reopened.loadAll(), (0..<4).map { Support.sample($0) })
    }

    @Test func testASecondOpenerIsRefusedUntilTheFirstCloses() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let first = try ResultRepository(directory: directory)

        let error = thrownError { try ResultRepository(directory: directory) }

        switch error as? ResultRepositoryError {
        case .locked: break
        default: fail("expected a locked error, got \(String(describing: error))")
        }

        await first.close()
        // Opens now: an error thrown here fails the test.
        _ = try ResultRepository(directory: directory)
    }

    @Test func testAReaderOpensBesideTheWriterAndRefreshesToWhatItCommitted() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let writer = try ResultRepository(directory: directory)
        try await writer.save(Support.sample(1))

        // As a widget or an extension would, in another process: no lock, so no `.locked`.
        let reader = try ResultRepository(readingFrom: directory)
        let changes = await reader.changes()
        expectEqual(await reader.loadAll(), [Support.sample(1)])
        try await writer.save(Support.sample(2))
        try await writer.delete(Support.sample(1).id)

        try await reader.refresh()

        expectEqual(await reader.loadAll(), [Support.sample(2)])
        // Observed, it also refreshes by itself, every otherProcessesInterval.
        try await writer.save(Support.sample(3))
        let expected: Set<ResultRepository.Change> = [
            .saved([Support.sample(2)]), .deleted([Support.sample(1).id]),
            .saved([Support.sample(3)]),
        ]
        expectEqual(Set(await Support.first(3, of: changes, within: 5)), expected)
        let error = await thrownError { try await reader.save(Support.sample(3)) }
        switch error as? ResultRepositoryError {
        case .unwritable: break
        default: fail("expected an unwritable error, got \(String(describing: error))")
        }
    }

    @Test func testANewerBuildsFieldIsKeptWhenThisBuildWritesTheStoreAgain() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        // The file as a newer build of the app wrote it, with a field this build does not have:
        // an app extension not updated yet writes the same folder as the app.
        let stored = (0..<3).map { Support.sample($0) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let items = try stored.map {
            Data(#"{"fromANewerBuild":42,"#.utf8) + (try encoder.encode($0)).dropFirst()
        }
        var json = Data(#"{"items":["#.utf8)
        json.append(Data(items.joined(separator: Data(",".utf8))))
        json.append(Data(#"],"schemaVersion":\#(ResultRepository.schemaVersion)}"#.utf8))
        let file = directory.appendingPathComponent(Support.storeFileName)
        try json.write(to: file)

        let repository = try ResultRepository(directory: directory)
        try await repository.save(Support.sample(1, revision: 1))
        try await repository.delete(Support.sample(2).id)
        await repository.close()

        // Each value kept has it still, also the one this build saved: the newer build reads
        // its field where it left it.
        let written = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        expectEqual(written.components(separatedBy: #""fromANewerBuild":42"#).count, 3)
        let reopened = try ResultRepository(directory: directory)
        expectEqual(
            Set(await reopened.loadAll()), [Support.sample(0), Support.sample(1, revision: 1)])
    }

    @Test func testAStoreANewerBuildMovedToAnotherStorageIsRefused() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        // A newer build of the app moved Result to another storage: it imported the values
        // there and kept this build's file as `<name>.imported`. This build, still running (an
        // extension not updated yet), would see an empty store: its writer, its reader and its
        // recover refuse.
        let kept = directory.appendingPathComponent(Support.storeFileName + ".imported")
        try Data("kept".utf8).write(to: kept)

        let opens: [() throws -> Void] = [
            { _ = try ResultRepository(directory: directory) },
            { _ = try ResultRepository(readingFrom: directory) },
            { _ = try ResultRepository.recover(directory: directory) },
        ]
        for open in opens {
            let error = thrownError { try open() }
            guard case .unreadable(let named, _)? = error as? ResultRepositoryError else {
                fail("expected the move to be named, got \(String(describing: error))")
                continue
            }
            expectEqual(named.lastPathComponent, kept.lastPathComponent)
        }
        expectEqual(try Data(contentsOf: kept), Data("kept".utf8))
    }

    @Test func testEveryObserverGetsEachChangeOnceItIsDurable() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ResultRepository(directory: directory)
        let first = await repository.changes()
        let second = await repository.changes()

        try await repository.save(Support.sample(1))
        try await repository.delete(Support.sample(1).id)
        try await repository.save(contentsOf: [Support.sample(2), Support.sample(3)])
        try await repository.removeAll()
        await repository.close()
        try? await repository.save(Support.sample(4))  // Fails: publishes nothing.

        let expected: [ResultRepository.Change] = [
            .saved([Support.sample(1)]), .deleted([Support.sample(1).id]),
            .saved([Support.sample(2), Support.sample(3)]), .removedAll,
        ]
        expectEqual(await Support.first(5, of: first, within: 0.3), expected)
        expectEqual(await Support.first(4, of: second), expected)
    }

    @Test func testACancelledObserverStopsAndIsForgotten() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ResultRepository(directory: directory)
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
        let first = try await ResultRepository.shared(in: directory)
        let second = try await ResultRepository.shared(
            in: directory.appendingPathComponent("other/.."))

        try await first.save(Support.sample(1))

        expectTrue(first === second)
        expectEqual(await second.find(by: Support.sample(1).id), Support.sample(1))
        await first.close()
        let reopened = try await ResultRepository.shared(in: directory)
        expectTrue(reopened !== first)
        try await reopened.save(Support.sample(2))
        expectEqual(await reopened.count, 2)
    }

    @Test @MainActor func testTwoViewModelsAndADirectSaveStayInStep() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ResultRepository(directory: directory)
        let list = ResultListViewModel(repository: repository)
        let detail = ResultListViewModel(repository: repository)
        await list.load()
        await detail.load()

        await list.add(Support.sample(1))
        await detail.add(Support.sample(2))
        try await repository.save(Support.sample(3))
        await list.delete(Support.sample(1).id)
        await detail.add(Support.sample(2, revision: 1))

        let expected = [Support.sample(2, revision: 1), Support.sample(3)]
        let listCaughtUp = await Support.eventually { list.results == expected }
        expectTrue(listCaughtUp, "\(list.results)")
        let detailCaughtUp = await Support.eventually { detail.results == expected }
        expectTrue(detailCaughtUp, "\(detail.results)")
    }

    @Test @MainActor func testViewModelsEndAsTheStoreEndsWhateverTheInterleaving() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ResultRepository(directory: directory)
        let first = ResultListViewModel(repository: repository)
        let second = ResultListViewModel(
            repository: repository, order: .init { ResultRepository.precedes($1.id, $0.id) })
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
        let firstCaughtUp = await Support.eventually { first.results == stored }
        expectTrue(firstCaughtUp, "\(first.results) != \(stored)")
        let secondCaughtUp = await Support.eventually { second.results == shownBySecond }
        expectTrue(secondCaughtUp, "\(second.results) != \(shownBySecond)")
    }

    @Test @MainActor func testAViewModelKeepsItsOrderAsValuesArrive() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ResultRepository(directory: directory)
        try await repository.save(contentsOf: [Support.sample(5), Support.sample(2)])
        let descending = ResultListViewModel(
            repository: repository, order: .by(\.id.uuidString, descending: true))
        let custom = ResultListViewModel(
            repository: repository, order: .init { ResultRepository.precedes($1.id, $0.id) })
        await descending.load()
        await custom.load()

        for number in [3, 1, 4] {
            try await repository.save(Support.sample(number))
        }
        await custom.add(Support.sample(6))

        let expected = await repository.loadAll().reversed().map(\.id)
        let descendingInOrder = await Support.eventually {
            descending.results.map(\.id) == expected
        }
        expectTrue(descendingInOrder, "\(descending.results.map(\.id)) != \(expected)")
        let customInOrder = await Support.eventually { custom.results.map(\.id) == expected }
        expectTrue(customInOrder, "\(custom.results.map(\.id)) != \(expected)")
        expectEqual(expected.count, 6)
    }

    @Test @MainActor func testAFilteredViewModelShowsOnlyMatchesAsValuesChange() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ResultRepository(directory: directory)
        try await repository.save(contentsOf: (1...3).map { Support.sample($0) })
        let hidden = Support.sample(2).id
        let viewModel = ResultListViewModel(repository: repository)
        await viewModel.load()

        await viewModel.filter(by: { $0.id != hidden })
        try await repository.save(Support.sample(2, revision: 1))
        try await repository.save(Support.sample(4))

        let expected = [1, 3, 4].map { Support.sample($0) }
        let filtered = await Support.eventually { viewModel.results == expected }
        expectTrue(filtered, "\(viewModel.results)")
        await viewModel.filter(by: nil)
        expectEqual(viewModel.results.count, 4)
        expectTrue(!viewModel.isLoading)
    }

    @Test @MainActor func testAViewIsToldOnlyOfChangesToWhatItShows() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ResultRepository(directory: directory)
        try await repository.save(contentsOf: (1...2).map { Support.sample($0) })
        let hidden = Support.sample(3).id
        let viewModel = ResultListViewModel(repository: repository)
        await viewModel.filter(by: { $0.id != hidden })

        // A value the filter hides, and a value saved again as it is, change nothing shown.
        let quiet = Support.changesObserved(of: { viewModel.results })
        await viewModel.add(Support.sample(3))
        try await repository.delete(hidden)
        await viewModel.add(Support.sample(1))  // Returns once the list has the delete too.
        expectEqual(await quiet.count(), 0)

        let told = Support.changesObserved(of: { viewModel.results })
        await viewModel.add(Support.sample(4))
        expectEqual(await told.count(), 1)
        expectEqual(viewModel.results, [1, 2, 4].map { Support.sample($0) })
    }

    @Test @MainActor func testAViewModelUpdatesAndDeletesAtOffsets() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ResultRepository(directory: directory)
        try await repository.save(contentsOf: (0..<4).map { Support.sample($0) })
        let viewModel = ResultListViewModel(repository: repository)
        await viewModel.load()

        await viewModel.update(id: Support.sample(1).id) { $0 = Support.sample(1, revision: 1) }
        await viewModel.delete(atOffsets: [0, 2])

        let expected = [Support.sample(1, revision: 1), Support.sample(3)]
        expectEqual(viewModel.results, expected)
        expectEqual(await repository.loadAll(), expected)
        expectNil(viewModel.error)

        // What `onDelete(perform:)` calls (the synchronous form): the id at offset 0 is taken at
        // once, so a value saved elsewhere at the top of the list before the delete's task runs
        // is not the one deleted.
        let onDelete: (IndexSet) -> Void = viewModel.delete(atOffsets:)
        onDelete([0])
        try await repository.save(Support.sample(0))
        for _ in 0..<10_000 {
            guard await repository.find(by: Support.sample(1).id) != nil else { break }
            await Task.yield()
        }
        expectEqual(await repository.loadAll(), [Support.sample(0), Support.sample(3)])
    }

    @Test @MainActor func testAnInMemoryRepositoryKeepsItsChangesWithoutAFile() async throws {
        let repository = ResultRepository.inMemory([Support.sample(2), Support.sample(1)])
        let viewModel = ResultListViewModel(repository: repository)
        await viewModel.load()

        try await repository.save(Support.sample(3))
        try await repository.delete(Support.sample(1).id)

        expectEqual(await repository.loadAll(), [Support.sample(2), Support.sample(3)])
        expectTrue(
            await Support.eventually {
                viewModel.results == [Support.sample(2), Support.sample(3)]
            })
        // Nothing can be created below /dev/null.
        expectEqual(repository.fileURL.path, "/dev/null")
    }

    @Test @MainActor func testAPreviewViewModelShowsItsValuesAtOnceAndFollowsChanges() async {
        let viewModel = ResultListViewModel.preview([Support.sample(2), Support.sample(1)])
        expectEqual(viewModel.results, [Support.sample(1), Support.sample(2)])

        await viewModel.add(Support.sample(3))
        await viewModel.delete(Support.sample(1).id)

        expectEqual(viewModel.results, [Support.sample(2), Support.sample(3)])
        expectNil(viewModel.error)
    }

    @Test @MainActor func testViewModelLoadsAddsAndDeletes() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ResultRepository(directory: directory)
        try await repository.save(Support.sample(1))
        let viewModel = ResultListViewModel(repository: repository)

        await viewModel.load()
        expectEqual(viewModel.results, [Support.sample(1)])

        await viewModel.add(Support.sample(2))
        expectEqual(viewModel.results, [Support.sample(1), Support.sample(2)])

        await viewModel.delete(Support.sample(1).id)
        expectEqual(viewModel.results, [Support.sample(2)])
        expectNil(viewModel.error)
    }

    @Test @MainActor func testViewModelReportsAFailedSave() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ResultRepository(directory: directory)
        let viewModel = ResultListViewModel(repository: repository)
        await repository.close()

        await viewModel.add(Support.sample(1))

        expectEqual(viewModel.error as? ResultRepositoryError, .closed)
        expectEqual(viewModel.results, [])
        expectEqual(await repository.count, 0)
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
