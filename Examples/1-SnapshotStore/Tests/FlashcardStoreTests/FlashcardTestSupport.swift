import FlashcardStore
import Foundation

/// What the Flashcard tests share: sample values and a private folder for each test.
nonisolated enum FlashcardTestSupport {
    /// A sample Flashcard. The same `number` always gives the same id; another `revision`
    /// gives other values for the other fields.
    static func sample(_ number: Int, revision: Int = 0) -> Flashcard {
        Flashcard(
            id: sampleUUID(number),
            front: "front-\(number)-\(revision)",
            back: "back-\(number)-\(revision)"
        )
    }

    // Workshop: Swift Testing runs tests in parallel. A folder per test, with a UUID in its
    // name, keeps their store files apart; each test removes it in a `defer`, even on failure.
    /// A new, empty folder of its own under the temporary directory, so tests that run in
    /// parallel never share a file. Remove it with ``removeDirectory(_:)``.
    static func makeDirectory() throws -> URL {
        let name = "FlashcardStoreTests-\(UUID().uuidString)"
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

    /// A UUID made from a number, so sample ids are the same on every run.
    static func sampleUUID(_ number: Int) -> UUID {
        let hex = String(number, radix: 16)
        let digits = String(repeating: "0", count: max(0, 12 - hex.count)) + hex
        return UUID(uuidString: "00000000-0000-4000-8000-\(digits)")!
    }
}
