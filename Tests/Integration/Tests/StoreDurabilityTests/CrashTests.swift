import BenchJournal
import BenchJournalUUID
import BenchSQLite
import Foundation
import Notebook
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

extension SlowSuites {
    /// Kills a process that is saving to the generated journal store with SIGKILL at random
    /// moments, and checks that the store, reopened, holds every save that had returned.
    @Suite struct CrashTests {
        /// Set `CRASH_TEST_SEED` to replay a failing run.
        static let seed =
            ProcessInfo.processInfo.environment["CRASH_TEST_SEED"].flatMap { UInt64($0) }
            ?? 20_261_130

        @Test func everyReturnedSaveSurvivesSIGKILL() async throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            let child = try TestPaths.builtExecutable("StoreCrashChild")
            var random = SplitMix64(seed: Self.seed)
            var acknowledged: [String] = []
            for round in 0..<24 {
                let process = Process()
                process.executableURL = child
                process.arguments = [folder.path, String(round * 1_000_000)]
                let output = Pipe()
                process.standardOutput = output
                try process.run()
                let delay = 30 + random.next() % 300
                try await Task.sleep(for: .milliseconds(delay))
                kill(process.processIdentifier, SIGKILL)
                let printed = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                acknowledged += String(decoding: printed, as: UTF8.self).split(separator: "\n").map(
                    String.init)

                let repository = try BenchJournal.EntryRepository(directory: folder)
                for id in acknowledged where await repository.find(by: id) == nil {
                    Issue.record(
                        "round \(round): \(id) was acknowledged but is missing (seed \(Self.seed))")
                }
                await repository.close()
            }
            #expect(
                acknowledged.count > 24, "the child saved almost nothing; the test proves little")
        }

        /// The child compacts over and over in a task of its own while it saves, so most kills
        /// land while a snapshot is being written beside the saves: every returned save, made
        /// before or during the compaction, is there after it; a value saved again and again
        /// holds its last acknowledged number or a later one, and a deleted value stays gone.
        @Test func everyReturnedSaveSurvivesSIGKILLInTheMiddleOfACompaction() async throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            let child = try TestPaths.builtExecutable("StoreCrashChild")
            var random = SplitMix64(seed: Self.seed &+ 1)
            var acknowledged: Set<String> = []
            var deleted: Set<String> = []
            var counter = -1
            var killedWhileCompacting = 0
            let temporary = folder.appendingPathComponent(
                BenchJournal.EntryRepository.snapshotFileName + ".tmp")
            for round in 0..<12 {
                let process = Process()
                process.executableURL = child
                process.arguments = [folder.path, String(round * 1_000_000), "compacting"]
                let output = Pipe()
                process.standardOutput = output
                try process.run()
                // The first round also stores the 20,000 values the compactions write.
                let delay = (round == 0 ? 1_500 : 100) + random.next() % 400
                try await Task.sleep(for: .milliseconds(delay))
                kill(process.processIdentifier, SIGKILL)
                let printed = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                for line in String(decoding: printed, as: UTF8.self).split(separator: "\n") {
                    let words = line.split(separator: " ").map(String.init)
                    switch words.first {
                    case "counter": counter = Int(words[1]) ?? counter
                    // Gone or not: the kill may land before the delete or after it.
                    case "deleting": acknowledged.remove(words[1])
                    case "deleted": deleted.insert(words[1])
                    default: acknowledged.insert(String(line))
                    }
                }
                // A snapshot being written when the kill came; opening removes it.
                if FileManager.default.fileExists(atPath: temporary.path) {
                    killedWhileCompacting += 1
                }

                let repository = try BenchJournal.EntryRepository(directory: folder)
                for id in acknowledged where await repository.find(by: id) == nil {
                    Issue.record(
                        "round \(round): \(id) was acknowledged but is missing (seed \(Self.seed))")
                }
                for id in deleted where await repository.find(by: id) != nil {
                    Issue.record(
                        "round \(round): \(id) was deleted but is back (seed \(Self.seed))")
                }
                let stored = await repository.find(by: "counter").map { Int($0.score) } ?? -1
                #expect(stored >= counter, "round \(round): the counter went back (\(Self.seed))")
                await repository.close()
            }
            #expect(
                acknowledged.count > 12, "the child saved almost nothing; the test proves little")
            #expect(!deleted.isEmpty, "the child deleted nothing; the test proves less")
            #expect(killedWhileCompacting > 3, "few kills landed in a compaction")
        }

        @Test func anotherProcessWritingTheFolderLocksThisOneOut() async throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            let process = Process()
            process.executableURL = try TestPaths.builtExecutable("StoreCrashChild")
            process.arguments = [folder.path, "0"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            // Its first acknowledged save means it has the folder open.
            _ = output.fileHandleForReading.availableData

            #expect {
                try BenchJournal.EntryRepository(directory: folder)
            } throws: { error in
                guard case .locked = error as? BenchJournal.EntryRepositoryError else {
                    return false
                }
                return true
            }

            kill(process.processIdentifier, SIGKILL)
            _ = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(throws: Never.self) { try BenchJournal.EntryRepository(directory: folder) }
        }

        /// The same for the sqlite store: every transaction that returned is in the database
        /// after a kill at any moment (WAL, `synchronous=FULL`), and the database opens again.
        @Test func everyReturnedSQLiteSaveSurvivesSIGKILL() async throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            let child = try TestPaths.builtExecutable("StoreCrashChild")
            var random = SplitMix64(seed: Self.seed)
            var acknowledged: [UUID] = []
            for round in 0..<24 {
                let process = Process()
                process.executableURL = child
                process.arguments = [folder.path, String(round * 1_000_000), "sqlite"]
                let output = Pipe()
                process.standardOutput = output
                try process.run()
                try await Task.sleep(for: .milliseconds(30 + random.next() % 300))
                kill(process.processIdentifier, SIGKILL)
                let printed = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                acknowledged += String(decoding: printed, as: UTF8.self).split(separator: "\n")
                    .compactMap { UUID(uuidString: String($0)) }

                let repository = try BenchSQLite.EntryRepository(directory: folder)
                for id in acknowledged where try await repository.find(by: id) == nil {
                    Issue.record(
                        "round \(round): \(id) was acknowledged but is missing (seed \(Self.seed))")
                }
                #expect(try await repository.count >= acknowledged.count)
                await repository.close()
            }
            #expect(
                acknowledged.count > 24, "the child saved almost nothing; the test proves little")
        }

        /// Related models (Tests/Goldens/related-models): the child creates folders, each with
        /// 20 notes and 40 attachments in one transaction, and deletes them with their notes and
        /// attachments by cascade, and is killed at 20 random moments. After each kill, every
        /// folder is whole or gone with all its notes and attachments, nothing is left without
        /// its parent, every acknowledged create and delete holds, and no folder is gone that
        /// no delete was begun for.
        @Test func everyFolderIsWholeOrGoneWithItsNotesAfterSIGKILL() async throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            let child = try TestPaths.builtExecutable("StoreCrashChild")
            var random = SplitMix64(seed: Self.seed)
            var created: Set<UUID> = []
            var deleted: Set<UUID> = []
            // Deletes begun: a kill between the commit and `deleted` leaves them unacknowledged.
            var deleting: Set<UUID> = []
            for round in 0..<20 {
                let process = Process()
                process.executableURL = child
                process.arguments = [folder.path, "cascade"]
                let output = Pipe()
                process.standardOutput = output
                try process.run()
                try await Task.sleep(for: .milliseconds(100 + random.next() % 400))
                kill(process.processIdentifier, SIGKILL)
                let printed = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                for line in String(decoding: printed, as: UTF8.self).split(separator: "\n") {
                    let words = line.split(separator: " ")
                    guard words.count == 2, let id = UUID(uuidString: String(words[1])) else {
                        continue
                    }
                    switch words[0] {
                    case "created": created.insert(id)
                    case "deleting": deleting.insert(id)
                    default: deleted.insert(id)
                    }
                }

                let folders = try FolderRepository(directory: folder)
                let notes = try NoteRepository(directory: folder)
                let attachments = try AttachmentRepository(directory: folder)
                let folderIDs = Set(try await folders.loadAll().map(\.id))
                let storedNotes = try await notes.loadAll()
                let noteIDs = Set(storedNotes.map(\.id))
                let storedAttachments = try await attachments.loadAll()
                let context = "round \(round), seed \(Self.seed)"
                for id in created.subtracting(deleting).subtracting(folderIDs) {
                    Issue.record("\(context): folder \(id) was created, and is missing")
                }
                for id in deleted.intersection(folderIDs) {
                    Issue.record("\(context): folder \(id) was deleted, and is back")
                }
                let notesByFolder = Dictionary(grouping: storedNotes, by: \.folderID)
                let attachmentsByNote = Dictionary(grouping: storedAttachments, by: \.noteID)
                for id in folderIDs where notesByFolder[id]?.count != 20 {
                    Issue.record(
                        "\(context): folder \(id) has \(notesByFolder[id]?.count ?? 0) notes")
                }
                for note in storedNotes where attachmentsByNote[note.id]?.count != 2 {
                    Issue.record("\(context): note \(note.id) lost attachments")
                }
                #expect(
                    storedNotes.allSatisfy { folderIDs.contains($0.folderID) },
                    "\(context): a note outlived its folder")
                #expect(
                    storedAttachments.allSatisfy { noteIDs.contains($0.noteID) },
                    "\(context): an attachment outlived its note")
                await folders.close()
                await notes.close()
                await attachments.close()
            }
            #expect(
                deleted.count > 20, "the child deleted almost nothing; the test proves little")
        }

        /// A journal store of 120,000 values moved to sqlite (the model of bench-sqlite was a
        /// journal model first): the child's open, which imports them 10,000 to a transaction,
        /// is killed at random moments, later each time, until one open returns. At least one
        /// kill lands between two commits (the table holds some values, not all), the import
        /// ends in a child, and then every value is in the database as the journal held it,
        /// once, with the journal's files kept as `.imported`. (That an open goes on from the
        /// last commit rather than from the start, StorageChangeTests shows.)
        @Test func aMoveToSQLiteKilledOnTheWayEndsWithEveryValue() async throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            let values = (0..<120_000).map {
                BenchJournalUUID.Entry(
                    id: sqliteID($0), title: "moved \($0)", body: "", score: Double($0),
                    createdAt: Date(timeIntervalSince1970: Double($0)))
            }
            let journal = try BenchJournalUUID.EntryRepository(directory: folder)
            try await journal.save(contentsOf: values)
            await journal.close()
            let child = try TestPaths.builtExecutable("StoreCrashChild")
            let database = folder.appendingPathComponent(
                BenchSQLite.EntryRepository.databaseFileName)
            var random = SplitMix64(seed: Self.seed)
            var counts: [Int] = []
            var moved = false
            for round in 0..<60 where !moved {
                let process = Process()
                process.executableURL = child
                process.arguments = [folder.path, "move"]
                let output = Pipe()
                process.standardOutput = output
                try process.run()
                // Later each round, so the first kills land early and an open ends at last.
                // Timed off the test's own threads, which other tests may keep busy.
                let wait = 200 + round * 250 + Int(random.next() % 250)
                let pid = process.processIdentifier
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(wait)) {
                    kill(pid, SIGKILL)
                }
                let printed = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                moved = String(decoding: printed, as: UTF8.self).contains("moved")
                if !moved { counts.append(rowCount(of: "entries", in: database)) }
            }

            #expect(moved, "no open returned in 60 rounds; kills after \(counts)")
            #expect(
                counts.contains { $0 > 0 && $0 < values.count },
                "no kill landed between two commits (rows after each kill: \(counts))")
            let repository = try BenchSQLite.EntryRepository(directory: folder)
            #expect(try await repository.count == values.count)
            for value in values where value.id.uuidString.hasSuffix("0") {
                let found = try await repository.find(by: value.id)
                #expect(found?.title == value.title && found?.score == value.score)
            }
            await repository.close()
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(names.contains("entries.snapshot.json.imported"))
            #expect(!names.contains { $0.hasSuffix(".importing") })
        }

        /// A second process reads and writes the sqlite store while the child writes to it:
        /// neither is locked out (each write waits for the other's, briefly).
        @Test func anotherProcessSharesTheSQLiteStoreWhileTheChildWrites() async throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            let process = Process()
            process.executableURL = try TestPaths.builtExecutable("StoreCrashChild")
            process.arguments = [folder.path, "0", "sqlite"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            // Its first acknowledged save means the table exists.
            _ = output.fileHandleForReading.availableData

            let repository = try BenchSQLite.EntryRepository(directory: folder)
            let mine = BenchSQLite.Entry(
                id: UUID(), title: "from the test", body: "", score: 0,
                createdAt: Date(timeIntervalSince1970: 0))
            for _ in 0..<20 {
                try await repository.save(mine)
                #expect(try await repository.count > 0)
            }

            kill(process.processIdentifier, SIGKILL)
            _ = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(try await repository.find(by: mine.id) == mine)
        }
    }
}

/// The id the crash child gives value `number` in the sqlite store.
func sqliteID(_ number: Int) -> UUID {
    UUID(uuidString: String(format: "00000000-0000-4000-8000-%012X", number)) ?? UUID()
}

/// The rows of `table` in the database `file`, read through SQLite's C API (opening the
/// repository would import what is left); 0 when there is no such table yet.
func rowCount(of table: String, in file: URL) -> Int {
    var database: OpaquePointer?
    defer { sqlite3_close(database) }
    guard sqlite3_open_v2(file.path, &database, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
        return 0
    }
    var statement: OpaquePointer?
    defer { sqlite3_finalize(statement) }
    guard
        sqlite3_prepare_v2(database, "SELECT count(*) FROM \(table)", -1, &statement, nil)
            == SQLITE_OK, sqlite3_step(statement) == SQLITE_ROW
    else { return 0 }
    return Int(sqlite3_column_int64(statement, 0))
}
