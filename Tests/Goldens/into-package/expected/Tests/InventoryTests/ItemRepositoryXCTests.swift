import Foundation
import Inventory
import XCTest

/// The behaviour of ``ItemRepository`` and ``ItemListViewModel``, in XCTest.
final class ItemRepositoryXCTests: XCTestCase {
    private typealias Support = ItemTestSupport

    func testSaveThenFind() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ItemRepository(directory: directory)

        try await repository.save(Support.sample(1))

        let found = await repository.find(by: Support.sample(1).id)
        XCTAssertEqual(found, Support.sample(1))
        let missing = await repository.find(by: Support.sample(2).id)
        XCTAssertNil(missing)
    }

    func testSaveWithSameIDReplaces() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ItemRepository(directory: directory)

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
        let repository = try ItemRepository(directory: directory)
        try await repository.save(Support.sample(1))
        try await repository.save(Support.sample(2))

        try await repository.delete(Support.sample(1).id)

        let all = await repository.loadAll()
        XCTAssertEqual(all, [Support.sample(2)])
    }

    func testNewInstanceReadsWhatWasSaved() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ItemRepository(directory: directory)
        for number in 0..<5 {
            try await repository.save(Support.sample(number))
        }
        try await repository.delete(Support.sample(3).id)

        let reopened = try ItemRepository(directory: directory)

        let before = await repository.loadAll()
        let after = await reopened.loadAll()
        XCTAssertEqual(after, before)
        XCTAssertEqual(after.count, 4)
    }

    func testConcurrentSavesAllLand() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ItemRepository(directory: directory)

        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<100 {
                group.addTask { try await repository.save(Support.sample(number)) }
            }
            try await group.waitForAll()
        }

        let count = await repository.count
        XCTAssertEqual(count, 100)
        let reopened = try ItemRepository(directory: directory)
        let reopenedCount = await reopened.count
        XCTAssertEqual(reopenedCount, 100)
    }

    func testLoadAllIsSortedByID() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ItemRepository(directory: directory)
        for number in [3, 1, 2, 10] {
            try await repository.save(Support.sample(number))
        }

        let ids = await repository.loadAll().map(\.id)

        XCTAssertEqual(ids, ids.sorted())
        XCTAssertEqual(ids.count, 4)
    }

    func testMissingFileIsAnEmptyStore() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }

        let repository = try ItemRepository(directory: directory.appendingPathComponent("new"))

        let count = await repository.count
        XCTAssertEqual(count, 0)
    }

    func testCorruptFileThrowsAndIsKept() throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let file = directory.appendingPathComponent(ItemRepository.fileName)
        let damaged = Data("[{\"not\": \"a Item\"".utf8)
        try damaged.write(to: file)

        XCTAssertThrowsError(try ItemRepository(directory: directory)) { error in
            guard case .corrupt(let named, _) = error as? ItemRepositoryError else {
                return XCTFail("expected a corrupt-file error, got \(error)")
            }
            XCTAssertEqual(named.lastPathComponent, ItemRepository.fileName)
            XCTAssertTrue("\(error)".contains(ItemRepository.fileName))
        }
        XCTAssertEqual(try Data(contentsOf: file), damaged)
    }

    @MainActor
    func testViewModelLoadsAddsAndDeletes() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ItemRepository(directory: directory)
        try await repository.save(Support.sample(1))
        let viewModel = ItemListViewModel(repository: repository)

        await viewModel.load()
        XCTAssertEqual(viewModel.items, [Support.sample(1)])

        await viewModel.add(Support.sample(2))
        XCTAssertEqual(viewModel.items, [Support.sample(1), Support.sample(2)])

        await viewModel.delete(Support.sample(1).id)
        XCTAssertEqual(viewModel.items, [Support.sample(2)])
        XCTAssertNil(viewModel.error)
    }

    @MainActor
    func testViewModelReportsAFailedSave() async throws {
        let directory = try Support.makeDirectory()
        defer { Support.removeDirectory(directory) }
        let repository = try ItemRepository(directory: directory)
        let viewModel = ItemListViewModel(repository: repository)
        try Support.blockWrites(to: repository)

        await viewModel.add(Support.sample(1))

        XCTAssertNotNil(viewModel.error)
        XCTAssertEqual(viewModel.items, [])
        let count = await repository.count
        XCTAssertEqual(count, 0)
    }
}
