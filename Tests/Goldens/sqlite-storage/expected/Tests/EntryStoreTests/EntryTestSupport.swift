import EntryStore
import Foundation
import Observation

import struct EntryStore.Entry

/// What the Entry tests share: sample values and a private folder for each test.
nonisolated enum EntryTestSupport {
    /// A sample Entry. The same `number` always gives the same id; another `revision`
    /// gives other values for the other fields.
    static func sample(_ number: Int, revision: Int = 0) -> Entry {
        Entry(
            id: SampleData.value("id", number, nil),
            title: SampleData.value("title", number, revision),
            note: SampleData.value("note", number, revision),
            rank: SampleData.value("rank", number, revision),
            count: SampleData.value("count", number, revision),
            score: SampleData.value("score", number, revision),
            ratio: SampleData.value("ratio", number, revision),
            done: SampleData.value("done", number, revision),
            when: SampleData.value("when", number, revision),
            ref: SampleData.value("ref", number, revision),
            link: SampleData.value("link", number, revision),
            price: SampleData.value("price", number, revision),
            mood: SampleData.value("mood", number, revision),
            tags: SampleData.value("tags", number, revision),
            raw: SampleData.value("raw", number, revision)
        )
    }

    /// A new, empty folder of its own under the temporary directory, so tests that run in
    /// parallel never share a file. Remove it with ``removeDirectory(_:)``.
    static func makeDirectory() throws -> URL {
        let name = "EntryStoreTests-\(UUID().uuidString)"
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Stores samples 0 and 1 in the database in `directory`, with the values they refer to:
    /// the samples of models that refer to Entry name them.
    static func storeSamples(in directory: URL) throws {
        // Opening the repository creates its table, as the app would.
        _ = try EntryRepository(directory: directory)
        try StoredRows.insert(
            [sample(0), sample(1)], ids: [sample(0).id, sample(1).id],
            version: EntryRepository.schemaVersion, into: EntryRepository.tableName,
            in: directory.appendingPathComponent(storeFileName))
    }

    static func removeDirectory(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The size of a file in bytes; 0 when it does not exist.
    static func fileSize(_ file: URL) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
        return (attributes?[.size] as? Int) ?? 0
    }

    /// The repository's queries, and the fields they filter and sort on.
    typealias Query = EntryRepository.Query
    typealias Fields = EntryRepository.Fields

    /// The file that holds the values: the module's database.
    static let storeFileName = EntryRepository.databaseFileName

    /// The first `count` elements of `stream`, or those that came within `seconds`.
    static func first<Element: Sendable>(
        _ count: Int, of stream: AsyncStream<Element>, within seconds: Double = 2
    ) async -> [Element] {
        let collector = Task {
            var received: [Element] = []
            for await element in stream {
                received.append(element)
                if received.count == count { break }
            }
            return received
        }
        let timer = Task {
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            collector.cancel()
        }
        defer { timer.cancel() }
        return await collector.value
    }

    /// Watches what `read` reads, as a SwiftUI view does; ``ObservedChanges/count()`` says
    /// whether a change to it was announced since (0 or 1: a view is told once, then reads
    /// again).
    @MainActor static func changesObserved<Value>(of read: () -> Value) -> ObservedChanges {
        let (announced, announce) = AsyncStream.makeStream(of: Void.self)
        withObservationTracking {
            _ = read()
        } onChange: {
            announce.yield()
        }
        return ObservedChanges(announced: announced, announce: announce)
    }

    /// The changes that ``changesObserved(of:)`` was told of.
    struct ObservedChanges {
        let announced: AsyncStream<Void>
        let announce: AsyncStream<Void>.Continuation

        /// How many changes were announced until now.
        func count() async -> Int {
            announce.finish()
            var count = 0
            for await _ in announced { count += 1 }
            return count
        }
    }

    /// Waits until `condition` holds, for up to two seconds, and says whether it did. A change
    /// reaches other observers a moment after the call that made it returns.
    @MainActor static func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<2000 {
            if condition() { return true }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return condition()
    }
}

nonisolated extension Entry.Mood: SampleValue {}
