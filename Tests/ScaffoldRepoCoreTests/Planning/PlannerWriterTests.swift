import Foundation
import Testing

@testable import ScaffoldRepoCore

/// The SIGHUP a test handler saw: set from the handler.
private nonisolated(unsafe) var hangUpsSeen = 0

@Suite struct PlannerWriterTests {
    private let files = [
        GeneratedFile(path: "a.txt", contents: "A\n"),
        GeneratedFile(path: "sub/b.txt", contents: "B\n"),
    ]

    private func plan(in root: URL, force: Bool = false) throws -> [PlannedChange] {
        try Planner.plan(files, root: root, displayRoot: "out", force: force)
    }

    @Test func newFilesAreCreated() throws {
        let root = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(root) }

        let changes = try plan(in: root)
        try Writer.apply(changes)

        #expect(changes.map(\.status) == [.create, .create])
        #expect(changes.map(\.displayPath) == ["out/a.txt", "out/sub/b.txt"])
        #expect(TestPaths.text(root.appendingPathComponent("sub/b.txt")) == "B\n")
    }

    @Test func identicalFilesAreNotRewritten() throws {
        let root = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(root) }
        try Writer.apply(try plan(in: root))
        let file = root.appendingPathComponent("a.txt")
        let old = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: file.path)

        let changes = try plan(in: root)
        try Writer.apply(changes)

        #expect(changes.map(\.status) == [.identical, .identical])
        let modified =
            try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        #expect(modified == old)
    }

    @Test func aDifferentFileIsAConflictAndOtherFilesAreSkipped() throws {
        let root = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(root) }
        try Data("mine\n".utf8).write(to: root.appendingPathComponent("a.txt"))

        let changes = try plan(in: root)

        #expect(changes.map(\.status) == [.conflict, .create])
        #expect(Planner.blocked(changes).map(\.status) == [.conflict, .skip])
    }

    @Test func aFileStillAsGeneratedIsStaleButAnEditedOneIsModified() throws {
        let root = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(root) }
        try Data("old A\n".utf8).write(to: root.appendingPathComponent("a.txt"))
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("edited B\n".utf8).write(to: root.appendingPathComponent("sub/b.txt"))
        let recorded = ["a.txt": ContentHash.of("old A\n"), "sub/b.txt": ContentHash.of("old B\n")]

        let changes = try Planner.plan(
            files, root: root, displayRoot: "", force: false, recorded: recorded)

        #expect(changes.map(\.status) == [.update, .modified])
        #expect(changes.map(\.status.isKept) == [false, true])
    }

    @Test func forceOverwritesADifferentFile() throws {
        let root = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(root) }
        try Data("mine\n".utf8).write(to: root.appendingPathComponent("a.txt"))

        let changes = try plan(in: root, force: true)
        try Writer.apply(changes)

        #expect(changes.map(\.status) == [.force, .create])
        #expect(TestPaths.text(root.appendingPathComponent("a.txt")) == "A\n")
    }

    @Test func aFolderWhereAFileGoesIsRefusedEvenWithForce() throws {
        let root = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(root) }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("a.txt"), withIntermediateDirectories: true)

        #expect(
            throws: PlanError("out/a.txt is a folder where a generated file goes; move it away")
        ) {
            try plan(in: root, force: true)
        }
    }

    @Test func aFileWhereAFolderGoesIsRefused() throws {
        let root = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(root) }
        try Data().write(to: root.appendingPathComponent("sub"))

        #expect(throws: PlanError.self) { try plan(in: root) }
    }

    @Test func aFailedStagingWritesNothing() throws {
        let root = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(root) }
        let changes = try plan(in: root)
        // A file appears where the second file's folder goes after planning: staging fails.
        try Data().write(to: root.appendingPathComponent("sub"))

        #expect(throws: WriteError.self) { try Writer.apply(changes) }

        #expect(try TestPaths.files(below: root) == ["sub"])
    }

    /// A run killed while writing leaves its staged files (`.a.txt.scaffold-repo-PID`) beside
    /// the files; the next run that writes there removes those of a process no longer running,
    /// and leaves one whose process runs (it may be writing now, or have a reused number).
    @Test func theStagedFilesOfAnEndedRunAreRemovedByTheNextWrite() throws {
        let root = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(root) }
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/sh")
        ended.arguments = ["-c", "exit 0"]
        try ended.run()
        ended.waitUntilExit()
        let running = 1  // init's, which always runs
        for name in [
            ".a.txt.scaffold-repo-\(ended.processIdentifier)",
            "sub/.b.txt.scaffold-repo-\(ended.processIdentifier)",
            ".a.txt.scaffold-repo-\(running)", "sub/.scaffold-repo-notes.txt",
        ] {
            let file = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("half\n".utf8).write(to: file)
        }

        try Writer.apply(try plan(in: root))

        #expect(
            try TestPaths.files(below: root).sorted()
                == [
                    ".a.txt.scaffold-repo-\(running)", "a.txt",
                    "sub/.scaffold-repo-notes.txt",
                    "sub/b.txt",
                ])
    }

    /// A link to nothing where a file or a folder goes is a person's (it may name a disk not
    /// mounted now): refused, even with `--force`, where it was replaced by a new file before.
    @Test func aLinkToNothingWhereAFileOrFolderGoesIsRefusedEvenWithForce() throws {
        let root = try TestPaths.makeTemporaryFolder()
        defer { TestPaths.removeTemporaryFolder(root) }
        let link = root.appendingPathComponent("a.txt")
        try FileManager.default.createSymbolicLink(
            atPath: link.path, withDestinationPath: "/nonexistent/a.txt")

        for force in [false, true] {
            #expect(
                throws: PlanError(
                    "out/a.txt is a link to /nonexistent/a.txt, which does not exist, where a "
                        + "generated file goes; remove the link, or restore the file it names")
            ) { try plan(in: root, force: force) }
        }
        try FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("sub").path, withDestinationPath: "/nonexistent")
        #expect(throws: PlanError.self) { try plan(in: root, force: true) }
        #expect(
            try FileManager.default.destinationOfSymbolicLink(
                atPath: root.appendingPathComponent("sub").path) == "/nonexistent")

        let output = ScaffoldRepo.run(
            ["Note", "id:UUID", "--output", "sub"], currentDirectory: root)
        #expect(output.exitCode == 2)
        #expect(output.standardError.contains("is a link to /nonexistent, which does not exist"))
        #expect(try TestPaths.files(below: root).isEmpty)
    }

    /// The file system's root as the destination (`--output /`): planning stops at the root,
    /// which is its own parent, where it looped for ever.
    @Test func aPlanAtTheFileSystemsRootEnds() throws {
        let file = GeneratedFile(
            path: "scaffold-repo-test-\(UUID().uuidString)/a.txt", contents: "")

        let changes = try Planner.plan(
            [file], root: URL(fileURLWithPath: "/"), displayRoot: "/", force: false)

        #expect(changes.map(\.status) == [.create])
    }

    /// A SIGHUP (as SIGINT or SIGTERM) that arrives while a plan is written reaches the
    /// process's own handler once the writing is done, nested calls included, and not before.
    @Test func aSignalWhileWritingArrivesOnceTheFilesAreInPlace() throws {
        // While no other test writes, and none starts: its signals would be held too.
        while !Interruptions.whileIdle({ checkHeldSignals() }) { usleep(1_000) }
    }

    private func checkHeldSignals() {
        hangUpsSeen = 0
        let before = signal(SIGHUP) { _ in hangUpsSeen += 1 }
        defer { signal(SIGHUP, before) }

        // To the process: a test's thread may block signals, and another thread takes it.
        let seen = { (count: Int) in
            for _ in 0..<100 where hangUpsSeen < count { usleep(10_000) }
            return hangUpsSeen
        }
        Interruptions.deferred {
            Interruptions.deferred { _ = kill(getpid(), SIGHUP) }
            #expect(seen(1) == 0)
        }

        #expect(seen(1) == 1)
        kill(getpid(), SIGHUP)
        #expect(seen(2) == 2, "the handler is the process's own again")
    }
}
