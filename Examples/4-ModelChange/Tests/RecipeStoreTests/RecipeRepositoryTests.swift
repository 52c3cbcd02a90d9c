import Foundation
import RecipeStore
import Testing

// Workshop: the same behaviours as RecipeRepositoryXCTests.swift, written for Swift Testing:
// `#expect` takes plain Swift expressions, `await` included, and shows the values on failure.
/// The behaviour of ``RecipeRepository`` and ``RecipeListViewModel``, in Swift Testing.
@Suite nonisolated struct RecipeRepositoryTests {
    private typealias Support = RecipeTestSupport

    @Test func saveThenFind() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try RecipeRepository(directory: directory)

        try await repository.save(Support.sample(1))

        #expect(await repository.find(by: Support.sample(1).id) == Support.sample(1))
        #expect(await repository.find(by: Support.sample(2).id) == nil)
    }

    @Test func saveWithSameIDReplaces() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try RecipeRepository(directory: directory)

        try await repository.save(Support.sample(1))
        try await repository.save(Support.sample(1, revision: 1))

        #expect(await repository.find(by: Support.sample(1).id) == Support.sample(1, revision: 1))
        #expect(await repository.count == 1)
    }

    @Test func deleteRemoves() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try RecipeRepository(directory: directory)
        try await repository.save(Support.sample(1))
        try await repository.save(Support.sample(2))

        try await repository.delete(Support.sample(1).id)

        #expect(await repository.loadAll() == [Support.sample(2)])
    }

    @Test func reopeningAfterManySavesAndDeletesKeepsEverything() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try RecipeRepository(directory: directory)
        for number in 0..<50 {
            try await repository.save(Support.sample(number))
        }
        for number in stride(from: 0, to: 50, by: 3) {
            try await repository.delete(Support.sample(number).id)
        }
        try await repository.save(contentsOf: (40..<60).map { Support.sample($0, revision: 1) })
        let before = await repository.loadAll()
        await repository.close()

        let reopened = try RecipeRepository(directory: directory)

        let after = await reopened.loadAll()
        #expect(after == before)
        #expect(after.count == 46)
    }

    @Test func concurrentSavesAllLand() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try RecipeRepository(directory: directory)

        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<100 {
                group.addTask { try await repository.save(Support.sample(number)) }
            }
            try await group.waitForAll()
        }

        #expect(await repository.count == 100)
        await repository.close()
        let reopened = try RecipeRepository(directory: directory)
        #expect(await reopened.count == 100)
    }

    @Test func batchSaveDeleteAndRemoveAll() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try RecipeRepository(directory: directory)

        try await repository.save(contentsOf: (0..<10).map { Support.sample($0) })
        try await repository.delete(ids: [0, 1, 2, 99].map { Support.sample($0).id })

        #expect(await repository.loadAll() == (3..<10).map { Support.sample($0) })
        try await repository.removeAll()
        #expect(await repository.count == 0)
        await repository.close()
        let reopened = try RecipeRepository(directory: directory)
        #expect(await reopened.count == 0)
    }

    @Test func loadAllIsSortedByID() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try RecipeRepository(directory: directory)
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
        let repository = try RecipeRepository(directory: directory)
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
            .sorted { RecipeRepository.precedes($0.id, $1.id) }
        #expect(await repository.loadAll() == expected)
        #expect(await repository.count == expected.count)
        #expect(await repository.find(by: Support.sample(1999).id) == Support.sample(1999))
        #expect(await repository.find(by: Support.sample(999).id) == nil)
        await repository.close()
        #expect(try await RecipeRepository(directory: directory).loadAll() == expected)
    }

    @Test func updateChangesOneValueDurablyAndQueriesFilter() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try RecipeRepository(directory: directory)
        try await repository.save(contentsOf: (0..<4).map { Support.sample($0) })
        let id = Support.sample(2).id

        let updated = try await repository.update(id: id) { $0 = Support.sample(2, revision: 1) }
        let missing = try await repository.update(id: Support.sample(9).id) { _ in }

        #expect(updated && !missing)
        #expect(await repository.count(where: { $0.id == id }) == 1)
        #expect(await repository.loadAll(where: { $0.id != id }).count == 3)
        await repository.close()
        let reopened = try RecipeRepository(directory: directory)
        #expect(await reopened.find(by: id) == Support.sample(2, revision: 1))
        #expect(await reopened.count == 4)
    }

    @Test func missingFilesAreAnEmptyStore() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }

        let repository = try RecipeRepository(directory: directory.appendingPathComponent("new"))

        #expect(await repository.count == 0)
    }

    @Test func corruptFileThrowsAndIsKept() throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let file = directory.appendingPathComponent(RecipeRepository.snapshotFileName)
        let damaged = Data("[{\"not\": \"a Recipe\"".utf8)
        try damaged.write(to: file)

        let error = #expect(throws: RecipeRepositoryError.self) {
            try RecipeRepository(directory: directory)
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
        let repository = try RecipeRepository(directory: directory)
        try await repository.save(contentsOf: (0..<3).map { Support.sample($0) })
        await repository.close()
        let file = directory.appendingPathComponent(Support.storeFileName)
        var bytes = try Data(contentsOf: file)
        // Any byte of the JSON: many flips, say a letter in a string, would still decode.
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: file)

        let error = #expect(throws: RecipeRepositoryError.self) {
            try RecipeRepository(directory: directory)
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

        let repository = try RecipeRepository(directory: directory)

        #expect(await repository.loadAll() == values)
        let rewritten = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        #expect(rewritten.split(separator: "\n").last?.hasPrefix("crc32 ") == true)
        await repository.close()
        let reopened = try RecipeRepository(directory: directory)
        #expect(await reopened.loadAll() == values)
    }

    @Test func aFileThatIsAFolderOrABrokenLinkIsUnreadable() throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let file = directory.appendingPathComponent(Support.storeFileName)
        try FileManager.default.createSymbolicLink(
            at: file, withDestinationURL: directory.appendingPathComponent("gone"))

        #expect {
            try RecipeRepository(directory: directory)
        } throws: { error in
            guard case .unreadable(let named, _) = error as? RecipeRepositoryError else {
                return false
            }
            return named.lastPathComponent == file.lastPathComponent
        }

        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        #expect {
            try RecipeRepository(directory: directory)
        } throws: { error in
            guard case .unreadable(let named, _) = error as? RecipeRepositoryError else {
                return false
            }
            return named.lastPathComponent == file.lastPathComponent
        }
    }

    @Test func aFailedWriteKeepsTheValuesAndALaterWriteSucceeds() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try RecipeRepository(directory: directory)
        try await repository.save(contentsOf: (0..<3).map { Support.sample($0) })
        // A folder where the write must put a file makes it fail, as a full disk would.
        let blocker = try Support.blockWrites(in: directory)

        await #expect {
            try await repository.compact()
        } throws: { error in
            guard case .unwritable = error as? RecipeRepositoryError else { return false }
            return true
        }
        #expect(await repository.loadAll() == (0..<3).map { Support.sample($0) })
        #expect(Support.leftovers(in: directory).isEmpty)

        try FileManager.default.removeItem(at: blocker)
        try await repository.save(Support.sample(3))
        try await repository.compact()
        await repository.close()
        let reopened = try RecipeRepository(directory: directory)
        #expect(await reopened.loadAll() == (0..<4).map { Support.sample($0) })
    }

    @Test func aStoreWrittenBySchemaVersion1OpensWithItsValuesMigrated() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let stored = (0..<3).map { Support.sampleV1($0) }
        let file = directory.appendingPathComponent(Support.storeFileName)
        try Support.fileWithoutChecksum(stored, version: 1).write(to: file)

        let repository = try RecipeRepository(directory: directory)

        #expect(await repository.loadAll() == stored.map { $0.migrated().migrated() })
        await repository.close()
        let reopened = try RecipeRepository(directory: directory)
        #expect(await reopened.loadAll() == stored.map { $0.migrated().migrated() })
    }

    @Test func aStoreWrittenBySchemaVersion2OpensWithItsValuesMigrated() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let stored = (0..<3).map { Support.sampleV2($0) }
        let file = directory.appendingPathComponent(Support.storeFileName)
        try Support.fileWithoutChecksum(stored, version: 2).write(to: file)

        let repository = try RecipeRepository(directory: directory)

        #expect(await repository.loadAll() == stored.map { $0.migrated() })
        await repository.close()
        let reopened = try RecipeRepository(directory: directory)
        #expect(await reopened.loadAll() == stored.map { $0.migrated() })
    }

    @Test func jsonWrittenBeforeTheDefaultedFieldsExistedDecodesToTheDefaults() throws {
        let encoded = try JSONEncoder().encode(Support.sample(1))
        var object = try #require(JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        object["level"] = nil

        let decoded = try JSONDecoder().decode(
            Recipe.self, from: JSONSerialization.data(withJSONObject: object))

        #expect(decoded.id == Support.sample(1).id)
        #expect(decoded.level == .easy)
    }

    @Test func compactionKeepsEveryValueAndEmptiesTheJournal() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try RecipeRepository(directory: directory)
        for number in 0..<20 {
            try await repository.save(Support.sample(number))
        }
        try await repository.delete(Support.sample(5).id)
        #expect(Support.fileSize(repository.journalURL) > 0)

        try await repository.compact()
        #expect(Support.fileSize(repository.journalURL) == 0)
        // A batch larger than the compaction floor is written as a snapshot by itself.
        try await repository.save(contentsOf: (100..<10_100).map { Support.sample($0) })
        #expect(Support.fileSize(repository.journalURL) == 0)
        let before = await repository.loadAll()
        await repository.close()

        let reopened = try RecipeRepository(directory: directory)

        let after = await reopened.loadAll()
        #expect(after == before)
        #expect(after.count == 10_019)
    }

    @Test func aTornLastRecordIsDroppedAndTheRestLoads() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try RecipeRepository(directory: directory)
        try await repository.save(contentsOf: (0..<3).map { Support.sample($0) })
        await repository.close()
        // A crash in the middle of an append leaves a record without its newline.
        let journal = try FileHandle(forWritingTo: repository.journalURL)
        try journal.seekToEnd()
        try journal.write(contentsOf: Data("{\"save\":[{\"id\"".utf8))
        try journal.close()

        let reopened = try RecipeRepository(directory: directory)
        try await reopened.save(Support.sample(3))
        await reopened.close()

        let again = try RecipeRepository(directory: directory)
        #expect(await again.loadAll() == (0..<4).map { Support.sample($0) })
    }

    @Test func aDamagedJournalThrowsWithItsPositionAndIsKept() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try RecipeRepository(directory: directory)
        // A batch as large as the store goes to the snapshot; the single saves to the journal.
        try await repository.save(contentsOf: (0..<3).map { Support.sample($0) })
        try await repository.save(Support.sample(3))
        try await repository.save(Support.sample(4))
        await repository.close()
        var bytes = try Data(contentsOf: repository.journalURL)
        let secondRecord = try #require(bytes.firstIndex(of: UInt8(ascii: "\n"))) + 1
        bytes[secondRecord + 2] ^= 0x01
        try bytes.write(to: repository.journalURL)

        let error = #expect(throws: RecipeRepositoryError.self) {
            try RecipeRepository(directory: directory)
        }

        guard case .corrupt(let file, let offset, _) = error else {
            Issue.record("expected a corrupt-journal error, got \(String(describing: error))")
            return
        }
        #expect(file.lastPathComponent == RecipeRepository.journalFileName)
        #expect(offset == secondRecord)
        #expect(try Data(contentsOf: repository.journalURL) == bytes)
    }

    @Test func aSecondOpenerIsRefusedUntilTheFirstCloses() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let first = try RecipeRepository(directory: directory)

        #expect {
            try RecipeRepository(directory: directory)
        } throws: { error in
            guard case .locked = error as? RecipeRepositoryError else { return false }
            return true
        }

        await first.close()
        #expect(throws: Never.self) { try RecipeRepository(directory: directory) }
    }

    @Test func aSnapshotFromANewerSchemaIsRefused() throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let newer = RecipeRepository.schemaVersion + 1
        let file = directory.appendingPathComponent(RecipeRepository.snapshotFileName)
        try Data("{\"items\":[],\"schemaVersion\":\(newer)}".utf8).write(to: file)

        #expect(
            throws: RecipeRepositoryError.newerSchema(
                file: file, found: newer, supported: RecipeRepository.schemaVersion)
        ) {
            try RecipeRepository(directory: directory)
        }
    }

    @Test func everyObserverGetsEachChangeOnceItIsDurable() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try RecipeRepository(directory: directory)
        let first = await repository.changes()
        let second = await repository.changes()

        try await repository.save(Support.sample(1))
        try await repository.delete(Support.sample(1).id)
        try await repository.save(contentsOf: [Support.sample(2), Support.sample(3)])
        try await repository.removeAll()
        await repository.close()
        try? await repository.save(Support.sample(4))  // Fails: publishes nothing.

        let expected: [RecipeRepository.Change] = [
            .saved([Support.sample(1)]), .deleted([Support.sample(1).id]),
            .saved([Support.sample(2), Support.sample(3)]), .removedAll,
        ]
        #expect(await Support.first(5, of: first, within: 0.3) == expected)
        #expect(await Support.first(4, of: second) == expected)
    }

    @Test func aCancelledObserverStopsAndIsForgotten() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try RecipeRepository(directory: directory)
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
        let first = try await RecipeRepository.shared(in: directory)
        let second = try await RecipeRepository.shared(
            in: directory.appendingPathComponent("other/.."))

        try await first.save(Support.sample(1))

        #expect(first === second)
        #expect(await second.find(by: Support.sample(1).id) == Support.sample(1))
        await first.close()
        let reopened = try await RecipeRepository.shared(in: directory)
        #expect(reopened !== first)
        try await reopened.save(Support.sample(2))
        #expect(await reopened.count == 2)
    }

    @Test @MainActor func twoViewModelsAndADirectSaveStayInStep() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try RecipeRepository(directory: directory)
        let list = RecipeListViewModel(repository: repository)
        let detail = RecipeListViewModel(repository: repository)
        await list.load()
        await detail.load()

        await list.add(Support.sample(1))
        await detail.add(Support.sample(2))
        try await repository.save(Support.sample(3))
        await list.delete(Support.sample(1).id)
        await detail.add(Support.sample(2, revision: 1))

        let expected = [Support.sample(2, revision: 1), Support.sample(3)]
        #expect(await Support.eventually { list.recipes == expected })
        #expect(await Support.eventually { detail.recipes == expected })
    }

    @Test @MainActor func viewModelsEndAsTheStoreEndsWhateverTheInterleaving() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try RecipeRepository(directory: directory)
        let first = RecipeListViewModel(repository: repository)
        let second = RecipeListViewModel(
            repository: repository, order: .init { RecipeRepository.precedes($1.id, $0.id) })
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
        #expect(await Support.eventually { first.recipes == stored })
        #expect(await Support.eventually { second.recipes == shownBySecond })
    }

    @Test @MainActor func aViewModelKeepsItsOrderAsValuesArrive() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try RecipeRepository(directory: directory)
        try await repository.save(contentsOf: [Support.sample(5), Support.sample(2)])
        let descending = RecipeListViewModel(
            repository: repository, order: .by(\.id.uuidString, descending: true))
        let custom = RecipeListViewModel(
            repository: repository, order: .init { RecipeRepository.precedes($1.id, $0.id) })
        await descending.load()
        await custom.load()

        for number in [3, 1, 4] {
            try await repository.save(Support.sample(number))
        }
        await custom.add(Support.sample(6))

        let expected = await repository.loadAll().reversed().map(\.id)
        #expect(await Support.eventually { descending.recipes.map(\.id) == expected })
        #expect(await Support.eventually { custom.recipes.map(\.id) == expected })
        #expect(expected.count == 6)
    }

    @Test @MainActor func aFilteredViewModelShowsOnlyMatchesAsValuesChange() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try RecipeRepository(directory: directory)
        try await repository.save(contentsOf: (1...3).map { Support.sample($0) })
        let hidden = Support.sample(2).id
        let viewModel = RecipeListViewModel(repository: repository)
        await viewModel.load()

        await viewModel.filter(by: { $0.id != hidden })
        try await repository.save(Support.sample(2, revision: 1))
        try await repository.save(Support.sample(4))

        let expected = [1, 3, 4].map { Support.sample($0) }
        #expect(await Support.eventually { viewModel.recipes == expected })
        await viewModel.filter(by: nil)
        #expect(viewModel.recipes.count == 4)
        #expect(!viewModel.isLoading)
    }

    @Test @MainActor func aViewModelUpdatesAndDeletesAtOffsets() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try RecipeRepository(directory: directory)
        try await repository.save(contentsOf: (0..<4).map { Support.sample($0) })
        let viewModel = RecipeListViewModel(repository: repository)
        await viewModel.load()

        await viewModel.update(id: Support.sample(1).id) { $0 = Support.sample(1, revision: 1) }
        await viewModel.delete(atOffsets: [0, 2])

        let expected = [Support.sample(1, revision: 1), Support.sample(3)]
        #expect(viewModel.recipes == expected)
        #expect(await repository.loadAll() == expected)
        #expect(viewModel.error == nil)
    }

    @Test @MainActor func viewModelLoadsAddsAndDeletes() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try RecipeRepository(directory: directory)
        try await repository.save(Support.sample(1))
        let viewModel = RecipeListViewModel(repository: repository)

        await viewModel.load()
        #expect(viewModel.recipes == [Support.sample(1)])

        await viewModel.add(Support.sample(2))
        #expect(viewModel.recipes == [Support.sample(1), Support.sample(2)])

        await viewModel.delete(Support.sample(1).id)
        #expect(viewModel.recipes == [Support.sample(2)])
        #expect(viewModel.error == nil)
    }

    @Test @MainActor func viewModelReportsAFailedSave() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try RecipeRepository(directory: directory)
        let viewModel = RecipeListViewModel(repository: repository)
        await repository.close()

        await viewModel.add(Support.sample(1))

        #expect(viewModel.error as? RecipeRepositoryError == .closed)
        #expect(viewModel.recipes == [])
        #expect(await repository.count == 0)
    }
}
