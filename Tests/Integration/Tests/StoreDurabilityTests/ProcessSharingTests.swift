import BenchJournal
import BenchSQLite
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The ids a child process printed, each with the moment this process read it: the moment its
/// save returned, give or take the pipe.
final class Acknowledgements: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(id: String, at: Date)] = []
    private var ended = false

    /// Reads `pipe` on a thread of its own until the child's output ends.
    init(reading pipe: Pipe) {
        Thread.detachNewThread { [self] in
            var pending = ""
            while case let data = pipe.fileHandleForReading.availableData, !data.isEmpty {
                let now = Date()
                pending += String(decoding: data, as: UTF8.self)
                var lines = pending.split(separator: "\n", omittingEmptySubsequences: false)
                pending = String(lines.removeLast())
                lock.withLock { entries += lines.map { (String($0), now) } }
            }
            lock.withLock { ended = true }
        }
    }

    var all: [(id: String, at: Date)] { lock.withLock { entries } }
    var count: Int { lock.withLock { entries.count } }
    var hasEnded: Bool { lock.withLock { ended } }

    /// Waits until at least `count` ids were read, or the output ended.
    func wait(for count: Int) async throws {
        while self.count < count, !hasEnded { try await Task.sleep(for: .milliseconds(5)) }
    }
}

extension SlowSuites {
    /// An app and its extension on one store: the child process writes (StoreCrashChild, which
    /// saves until it is killed and prints each id once its save returned), and this process
    /// is the other one.
    @Suite struct ProcessSharingTests {
        /// Starts the child writing to `arguments`' folder, pausing `pause` ms after each save.
        func startChild(
            _ arguments: [String], pause: Int = 2
        ) throws -> (Process, Acknowledgements) {
            let process = Process()
            process.executableURL = try TestPaths.builtExecutable("StoreCrashChild")
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(
                ["STORE_CHILD_PAUSE_MS": String(pause)], uniquingKeysWith: { $1 })
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            return (process, Acknowledgements(reading: output))
        }

        func stop(_ process: Process) {
            guard process.isRunning else { return }  // Its pid may be another process's now.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        @Test func aSecondProcessFollowsEveryAcknowledgedSaveAndSavesItsOwnWithoutFailing()
            async throws
        {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            let (child, acknowledged) = try startChild([folder.path, "0", "sqlite"])
            defer { stop(child) }
            try await acknowledged.wait(for: 1)  // The database and its table exist.

            let repository = try BenchSQLite.EntryRepository(directory: folder)
            let heard = Acknowledgements.Heard()
            let stream = await repository.changes()
            let following = Task {
                for await change in stream {
                    if case .saved(let values) = change {
                        heard.add(values.map(\.id.uuidString))
                    }
                }
            }
            // The saves acknowledged from a moment after the stream began: one acknowledged
            // just after it began may have committed just before.
            let followedFrom = Date().addingTimeInterval(0.2)
            // The child writes at an app's pace (a save, then 2 ms): 1,000 saves from now on,
            // however long this process took to get here (the rest of the suite shares the
            // machine); this process saves one value for every 20 of the child's meanwhile.
            let base = acknowledged.count
            var mine: [BenchSQLite.Entry] = []
            for number in 0..<50 {
                try await acknowledged.wait(for: base + 20 * number)
                if number == 25 {
                    // As an app in the background: what the child saves meanwhile arrives
                    // after resume(), and following goes on.
                    await repository.suspend()
                    try await acknowledged.wait(for: base + 20 * number + 40)
                    try await repository.resume()
                }
                let entry = BenchSQLite.Entry(
                    id: UUID(), title: "from the second process", body: "", score: 0,
                    createdAt: Date(timeIntervalSince1970: Double(number)))
                try await repository.save(entry)  // Never `.locked`: the writes take turns.
                mine.append(entry)
            }
            try await acknowledged.wait(for: base + 1_000)
            stop(child)
            // A bound for a loaded machine (in the full suite, the tests that share this
            // process have delayed its tasks by over 10 s): the test checks that every save
            // arrives; the delay it prints is the measurement.
            let deadline = Date().addingTimeInterval(60)
            let expected = acknowledged.all.filter { $0.at > followedFrom }
            while Date() < deadline, !expected.allSatisfy({ heard.time(of: $0.id) != nil }) {
                try await Task.sleep(for: .milliseconds(10))
            }
            following.cancel()

            #expect(acknowledged.count >= 1_000)
            var delays: [TimeInterval] = []
            for (id, at) in expected {
                guard let seen = heard.time(of: id) else {
                    Issue.record("\(id) was acknowledged but never reached changes()")
                    continue
                }
                delays.append(max(0, seen.timeIntervalSince(at)))
            }
            delays.sort()
            if let slowest = delays.last {
                print(
                    "changes() in a second process: \(delays.count) saves, median "
                        + "\(Int(delays[delays.count / 2] * 1_000)) ms, slowest "
                        + "\(Int(slowest * 1_000)) ms")
            }
            for (id, _) in acknowledged.all {
                guard let uuid = UUID(uuidString: id) else { continue }
                #expect(try await repository.find(by: uuid) != nil, "\(id) is missing")
            }
            for entry in mine {
                #expect(try await repository.find(by: entry.id) == entry)
            }
            #expect(expected.count > 900, "few saves were followed; the test proves little")
        }

        @Test func aJournalStoreIsReadByAnotherProcessWhileItsWriterRuns() async throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            let (child, acknowledged) = try startChild([folder.path, "0"])
            defer { stop(child) }
            try await acknowledged.wait(for: 1)

            // The child's saves compact the store every hundred or so: the reader reads across
            // the snapshot being replaced, and never waits for, or locks out, the writer.
            let reader = try BenchJournal.EntryRepository(readingFrom: folder)
            var refreshes = 0
            while refreshes < 40 || acknowledged.count < 600, !acknowledged.hasEnded {
                let before = acknowledged.all
                try await reader.refresh()
                refreshes += 1
                for (id, _) in before where await reader.find(by: id) == nil {
                    Issue.record("\(id) was acknowledged before the refresh, and is not read")
                }
                try await Task.sleep(for: .milliseconds(15))
            }
            stop(child)
            try await reader.refresh()
            for (id, _) in acknowledged.all where await reader.find(by: id) == nil {
                Issue.record("\(id) was acknowledged and is not read")
            }
            #expect(acknowledged.count >= 600)
        }

