// store-bench's move part: a journal store (BenchJournalUUID) of each of `--sqlite-sizes`
// values, opened by the same model moved to sqlite (Tests/Goldens/bench-sqlite, which records
// the journal as its former storage), whose first open imports every value. One child writes the
// journal; another opens it as sqlite, so its time and peak memory are the move's alone.

import BenchSQLite
import Foundation

/// The figures of one move, in seconds and MiB.
struct MoveFigures {
    var firstOpen = 0.0
    var memory = 0.0
    var nextOpen = 0.0
}

/// One move child: `sqlite-move-write` writes the journal store; `sqlite-move-open` opens the
/// folder with the sqlite repository, checks that every value came, and prints the first open's
/// time, the peak memory then, and the next open's time.
@MainActor
func runMoveChild(_ kind: String, size: Int) async throws {
    let directory = try benchDirectory()
    switch kind {
    case "sqlite-move-write":
        try await runStallImport(size: size)
    case "sqlite-move-open":
        var repository: EntryRepository?
        let firstOpen = try time { repository = try EntryRepository(directory: directory) }
        let memory = peakMemoryMiB()
        guard let opened = repository, try await opened.count == size else {
            throw BenchError("the move did not bring \(size) values")
        }
        await opened.close()
        repository = nil
        let nextOpen = try time { repository = try EntryRepository(directory: directory) }
        await repository?.close()
        print(firstOpen, memory, nextOpen)
    default:
        throw BenchError("unknown child \(kind)")
    }
}

/// Runs the two move children per size and prints their table.
func runMove(sizes: [Int]) throws {
    guard !sizes.isEmpty else { return }
    print("")
    print("A journal store moved to sqlite: the first open imports it (UUID ids; ms, MiB):")
    print("| values | first open (the import) | peak memory then | next open |")
    print("|---:|---:|---:|---:|")
    for size in sizes {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("store-bench-move-\(size)-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["STORE_BENCH_DIR": directory.path]
        _ = try runChildProcess(
            store: "sqlite-move-write", size: size, saves: 0, expecting: 1,
            environment: environment)
        let numbers = try runChildProcess(
            store: "sqlite-move-open", size: size, saves: 0, expecting: 3,
            environment: environment)
        let figures = MoveFigures(firstOpen: numbers[0], memory: numbers[1], nextOpen: numbers[2])
        let cells = [
            String(size), milliseconds(figures.firstOpen), String(format: "%.0f", figures.memory),
            milliseconds(figures.nextOpen),
        ]
        print("| " + cells.joined(separator: " | ") + " |")
    }
}
