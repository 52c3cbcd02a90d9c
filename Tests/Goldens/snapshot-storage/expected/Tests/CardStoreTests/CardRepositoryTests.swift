import CardStore
import Foundation
import Testing

/// The behaviour of ``CardRepository`` and ``CardListViewModel``, in Swift Testing.
@Suite nonisolated struct CardRepositoryTests {
    private typealias Support = CardTestSupport

    @Test func saveThenFind() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try CardRepository(directory: directory)

        try await repository.save(Support.sample(1))

        #expect(await repository.find(by: Support.sample(1).id) == Support.sample(1))
        #expect(await repository.find(by: Support.sample(2).id) == nil)
    }

    @Test func saveWithSameIDReplaces() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try CardRepository(directory: directory)

        try await repository.save(Support.sample(1))
        try await repository.save(Support.sample(1, revision: 1))

        #expect(await repository.find(by: Support.sample(1).id) == Support.sample(1, revision: 1))
        #expect(await repository.count == 1)
    }

    @Test func deleteRemoves() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try CardRepository(directory: directory)
        try await repository.save(Support.sample(1))
        try await repository.save(Support.sample(2))

        try await repository.delete(Support.sample(1).id)

        #expect(await repository.loadAll() == [Support.sample(2)])
    }

    @Test func reopeningAfterManySavesAndDeletesKeepsEverything() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try CardRepository(directory: directory)
        for number in 0..<50 {
            try await repository.save(Support.sample(number))
        }
        for number in stride(from: 0, to: 50, by: 3) {
            try await repository.delete(Support.sample(number).id)
        }
        try await repository.save(contentsOf: (40..<60).map { Support.sample($0, revision: 1) })
        let before = await repository.loadAll()
        await repository.close()

        let reopened = try CardRepository(directory: directory)

        let after = await reopened.loadAll()
        #expect(after == before)
        #expect(after.count == 46)
    }

    @Test func concurrentSavesAllLand() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try CardRepository(directory: directory)

        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<100 {
                group.addTask { try await repository.save(Support.sample(number)) }
            }
            try await group.waitForAll()
        }

        #expect(await repository.count == 100)
        await repository.close()
        let reopened = try CardRepository(directory: directory)
        #expect(await reopened.count == 100)
    }

    @Test func batchSaveDeleteAndRemoveAll() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try CardRepository(directory: directory)

        try await repository.save(contentsOf: (0..<10).map { Support.sample($0) })
        try await repository.delete(ids: [0, 1, 2, 99].map { Support.sample($0).id })

        #expect(await repository.loadAll() == (3..<10).map { Support.sample($0) })
        try await repository.removeAll()
        #expect(await repository.count == 0)
        await repository.close()
        let reopened = try CardRepository(directory: directory)
        #expect(await reopened.count == 0)
    }

    @Test func loadAllIsSortedByID() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try CardRepository(directory: directory)
        for number in [3, 1, 2, 10] {
            try await repository.save(Support.sample(number))
        }

        let ids = await repository.loadAll().map(\.id.uuidString)

        #expect(ids == ids.sorted())
        #expect(ids.count == 4)
    }

    @Test func manyValuesSavedAndDeletedInAnyOrderStayInIDOrder() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try CardRepository(directory: directory)
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
            .sorted { CardRepository.precedes($0.id, $1.id) }
        #expect(await repository.loadAll() == expected)
        #expect(await repository.count == expected.count)
        #expect(await repository.find(by: Support.sample(1999).id) == Support.sample(1999))
        #expect(await repository.find(by: Support.sample(999).id) == nil)
        await repository.close()
        #expect(try await CardRepository(directory: directory).loadAll() == expected)
    }

    @Test func updateChangesOneValueDurablyAndQueriesFilter() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try CardRepository(directory: directory)
        try await repository.save(contentsOf: (0..<4).map { Support.sample($0) })
        let id = Support.sample(2).id

        let updated = try await repository.update(id: id) { $0 = Support.sample(2, revision: 1) }
        let missing = try await repository.update(id: Support.sample(9).id) { _ in }

        #expect(updated && !missing)
        #expect(await repository.count(where: { $0.id == id }) == 1)
        #expect(await repository.loadAll(where: { $0.id != id }).count == 3)
        await repository.close()
        let reopened = try CardRepository(directory: directory)
        #expect(await reopened.find(by: id) == Support.sample(2, revision: 1))
        #expect(await reopened.count == 4)
    }

    @Test func missingFilesAreAnEmptyStore() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }

        let repository = try CardRepository(directory: directory.appendingPathComponent("new"))

        #expect(await repository.count == 0)
    }

    @Test func corruptFileThrowsAndIsKept() throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let file = directory.appendingPathComponent(CardRepository.fileName)
        let damaged = Data("[{\"not\": \"a Card\"".utf8)
        try damaged.write(to: file)

        let error = #expect(throws: CardRepositoryError.self) {
            try CardRepository(directory: directory)
        }

        guard case .corrupt(let named, _, _) = error else {
            Issue.record("expected a corrupt-file error, got \(String(describing: error))")
            return
        }
        #expect(named.lastPathComponent == file.lastPathComponent)
        #expect(try Data(contentsOf: file) == damaged)
    }

    @Test func aFlippedByteInTheFileIsFoundByItsChecksum() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try CardRepository(directory: directory)
        try await repository.save(contentsOf: (0..<3).map { Support.sample($0) })
        await repository.close()
        let file = directory.appendingPathComponent(Support.storeFileName)
        var bytes = try Data(contentsOf: file)
        // Any byte of the JSON: many flips, say a letter in a string, would still decode.
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: file)

        let error = #expect(throws: CardRepositoryError.self) {
            try CardRepository(directory: directory)
        }

        guard case .corrupt(let named, _, let reason) = error else {
            Issue.record("expected a corrupt-file error, got \(String(describing: error))")
            return
        }
        #expect(named.lastPathComponent == file.lastPathComponent)
        #expect(reason.contains("checksum"))
        #expect(try Data(contentsOf: file) == bytes)
    }

    @Test func aFileWithoutAChecksumOpensAndIsRewrittenWithOne() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let file = directory.appendingPathComponent(Support.storeFileName)
        let values = (0..<3).map { Support.sample($0) }
        try Support.fileWithoutChecksum(values).write(to: file)

        let repository = try CardRepository(directory: directory)

        #expect(await repository.loadAll() == values)
        let rewritten = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        #expect(rewritten.split(separator: "\n").last?.hasPrefix("crc32 ") == true)
        await repository.close()
        let reopened = try CardRepository(directory: directory)
        #expect(await reopened.loadAll() == values)
    }

    @Test func aFileThatIsAFolderOrABrokenLinkIsUnreadable() throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let file = directory.appendingPathComponent(Support.storeFileName)
        try FileManager.default.createSymbolicLink(
            at: file, withDestinationURL: directory.appendingPathComponent("gone"))

        #expect {
            try CardRepository(directory: directory)
        } throws: { error in
            guard case .unreadable(let named, _) = error as? CardRepositoryError else {
                return false
            }
            return named.lastPathComponent == file.lastPathComponent
        }

        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        #expect {
            try CardRepository(directory: directory)
        } throws: { error in
            guard case .unreadable(let named, _) = error as? CardRepositoryError else {
                return false
            }
            return named.lastPathComponent == file.lastPathComponent
        }
    }

    @Test func aFailedWriteKeepsTheValuesAndALaterWriteSucceeds() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try CardRepository(directory: directory)
        try await repository.save(contentsOf: (0..<3).map { Support.sample($0) })
        // A folder where the write must put a file makes it fail, as a full disk would.
        let blocker = try Support.blockWrites(in: directory)

        await #expect {
            try await repository.save(Support.sample(3))
        } throws: { error in
            guard case .unwritable = error as? CardRepositoryError else { return false }
            return true
        }
        #expect(await repository.loadAll() == (0..<3).map { Support.sample($0) })
        #expect(Support.leftovers(in: directory).isEmpty)

        try FileManager.default.removeItem(at: blocker)
        try await repository.save(Support.sample(3))
        await repository.close()
        let reopened = try CardRepository(directory: directory)
        #expect(await reopened.loadAll() == (0..<4).map { Support.sample($0) })
    }

    @Test func everyObserverGetsEachChangeOnceItIsDurable() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try CardRepository(directory: directory)
        let first = await repository.changes()
        let second = await repository.changes()

        try await repository.save(Support.sample(1))
        try await repository.delete(Support.sample(1).id)
        try await repository.save(contentsOf: [Support.sample(2), Support.sample(3)])
        try await repository.removeAll()
        await repository.close()
        try? await repository.save(Support.sample(4))  // Fails: publishes nothing.

        let expected: [CardRepository.Change] = [
            .saved([Support.sample(1)]), .deleted([Support.sample(1).id]),
            .saved([Support.sample(2), Support.sample(3)]), .removedAll,
        ]
        #expect(await Support.first(5, of: first, within: 0.3) == expected)
        #expect(await Support.first(4, of: second) == expected)
    }

    @Test func aCancelledObserverStopsAndIsForgotten() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try CardRepository(directory: directory)
        let changes = await repository.changes()
        let observer = Task {
            var received = 0
            for await _ in changes { received += 1 }
            return received
        }
        try await repository.save(Support.sample(1))

        observer.cancel()

        #expect(await observer.value <= 1)
        var remaining = await repository.observerCount
        for _ in 0..<2000 where remaining > 0 {
            try await Task.sleep(nanoseconds: 1_000_000)
            remaining = await repository.observerCount
        }
        #expect(remaining == 0)
        try await repository.save(Support.sample(2))
    }

    @Test func sharedGivesEveryCallerTheSameRepositoryPerFolder() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let first = try await CardRepository.shared(in: directory)
        let second = try await CardRepository.shared(
            in: directory.appendingPathComponent("other/.."))

        try await first.save(Support.sample(1))

        #expect(first === second)
        #expect(await second.find(by: Support.sample(1).id) == Support.sample(1))
        await first.close()
        let reopened = try await CardRepository.shared(in: directory)
        #expect(reopened !== first)
        try await reopened.save(Support.sample(2))
        #expect(await reopened.count == 2)
    }

    @Test @MainActor func twoViewModelsAndADirectSaveStayInStep() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try CardRepository(directory: directory)
        let list = CardListViewModel(repository: repository)
        let detail = CardListViewModel(repository: repository)
        await list.load()
        await detail.load()

        await list.add(Support.sample(1))
        await detail.add(Support.sample(2))
        try await repository.save(Support.sample(3))
        await list.delete(Support.sample(1).id)
        await detail.add(Support.sample(2, revision: 1))

        let expected = [Support.sample(2, revision: 1), Support.sample(3)]
        #expect(await Support.eventually { list.cards == expected })
        #expect(await Support.eventually { detail.cards == expected })
    }

    @Test @MainActor func viewModelsEndAsTheStoreEndsWhateverTheInterleaving() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try CardRepository(directory: directory)
        let first = CardListViewModel(repository: repository)
        let second = CardListViewModel(
            repository: repository, order: .init { CardRepository.precedes($1.id, $0.id) })
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
        #expect(await Support.eventually { first.cards == stored })
        #expect(await Support.eventually { second.cards == shownBySecond })
    }

    @Test @MainActor func aViewModelKeepsItsOrderAsValuesArrive() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try CardRepository(directory: directory)
        try await repository.save(contentsOf: [Support.sample(5), Support.sample(2)])
        let descending = CardListViewModel(
            repository: repository, order: .by(\.id.uuidString, descending: true))
        let custom = CardListViewModel(
            repository: repository, order: .init { CardRepository.precedes($1.id, $0.id) })
        await descending.load()
        await custom.load()

        for number in [3, 1, 4] {
            try await repository.save(Support.sample(number))
        }
        await custom.add(Support.sample(6))

        let expected = await repository.loadAll().reversed().map(\.id)
        #expect(await Support.eventually { descending.cards.map(\.id) == expected })
        #expect(await Support.eventually { custom.cards.map(\.id) == expected })
        #expect(expected.count == 6)
    }

    @Test @MainActor func aFilteredViewModelShowsOnlyMatchesAsValuesChange() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try CardRepository(directory: directory)
        try await repository.save(contentsOf: (1...3).map { Support.sample($0) })
        let hidden = Support.sample(2).id
        let viewModel = CardListViewModel(repository: repository)
        await viewModel.load()

        await viewModel.filter(by: { $0.id != hidden })
        try await repository.save(Support.sample(2, revision: 1))
        try await repository.save(Support.sample(4))

        let expected = [1, 3, 4].map { Support.sample($0) }
        #expect(await Support.eventually { viewModel.cards == expected })
        await viewModel.filter(by: nil)
        #expect(viewModel.cards.count == 4)
        #expect(!viewModel.isLoading)
    }

    @Test @MainActor func aViewModelUpdatesAndDeletesAtOffsets() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try CardRepository(directory: directory)
        try await repository.save(contentsOf: (0..<4).map { Support.sample($0) })
        let viewModel = CardListViewModel(repository: repository)
        await viewModel.load()

        await viewModel.update(id: Support.sample(1).id) { $0 = Support.sample(1, revision: 1) }
        await viewModel.delete(atOffsets: [0, 2])

        let expected = [Support.sample(1, revision: 1), Support.sample(3)]
        #expect(viewModel.cards == expected)
        #expect(await repository.loadAll() == expected)
        #expect(viewModel.error == nil)
    }

    @Test @MainActor func viewModelLoadsAddsAndDeletes() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try CardRepository(directory: directory)
        try await repository.save(Support.sample(1))
        let viewModel = CardListViewModel(repository: repository)

        await viewModel.load()
        #expect(viewModel.cards == [Support.sample(1)])

        await viewModel.add(Support.sample(2))
        #expect(viewModel.cards == [Support.sample(1), Support.sample(2)])

        await viewModel.delete(Support.sample(1).id)
        #expect(viewModel.cards == [Support.sample(2)])
        #expect(viewModel.error == nil)
    }

    @Test @MainActor func viewModelReportsAFailedSave() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try CardRepository(directory: directory)
        let viewModel = CardListViewModel(repository: repository)
        await repository.close()

        await viewModel.add(Support.sample(1))

        #expect(viewModel.error as? CardRepositoryError == .closed)
        #expect(viewModel.cards == [])
        #expect(await repository.count == 0)
    }
}