        #if os(Linux)
            /// iOS ends an app that is suspended while it holds a lock on a file in a shared
            /// container. A process that holds a sqlite repository open while idle (the child,
            /// in the 2 s pause after its first save) holds only SQLite's shared (read) locks;
            /// a suspended repository holds none.
            @Test func anIdleSQLiteRepositoryHoldsNoExclusiveLockAndASuspendedOneNone()
                async throws
            {
                let folder = try TestPaths.makeTemporaryFolder()
                defer { TestPaths.removeTemporaryFolder(folder) }
                let (child, acknowledged) = try startChild(
                    [folder.path, "0", "sqlite"], pause: 2_000)
                defer { stop(child) }
                try await acknowledged.wait(for: 1)
                try await Task.sleep(for: .milliseconds(200))
                let files = ["", "-wal", "-shm"].map {
                    folder.appendingPathComponent(BenchSQLite.EntryRepository.databaseFileName + $0)
                }

                let held = try locks(on: files, of: child.processIdentifier)
                #expect(!held.isEmpty, "no lock at all: /proc/locks was not read right")
                #expect(held.allSatisfy { $0.contains(" READ ") }, "\(held)")

                let repository = try BenchSQLite.EntryRepository(directory: folder)
                let entry = BenchSQLite.Entry(
                    id: UUID(), title: "idle", body: "", score: 1,
                    createdAt: Date(timeIntervalSince1970: 0))
                try await repository.save(entry)
                await repository.suspend()
                #expect(try locks(on: files, of: getpid()).isEmpty)
                await #expect(throws: BenchSQLite.EntryRepositoryError.suspended) {
                    try await repository.find(by: entry.id)
                }
                try await repository.resume()
                #expect(try await repository.find(by: entry.id) == entry)
            }

            /// The lines of /proc/locks that the process `pid` holds on `files`.
            func locks(on files: [URL], of pid: Int32) throws -> [String] {
                let inodes = Set(
                    files.compactMap {
                        (try? FileManager.default.attributesOfItem(atPath: $0.path))?[
                            .systemFileNumber] as? Int
                    })
                let pid = String(pid)
                // Read to its end: /proc/locks reports a size of 0, and a busy process has
                // more than a page of locks.
                let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/locks"))
                defer { try? file.close() }
                return String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
                    .split(separator: "\n").map(String.init).filter { line in
                        let fields = line.split(separator: " ")
                        guard fields.count > 5, fields[4] == pid,
                            let inode = fields[5].split(separator: ":").last.flatMap({ Int($0) })
                        else { return false }
                        return inodes.contains(inode)
                    }
            }
        #endif
    }
}

extension Acknowledgements {
    /// The ids a repository's `changes()` published, each with the moment it arrived first.
    final class Heard: @unchecked Sendable {
        private let lock = NSLock()
        private var times: [String: Date] = [:]

        func add(_ ids: [String]) {
            let now = Date()
            lock.withLock {
                for id in ids where times[id] == nil { times[id] = now }
            }
        }

        func time(of id: String) -> Date? { lock.withLock { times[id] } }
    }
}
