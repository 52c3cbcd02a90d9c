import BadgeStore
import Foundation
import Observation

import struct BadgeStore.Badge

/// What the Badge tests share: sample values and a private folder for each test.
nonisolated enum BadgeTestSupport {
    /// A sample Badge. The same `number` always gives the same id; another `revision`
    /// gives other values for the other fields.
    static func sample(_ number: Int, revision: Int = 0) -> Badge {
        Badge(
            id: SampleData.value("id", number, nil),
            code: SampleData.value("code", number, revision),
            level: SampleData.value("level", number, revision)
        )
    }

    /// A new, empty folder of its own under the temporary directory, so tests that run in
    /// parallel never share a file. Remove it with ``removeDirectory(_:)``.
    static func makeDirectory() throws -> URL {
        let name = "BadgeStoreTests-\(UUID().uuidString)"
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func removeDirectory(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The size of a file in bytes; 0 when it does not exist.
    static func fileSize(_ file: URL) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
        return (attributes?[.size] as? Int) ?? 0
    }

    /// The file that holds the values: the snapshot (the journal holds the changes since).
    static let storeFileName = BadgeRepository.snapshotFileName

    /// The store file for `values` as schema `version` wrote it, before files had a
    /// checksum line.
    static func fileWithoutChecksum(
        _ values: some Encodable, version: Int = BadgeRepository.schemaVersion
    ) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let items = try encoder.encode(values)
        return Data("{\"items\":".utf8) + items + Data(",\"schemaVersion\":\(version)}".utf8)
    }

    /// Puts a folder, with a file in it, where the next write of the store file must put its
    /// file, so that the write fails; remove the folder to let writes succeed again.
    static func blockWrites(in directory: URL) throws -> URL {
        let blocker = directory.appendingPathComponent(storeFileName + ".tmp")
        try FileManager.default.createDirectory(
            at: blocker.appendingPathComponent("blocker"), withIntermediateDirectories: true)
        return blocker
    }

    /// Files in `directory` that the store did not name: temporary files a write left behind.
    static func leftovers(in directory: URL) -> [String] {
        let known = [
            storeFileName, storeFileName + ".tmp", BadgeRepository.journalFileName,
            BadgeRepository.lockFileName,
        ]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !known.contains($0) }.sorted()
    }

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
