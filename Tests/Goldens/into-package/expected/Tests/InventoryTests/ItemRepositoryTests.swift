import Foundation
import Inventory
import Testing

/// The behaviour of ``ItemRepository`` and ``ItemListViewModel``, in Swift Testing.
@Suite struct ItemRepositoryTests {
    private typealias Support = ItemTestSupport

    @Test func saveThenFind() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ItemRepository(directory: directory)

        try await repository.save(Support.sample(1))

        #expect(await repository.find(by: Support.sample(1).id) == Support.sample(1))
        #expect(await repository.find(by: Support.sample(2).id) == nil)
    }

    @Test func saveWithSameIDReplaces() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ItemRepository(directory: directory)

        try await repository.save(Support.sample(1))
        try await repository.save(Support.sample(1, revision: 1))

        #expect(await repository.find(by: Support.sample(1).id) == Support.sample(1, revision: 1))
        #expect(await repository.count == 1)
    }

    @Test func deleteRemoves() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ItemRepository(directory: directory)
        try await repository.save(Support.sample(1))
        try await repository.save(Support.sample(2))

        try await repository.delete(Support.sample(1).id)

        #expect(await repository.loadAll() == [Support.sample(2)])
    }

    @Test func newInstanceReadsWhatWasSaved() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ItemRepository(directory: directory)
        for number in 0..<5 {
            try await repository.save(Support.sample(number))
        }
        try await repository.delete(Support.sample(3).id)

        let reopened = try ItemRepository(directory: directory)

        let after = await reopened.loadAll()
        #expect(after == (await repository.loadAll()))
        #expect(after.count == 4)
    }

    @Test func concurrentSavesAllLand() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ItemRepository(directory: directory)

        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<100 {
                group.addTask { try await repository.save(Support.sample(number)) }
            }
            try await group.waitForAll()
        }

        #expect(await repository.count == 100)
        let reopened = try ItemRepository(directory: directory)
        #expect(await reopened.count == 100)
    }

    @Test func loadAllIsSortedByID() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ItemRepository(directory: directory)
        for number in [3, 1, 2, 10] {
            try await repository.save(Support.sample(number))
        }

        let ids = await repository.loadAll().map(\.id)

        #expect(ids == ids.sorted())
        #expect(ids.count == 4)
    }

    @Test func missingFileIsAnEmptyStore() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }

        let repository = try ItemRepository(directory: directory.appendingPathComponent("new"))

        #expect(await repository.count == 0)
    }

    @Test func corruptFileThrowsAndIsKept() throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let file = directory.appendingPathComponent(ItemRepository.fileName)
        let damaged = Data("[{\"not\": \"a Item\"".utf8)
        try damaged.write(to: file)

        let error = #expect(throws: ItemRepositoryError.self) {
            try ItemRepository(directory: directory)
        }

        guard case .corrupt(let named, _) = error else {
            Issue.record("expected a corrupt-file error, got \(String(describing: error))")
            return
        }
        #expect(named.lastPathComponent == ItemRepository.fileName)
        #expect(try Data(contentsOf: file) == damaged)
    }

    @Test @MainActor func viewModelLoadsAddsAndDeletes() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ItemRepository(directory: directory)
        try await repository.save(Support.sample(1))
        let viewModel = ItemListViewModel(repository: repository)

        await viewModel.load()
        #expect(viewModel.items == [Support.sample(1)])

        await viewModel.add(Support.sample(2))
        #expect(viewModel.items == [Support.sample(1), Support.sample(2)])

        await viewModel.delete(Support.sample(1).id)
        #expect(viewModel.items == [Support.sample(2)])
        #expect(viewModel.error == nil)
    }

    @Test @MainActor func viewModelReportsAFailedSave() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ItemRepository(directory: directory)
        let viewModel = ItemListViewModel(repository: repository)
        try Support.blockWrites(to: repository)

        await viewModel.add(Support.sample(1))

        #expect(viewModel.error != nil)
        #expect(viewModel.items == [])
        #expect(await repository.count == 0)
    }
}
