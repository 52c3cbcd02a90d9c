import BenchJournal
import BenchSQLite
import BenchSnapshot
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SlowSuites {
    /// The generated stores under the faults apps meet: a full disk, a read-only folder, a folder
    /// without permissions, and damaged bytes. None needs root: a full disk is a file size limit in
    /// a child process, and when the tests run as root the child drops to `nobody` so that file
    /// permissions apply to it.
    @Suite(.serialized) struct FaultTests {
        /// Set `FAULT_TEST_SEED` to replay a failing byte-flip run.
        static let seed =
            ProcessInfo.processInfo.environment["FAULT_TEST_SEED"].flatMap { UInt64($0) }
            ?? 20_261_130

        typealias JournalStore = BenchJournal.EntryRepository
        typealias SnapshotStore = BenchSnapshot.EntryRepository
        typealias SQLiteStore = BenchSQLite.EntryRepository

        /// A small journal-store value.
        static func entry(_ id: String) -> BenchJournal.Entry {
            BenchJournal.Entry(
                id: id, title: "t", body: "b", score: 1, createdAt: Date(timeIntervalSince1970: 0))
        }

        /// A sqlite-store value, as StoreFaultChild saves it: its UUID ends in `number`.
        static func sqliteEntry(_ number: Int) -> BenchSQLite.Entry {
            BenchSQLite.Entry(
                id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))
                    ?? UUID(),
                title: "fault", body: "b", score: 1, createdAt: Date(timeIntervalSince1970: 0))
        }

        /// What StoreFaultChild printed, line by line.
        struct ChildReport {
            let lines: [String]

            func values(_ prefix: String) -> [String] {
                lines.filter { $0.hasPrefix(prefix + " ") }.map {
                    String($0.dropFirst(prefix.count + 1))
                }
            }
        }

        static func runChild(_ arguments: [String]) throws -> ChildReport {
            let process = Process()
            process.executableURL = try TestPaths.builtExecutable("StoreFaultChild")
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return ChildReport(
                lines: String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
            )
        }

        /// Runs `StoreFaultChild open` on the store in `folder` (inside `parent`) three times: with
        /// the folder and its files read-only, with the folder forbidden, and writable again.
        static func openUnderPermissions(
            _ storage: String, folder: URL, parent: URL
        ) throws -> (readOnly: ChildReport, forbidden: ChildReport, writable: ChildReport) {
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            func setPermissions(folder folderMode: Int, files fileMode: Int) throws {
                try FileManager.default.setAttributes(
                    [.posixPermissions: 0o777], ofItemAtPath: folder.path)
                for name in files {
                    try FileManager.default.setAttributes(
                        [.posixPermissions: fileMode],
                        ofItemAtPath: folder.appendingPathComponent(name).path)
                }
                try FileManager.default.setAttributes(
                    [.posixPermissions: folderMode], ofItemAtPath: folder.path)
            }
            // The child may run as nobody: it must reach the folder.
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o755], ofItemAtPath: parent.path)

            try setPermissions(folder: 0o555, files: 0o444)
            let readOnly = try runChild(["open", storage, folder.path])
            try setPermissions(folder: 0o000, files: 0o444)
            let forbidden = try runChild(["open", storage, folder.path])
            try setPermissions(folder: 0o777, files: 0o666)
            return (readOnly, forbidden, try runChild(["open", storage, folder.path]))
        }

        /// The ids a reopened store holds.
        static func storedIDs(_ storage: String, in folder: URL) async throws -> Set<String> {
            if storage == "sqlite" {
                // The child's UUIDs end in the value's number.
                let store = try SQLiteStore(directory: folder)
                defer { Task { await store.close() } }
                return Set(
                    try await store.loadAll().map {
                        "entry-\(Int($0.id.uuidString.suffix(12)) ?? -1)"
                    })
            }
            if storage == "journal" {
                let store = try JournalStore(directory: folder)
                defer { Task { await store.close() } }
                return Set(await store.loadAll().map(\.id))
            }
            return Set(try await SnapshotStore(directory: folder).loadAll().map(\.id))
        }

        // MARK: - A full disk

        /// Below the journal's 64 KiB floor the journal's append fails first. Above it, a
        /// compaction's new snapshot fails first, in its own task, while saves go on into the
        /// journal until it fills too: none of them is lost, and the failed snapshot leaves no
        /// file. The snapshot store rewrites its one file.
        @Test(arguments: [
            ("journal", 40_000, JournalStore.journalFileName),
            ("journal", 150_000, JournalStore.journalFileName),
            ("snapshot", 40_000, SnapshotStore.fileName),
        ])
        func aFullDiskLosesNoSaveLeavesNoTemporaryFileAndSavingWorksAgain(
            storage: String, limit: Int, failingFile: String
        ) async throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }

            let report = try Self.runChild(["fill", storage, folder.path, String(limit)])

            let saved = report.values("saved")
            let failed = try #require(report.values("failed").first, "\(report.lines.suffix(3))")
            #expect(
                saved.count > 10, "the limit let almost nothing through; the test proves little")
            #expect(
                failed.contains("cannot write \(folder.appendingPathComponent(failingFile).path)"))
            #expect(failed.contains("File too large"), "the OS reason is in the message: \(failed)")
            if storage == "journal", limit > JournalStore.compactionFloor {
                // A compaction on the full disk fails, and leaves its files behind no more.
                let compaction = report.values("compaction-failed").first ?? "it did not fail"
                #expect(compaction.contains(JournalStore.snapshotFileName))
                #expect(compaction.contains("File too large"))
            }
            // Nothing changed in memory, and the folder holds the store's files and nothing else.
            #expect(report.values("count") == ["\(saved.count)"])
            let files = report.values("files").first?.split(separator: ",").map(String.init) ?? []
            let expected =
                storage == "journal"
                ? [
                    JournalStore.journalFileName, JournalStore.lockFileName,
                    JournalStore.snapshotFileName,
                ]
                : [SnapshotStore.fileName, SnapshotStore.lockFileName]
            #expect(files == expected.sorted())
            // Once there is room again, the same store saves.
            #expect(report.values("recovered") == ["entry-1000000"])

            let stored = try await Self.storedIDs(storage, in: folder)
            #expect(stored == Set(saved + ["entry-1000000"]))
        }

        @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
        func noSpaceForANewSnapshotRemovesItsTemporaryFileAndKeepsTheValues() async throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            let store = try JournalStore(directory: folder)
            let values = (0..<3).map {
                Self.entry("e\($0)")
            }
            try await store.save(contentsOf: values)
            // Writes to /dev/full fail with ENOSPC, as on a full disk.
            let temporary = folder.appendingPathComponent(JournalStore.snapshotFileName + ".tmp")
            try FileManager.default.createSymbolicLink(
                at: temporary, withDestinationURL: URL(fileURLWithPath: "/dev/full"))

            await #expect {
                try await store.compact()
            } throws: { error in
                "\(error)".contains("No space left on device")
            }

            #expect(await store.loadAll() == values)
            #expect(!FileManager.default.fileExists(atPath: temporary.path))
            #expect(
                (try? FileManager.default.destinationOfSymbolicLink(atPath: temporary.path)) == nil)
            try await store.compact()
            await store.close()
            // At once: close() releases the lock itself, though the finished compaction's task
            // may still hold the folder's files for a moment.
            #expect(try await JournalStore(directory: folder).loadAll() == values)
        }

        /// `fsync` fails with EINVAL on a character device such as /dev/null, while writes to it
        /// succeed: a new snapshot whose temporary file is linked there meets a failing `fsync`
        /// after a good write. It throws with the OS reason, changes nothing in memory, leaves no
        /// temporary file, and the next compaction succeeds. (The journal's append takes the same
        /// path on a failed `fsync` as on a failed write, which the full-disk test covers.)
        @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/null")))
        func aFailingFsyncIsAnErrorAndChangesNothing() async throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            let values = (0..<3).map {
                Self.entry("e\($0)")
            }
            let store = try JournalStore(directory: folder)
            try await store.save(contentsOf: values)
            let extra = Self.entry("e9")
            try await store.save(extra)
            let temporary = folder.appendingPathComponent(JournalStore.snapshotFileName + ".tmp")
            try FileManager.default.createSymbolicLink(
                at: temporary, withDestinationURL: URL(fileURLWithPath: "/dev/null"))

            await #expect {
                try await store.compact()
            } throws: { error in
                guard
                    case .unwritable(let file, let reason) = error
                        as? BenchJournal.EntryRepositoryError
                else { return false }
                return file.lastPathComponent == JournalStore.snapshotFileName
                    && reason.contains("Invalid argument")
            }

            #expect(await store.loadAll() == values + [extra])
            #expect(
                (try? FileManager.default.destinationOfSymbolicLink(atPath: temporary.path)) == nil)
            try await store.compact()
            await store.close()
            #expect(try await JournalStore(directory: folder).loadAll() == values + [extra])
        }

        /// A compaction writes a snapshot that holds the journal's records and the new change,
        /// then empties the journal. A crash in between (or a failed truncation) leaves records
        /// that are older than the snapshot: they are skipped, never replayed over newer values.
        @Test func recordsLeftFromBeforeACompactionAreNotReplayedOverIt() async throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            let store = try JournalStore(directory: folder)
            try await store.save(contentsOf: [Self.entry("a"), Self.entry("b")])
            var older = Self.entry("a")
            older.title = "older"
            try await store.save(older)
            let journalURL = folder.appendingPathComponent(JournalStore.journalFileName)
            let leftOver = try Data(contentsOf: journalURL)
            var newer = [Self.entry("a"), Self.entry("b")]
            for index in newer.indices { newer[index].title = "newer" }
            // As large as the store: written as a new snapshot, and the journal emptied.
            try await store.save(contentsOf: newer)
            await store.close()
            // As if the process had died before the journal was emptied.
            try leftOver.write(to: journalURL)

            let reopened = try JournalStore(directory: folder)

            #expect(await reopened.loadAll() == newer)
            await reopened.close()
        }

        /// A full disk when a store opens: every stored value is read, a save fails, and the same
        /// repository saves once there is room. The file size limit refuses the sqlite store's
        /// rewrite of its `-shm`, so it opens read-only, and its usual connection again for the
        /// save once the limit is lifted (a really full disk: `aClosedSQLiteStoreOpens…`).
        @Test(arguments: ["journal", "snapshot", "sqlite"])
        func aClosedStoreOpensAndReadsOnAFullDiskAndSavesOnceThereIsRoom(
            storage: String
        ) async throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }

            let report = try Self.runChild(["reopen", storage, folder.path])

            #expect(report.values("opened") == ["20"], "\(report.lines)")
            #expect(report.values("failed").count == 1, "\(report.lines)")
            #expect(report.values("recovered") == ["entry-1000000"], "\(report.lines)")
            let stored = try await Self.storedIDs(storage, in: folder)
            #expect(stored == Set((0..<20).map { "entry-\($0)" } + ["entry-1000000"]))
        }

        // MARK: - Permissions

        /// A read-only folder (files too, as on a read-only volume), then a folder without
        /// permissions: each open or save fails with the file and the OS reason; once the
        /// permissions are back, the same values open and a save works.
        @Test(arguments: ["journal", "snapshot"])
        func aReadOnlyOrForbiddenFolderIsAnErrorNamingTheFileUntilItIsWritableAgain(
            storage: String
        ) async throws {
            let parent = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(parent) }
            let folder = parent.appendingPathComponent("store")
            let values = (0..<3).map { "entry-\($0)" }
            if storage == "journal" {
                let store = try JournalStore(directory: folder)
                for id in values {
                    try await store.save(
                        Self.entry(id))
                }
                await store.close()
            } else {
                let store = try SnapshotStore(directory: folder)
                for id in values {
                    try await store.save(
                        BenchSnapshot.Entry(
                            id: id, title: "t", body: "b", score: 1,
                            createdAt: Date(timeIntervalSince1970: 0)))
                }
            }
            let (readOnly, forbidden, writable) = try Self.openUnderPermissions(
                storage, folder: folder, parent: parent)

            for (name, report) in [("read-only", readOnly), ("forbidden", forbidden)] {
                let error = try #require(report.values("error:").first, "\(name): \(report.lines)")
                #expect(
                    error.contains(folder.path), "\(name): the message names the file: \(error)")
                #expect(
                    error.lowercased().contains("permission"), "\(name): the OS reason: \(error)")
                #expect(report.values("saved").isEmpty, "\(name)")
            }
            // Neither store opens where it cannot take its lock: a second instance could otherwise
            // overwrite this one's saves once the folder is writable again.
            #expect(readOnly.values("opened").isEmpty)
            #expect(writable.values("opened") == ["3"], "\(writable.lines)")
            #expect(writable.values("saved") == ["entry-2000000"])
            #expect(
                try await Self.storedIDs(storage, in: folder) == Set(values + ["entry-2000000"]))
        }

        // MARK: - Damaged bytes

        /// Flips one random bit of one random byte, in the snapshot or in the journal, and opens
        /// the store: each open either refuses or returns exactly the saved values.
        @Test func aThousandSingleByteFlipsNeverOpenWithOtherValues() async throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            let store = try JournalStore(directory: folder)
            let entry = { (number: Int) in
                BenchJournal.Entry(
                    id: "entry-\(number)", title: "title \(number)", body: "a body for \(number)",
                    score: Double(number) / 4,
                    createdAt: Date(timeIntervalSince1970: Double(number)))
            }
            // A snapshot of 200 values, then a journal of single saves and deletes.
            try await store.save(contentsOf: (0..<200).map(entry))
            for number in 200..<240 { try await store.save(entry(number)) }
            try await store.delete(ids: (0..<10).map { "entry-\($0)" })
            let expected = await store.loadAll()
            await store.close()
            let snapshotURL = folder.appendingPathComponent(JournalStore.snapshotFileName)
            let journalURL = folder.appendingPathComponent(JournalStore.journalFileName)
            let pristine = [try Data(contentsOf: snapshotURL), try Data(contentsOf: journalURL)]
            #expect(pristine.allSatisfy { $0.count > 1_000 })

            var random = SplitMix64(seed: Self.seed)
            var refused = 0
            for flip in 0..<1_000 {
                let which = flip % 2
                var damaged = pristine[which]
                let index = Int(random.next() % UInt64(damaged.count))
                damaged[index] ^= UInt8(1 << (random.next() % 8))
                try damaged.write(to: which == 0 ? snapshotURL : journalURL)
                try pristine[1 - which].write(to: which == 0 ? journalURL : snapshotURL)

                do {
                    let opened = try JournalStore(directory: folder)
                    let values = await opened.loadAll()
                    await opened.close()
                    if values != expected {
                        Issue.record(
                            "flip \(flip): byte \(index) of \(which == 0 ? "the snapshot" : "the journal") opened with other values (seed \(Self.seed))"
                        )
                    }
                } catch {
                    refused += 1
                }
            }
            #expect(refused > 900, "almost every flip is in a checked byte and is refused")
        }

        /// A last line without its newline is a cut-short append, and is dropped; but a whole
        /// record with a valid checksum whose newline was damaged is damage, and is refused.
        @Test(arguments: [UInt8(ascii: "\u{0B}"), UInt8(ascii: " ")])
        func aJournalWhoseLastNewlineIsDamagedIsRefusedNotTruncated(damage: UInt8) async throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            let store = try JournalStore(directory: folder)
            for number in 0..<3 {
                try await store.save(Self.entry("entry-\(number)"))
            }
            await store.close()
            let journalURL = folder.appendingPathComponent(JournalStore.journalFileName)
            var bytes = try Data(contentsOf: journalURL)
            bytes[bytes.count - 1] = damage

            try bytes.write(to: journalURL)

            #expect {
                try JournalStore(directory: folder)
            } throws: { error in
                guard case .corrupt(_, _, let reason) = error as? BenchJournal.EntryRepositoryError
                else { return false }
                return reason == "damaged line end"
            }
            #expect(try Data(contentsOf: journalURL) == bytes)
        }

        @Test func fiveHundredSingleByteFlipsInTheSnapshotStoreNeverOpenWithOtherValues()
            async throws
        {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            let store = try SnapshotStore(directory: folder)
            try await store.save(
                contentsOf: (0..<100).map {
                    BenchSnapshot.Entry(
                        id: "entry-\($0)", title: "title \($0)", body: "body", score: 1,
                        createdAt: Date(timeIntervalSince1970: Double($0)))
                })
            let expected = await store.loadAll()
            let file = folder.appendingPathComponent(SnapshotStore.fileName)
            let pristine = try Data(contentsOf: file)

            var random = SplitMix64(seed: Self.seed)
            for flip in 0..<500 {
                var damaged = pristine
                let index = Int(random.next() % UInt64(damaged.count))
                damaged[index] ^= UInt8(1 << (random.next() % 8))
                try damaged.write(to: file)

                if let opened = try? SnapshotStore(directory: folder),
                    await opened.loadAll() != expected
                {
                    Issue.record(
                        "flip \(flip): byte \(index) opened with other values (seed \(Self.seed))")
                }
            }
        }

        // MARK: - The sqlite store

        /// A full disk while the sqlite store writes its WAL: the transaction is rolled back, the
        /// error names the database and the OS reason, no returned save is lost, and the same
        /// repository saves again once there is room.
        @Test func aFullDiskLosesNoSQLiteSaveAndSavingWorksAgain() async throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }

            let report = try Self.runChild(["fill", "sqlite", folder.path, "300000"])

            let saved = report.values("saved")
            let failed = try #require(report.values("failed").first, "\(report.lines.suffix(3))")
            #expect(
                saved.count > 10, "the limit let almost nothing through; the test proves little")
            let database = folder.appendingPathComponent(SQLiteStore.databaseFileName)
            #expect(failed.contains("cannot write \(database.path)"), "\(failed)")
            // SQLite reports the failed write as its own I/O error; it does not always keep the
            // operating system's reason (here EFBIG) for the message.
            #expect(
                failed.contains("disk I/O error") || failed.contains("disk is full"), "\(failed)")
            #expect(report.values("count") == ["\(saved.count)"])
            let files = report.values("files").first?.split(separator: ",").map(String.init) ?? []
            let name = SQLiteStore.databaseFileName
            #expect(Set(files).isSubset(of: [name, name + "-wal", name + "-shm"]), "\(files)")
            #expect(report.values("recovered") == ["entry-1000000"], "\(report.lines.suffix(2))")

            let stored = try await Self.storedIDs("sqlite", in: folder)
            #expect(stored == Set(saved + ["entry-1000000"]))
        }

        /// A full disk when the sqlite store opens. SQLite needs its `-shm` file to read a
        /// database in WAL mode; it removed it (and the `-wal`) at the last close, and a new one
        /// needs space, so the store did not open at all. The engine keeps both now, the WAL
        /// emptied, and the first open writes the `-shm` over the space it frees; where that
        /// fails (a filesystem that does not give the space back at once, or a database an
        /// earlier release closed, which has no `-shm`), it opens read-only. Either way every
        /// value reads, a save fails naming the database, and the same repository saves once
        /// there is room. This needs a disk that is really full: a 1 MiB tmpfs, which only root
        /// can mount (the test does not run otherwise).
        @Test(.enabled(if: SmallDisk.canMount, "mounting a tmpfs needs root on Linux"))
        func aClosedSQLiteStoreOpensOnAFullDiskReadsEveryValueAndSavesOnceThereIsRoom()
            async throws
        {
            let disk = try SmallDisk()
            defer { disk.unmount() }
            let folder = disk.folder.appendingPathComponent("store")
            let first = try SQLiteStore(directory: folder)
            for number in 0..<20 { try await first.save(Self.sqliteEntry(number)) }
            await first.close()
            let database = folder.appendingPathComponent(SQLiteStore.databaseFileName)

            for (count, release) in [(20, "this one"), (21, "an earlier one")] {
                if release == "an earlier one" {
                    for suffix in ["-wal", "-shm"] {
                        try FileManager.default.removeItem(atPath: database.path + suffix)
                    }
                }
                try disk.fill()
                let store = try SQLiteStore(directory: folder)
                #expect(try await store.count == count, "\(release)")
                await #expect {
                    try await store.save(Self.sqliteEntry(100 + count))
                } throws: {
                    "\($0)".contains("cannot write \(database.path)")
                }
                if release == "an earlier one" {
                    // It opened read-only. SQLite shares one `-shm` mapping between a process's
                    // connections to a file: a second repository opens read-only too, and the
                    // first writes again once the second has closed.
                    let second = try SQLiteStore(directory: folder)
                    #expect(try await second.count == count)
                    try disk.empty()
                    await #expect(throws: (any Error).self) {
                        try await store.save(Self.sqliteEntry(300))
                    }
                    await second.close()
                } else {
                    try disk.empty()
                }
                try await store.save(Self.sqliteEntry(200 + count))
                #expect(try await store.count == count + 1, "\(release)")
                await store.close()
            }
            #expect(try await Self.storedIDs("sqlite", in: folder).count == 22)
        }

        /// A tmpfs of 1 MiB mounted on a temporary folder, and a file that fills it.
        struct SmallDisk {
            let folder: URL
            var filler: URL { folder.appendingPathComponent("filler") }

            /// Whether this process may mount one (root on Linux).
            static let canMount: Bool = {
                guard let disk = try? SmallDisk() else { return false }
                disk.unmount()
                return true
            }()

            init() throws {
                folder = try TestPaths.makeTemporaryFolder()
                guard
                    Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", folder.path])
                else {
                    TestPaths.removeTemporaryFolder(folder)
                    throw CocoaError(.featureUnsupported)
                }
            }

            /// Writes the filler until the disk has no byte left.
            func fill() throws {
                _ = FileManager.default.createFile(atPath: filler.path, contents: nil)
                let handle = try FileHandle(forWritingTo: filler)
                defer { try? handle.close() }
                for size in [4096, 1] {
                    let block = Data(count: size)
                    while (try? handle.write(contentsOf: block)) != nil {}
                }
            }

            func empty() throws {
                try FileManager.default.removeItem(at: filler)
            }

            func unmount() {
                _ = Self.run("/bin/umount", [folder.path])
                TestPaths.removeTemporaryFolder(folder)
            }

            private static func run(_ tool: String, _ arguments: [String]) -> Bool {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: tool)
                process.arguments = arguments
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                guard (try? process.run()) != nil else { return false }
                process.waitUntilExit()
                return process.terminationStatus == 0
            }
        }

        /// A read-only folder and database: the store opens and reads, and a save fails naming
        /// the database and the reason; a folder without permissions does not open. Once the
        /// permissions are back, the same values open and a save works.
        @Test func aReadOnlyOrForbiddenFolderKeepsTheSQLiteStoreIntactUntilItIsWritableAgain()
            async throws
        {
            let parent = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(parent) }
            let folder = parent.appendingPathComponent("store")
            let store = try SQLiteStore(directory: folder)
            for number in 0..<3 { try await store.save(Self.sqliteEntry(number)) }
            await store.close()
            let (readOnly, forbidden, writable) = try Self.openUnderPermissions(
                "sqlite", folder: folder, parent: parent)

            for (name, report) in [("read-only", readOnly), ("forbidden", forbidden)] {
                let error = try #require(report.values("error:").first, "\(name): \(report.lines)")
                #expect(
                    error.contains(folder.path), "\(name): the message names the file: \(error)")
                #expect(report.values("saved").isEmpty, "\(name)")
            }
            // Its files kept since the last close, the database opens read-only and reads; the
            // save fails.
            #expect(readOnly.values("opened") == ["3"], "\(readOnly.lines)")
            #expect(forbidden.values("opened").isEmpty)
            #expect(writable.values("opened") == ["3"], "\(writable.lines)")
            #expect(writable.values("saved") == ["entry-2000000"])
            #expect(
                try await Self.storedIDs("sqlite", in: folder)
                    == Set((0..<3).map { "entry-\($0)" } + ["entry-2000000"]))
        }

        /// Flips one random bit of one random byte of the database, 1,000 times: an open and a
        /// read either refuse or return exactly the saved values. A flip in free space, or in a
        /// byte SQLite does not read for these rows, changes nothing; one in a row's JSON or id
        /// fails its checksum; one in a page's structure makes SQLite refuse.
        @Test func aThousandSingleByteFlipsInTheSQLiteStoreNeverReadOtherValues() async throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            let store = try SQLiteStore(directory: folder)
            for number in 0..<230 { try await store.save(Self.sqliteEntry(number)) }
            try await store.delete(ids: (0..<10).map { Self.sqliteEntry($0).id })
            let expected = try await store.loadAll()
            await store.close()
            let file = folder.appendingPathComponent(SQLiteStore.databaseFileName)
            let pristine = try Data(contentsOf: file)

            var random = SplitMix64(seed: Self.seed)
            var refused = 0
            for flip in 0..<1_000 {
                var damaged = pristine
                let index = Int(random.next() % UInt64(damaged.count))
                damaged[index] ^= UInt8(1 << (random.next() % 8))
                try damaged.write(to: file)
                for suffix in ["-wal", "-shm"] {
                    try? FileManager.default.removeItem(atPath: file.path + suffix)
                }
                do {
                    let opened = try SQLiteStore(directory: folder)
                    let values = try await opened.loadAll()
                    await opened.close()
                    if values != expected {
                        Issue.record(
                            "flip \(flip): byte \(index) read other values (seed \(Self.seed))")
                    }
                } catch {
                    refused += 1
                }
            }
            #expect(refused > 100, "flips in rows and pages are found: \(refused) of 1,000")
        }
    }
}
