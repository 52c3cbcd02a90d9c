// The child process of the fault tests: meets a fault that only a process of its own can
// have, and prints what the generated store did, one line per fact, for the test to check.
//
// Usage:
//   StoreFaultChild fill journal|snapshot|sqlite DIRECTORY LIMIT
//     Limits the size of any file this process writes to LIMIT bytes (RLIMIT_FSIZE, with
//     SIGXFSZ ignored, so writes past it fail with EFBIG, as on a full disk), saves values
//     until a save fails, then lifts the limit and saves once more. Prints `saved ID` for each
//     save that returned, `failed ID: ERROR`, `count N` (what the store holds after the
//     failure), `files NAME,...` (the folder after the failure), then `recovered ID` or
//     `still failing: ERROR`. The journal store also compacts after the failure, and prints
//     `compacted` or `compaction-failed ERROR` before `count`.
//   StoreFaultChild reopen journal|snapshot|sqlite DIRECTORY
//     Saves 20 values and closes the store, then limits the size of any file this process
//     writes to 1 byte (a full disk: no file can grow, none can be made) and opens it again.
//     Prints `opened N` or `error: ERROR`, then `failed ID: ERROR` or `saved ID` for one save
//     on the full disk, then lifts the limit and prints `recovered ID` or `still failing:
//     ERROR`.
//   StoreFaultChild open journal|snapshot|sqlite DIRECTORY
//     Opens the store (as the user `nobody` when run as root, so that file permissions
//     apply), prints `opened N` or `error: ERROR`, then saves one value and prints `saved ID`
//     or `error: ERROR`.

import BenchJournal
import BenchSQLite
import BenchSnapshot
import Foundation

#if canImport(Glibc)
    import Glibc
    let fileSizeLimit = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
#elseif canImport(Darwin)
    import Darwin
    let fileSizeLimit = RLIMIT_FSIZE
#endif

/// The generated stores, behind the calls this process makes.
protocol FaultStore: Sendable {
    var count: Int { get async throws }
    func save(number: Int) async throws
    func close() async
}

extension BenchJournal.EntryRepository: FaultStore {
    func save(number: Int) async throws {
        try save(
            BenchJournal.Entry(
                id: "entry-\(number)", title: "fault", body: String(repeating: "full ", count: 40),
                score: Double(number), createdAt: Date(timeIntervalSince1970: Double(number))))
    }
}

extension BenchSnapshot.EntryRepository: FaultStore {
    func save(number: Int) async throws {
        try save(
            BenchSnapshot.Entry(
                id: "entry-\(number)", title: "fault", body: String(repeating: "full ", count: 40),
                score: Double(number), createdAt: Date(timeIntervalSince1970: Double(number))))
    }
}

extension BenchSQLite.EntryRepository: FaultStore {
    /// The sqlite store's ids are UUIDs: `number` in its last digits.
    static func id(_ number: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number)) ?? UUID()
    }

    func save(number: Int) async throws {
        try save(
            BenchSQLite.Entry(
                id: Self.id(number), title: "fault", body: String(repeating: "full ", count: 40),
                score: Double(number), createdAt: Date(timeIntervalSince1970: Double(number))))
    }
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Limits the size of any file this process writes to `limit` bytes, with SIGXFSZ ignored, so
/// that writes past it fail with EFBIG, as on a full disk; returns the limit before.
func limitFileSize(to limit: UInt64) -> rlimit {
    signal(SIGXFSZ, SIG_IGN)
    var original = rlimit()
    getrlimit(fileSizeLimit, &original)
    var limited = original
    limited.rlim_cur = rlim_t(limit)
    setrlimit(fileSizeLimit, &limited)
    return original
}

func openStore(_ storage: String, _ directory: URL) throws -> any FaultStore {
    switch storage {
    case "journal": try BenchJournal.EntryRepository(directory: directory)
    case "sqlite": try BenchSQLite.EntryRepository(directory: directory)
    default: try BenchSnapshot.EntryRepository(directory: directory)
    }
}

let arguments = CommandLine.arguments
guard arguments.count >= 4, ["journal", "snapshot", "sqlite"].contains(arguments[2]) else {
    let usage = "usage: see Tests/Integration/Sources/StoreFaultChild/main.swift\n"
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
let storage = arguments[2]
let directory = URL(fileURLWithPath: arguments[3])

switch arguments[1] {
case "fill":
    guard arguments.count == 5, let limit = UInt64(arguments[4]) else { exit(2) }
    var original = limitFileSize(to: limit)
    let store = try openStore(storage, directory)
    var number = 0
    while true {
        do {
            try await store.save(number: number)
            say("saved entry-\(number)")
            number += 1
        } catch {
            say("failed entry-\(number): \(error)")
            break
        }
    }
    if let journal = store as? BenchJournal.EntryRepository {
        // Waits for a compaction that a save started, then compacts on the full disk.
        do {
            try await journal.compact()
            say("compacted")
        } catch {
            say("compaction-failed \(error)")
        }
    }
    say("count \((try? await store.count).map(String.init) ?? "unreadable")")
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    say("files \(files.joined(separator: ","))")
    setrlimit(fileSizeLimit, &original)
    do {
        try await store.save(number: 1_000_000)
        say("recovered entry-1000000")
    } catch {
        say("still failing: \(error)")
    }
case "reopen":
    let first = try openStore(storage, directory)
    for number in 0..<20 { try await first.save(number: number) }
    await first.close()
    var original = limitFileSize(to: 1)
    do {
        let store = try openStore(storage, directory)
        say("opened \(try await store.count)")
        do {
            try await store.save(number: 20)
            say("saved entry-20")
        } catch {
            say("failed entry-20: \(error)")
        }
        setrlimit(fileSizeLimit, &original)
        do {
            try await store.save(number: 1_000_000)
            say("recovered entry-1000000")
        } catch {
            say("still failing: \(error)")
        }
    } catch {
        say("error: \(error)")
    }
case "open":
    if geteuid() == 0 {
        guard setgid(65534) == 0, setuid(65534) == 0 else {
            say("error: cannot become nobody")
            exit(1)
        }
    }
    do {
        let store = try openStore(storage, directory)
        say("opened \(try await store.count)")
        try await store.save(number: 2_000_000)
        say("saved entry-2000000")
    } catch {
        say("error: \(error)")
    }
default:
    exit(2)
}
