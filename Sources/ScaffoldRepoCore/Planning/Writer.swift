import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Applies a plan: every file to remove is first moved aside, and every file to write is staged
/// beside its destination, then renamed into place, so an error before the renames leaves the
/// tree exactly as it was. An interrupt (Ctrl-C, a CI job cancelled with SIGTERM) waits until
/// the plan is applied, and the hidden files a killed run left beside its files are removed.
public enum Writer {
    /// Removes the changes whose status is `delete` and writes those whose status is `create`,
    /// `update` or `force`; leaves every other file alone.
    public static func apply(_ changes: [PlannedChange]) throws {
        try Interruptions.deferred {
            removeStagingOfEndedRuns(besides: changes)
            try applyNow(changes)
        }
    }

    private static func applyNow(_ changes: [PlannedChange]) throws {
        // A folder to delete is the caller's to remove, once the files in it are gone.
        let removals = try moveAside(
            changes.filter { $0.status == .delete && !$0.location.hasDirectoryPath })
        do {
            try write(changes)
        } catch {
            let stranded = removals.reversed().filter { removal in
                rename(removal.temporary.path, removal.original.path) != 0
            }
            guard stranded.isEmpty else {
                let list = stranded.map { "\($0.original.path) is at \($0.temporary.path)" }
                throw WriteError(
                    message: "\(error); and some files to remove could not be put back: "
                        + list.joined(separator: ", ") + "; rename them back by hand")
            }
            throw error
        }
        for removal in removals { try? FileManager.default.removeItem(at: removal.temporary) }
    }

    /// Renames each file to remove to a hidden name beside it, so that it can be put back
    /// when a later step fails; on a failure here, puts back the ones already moved.
    private static func moveAside(_ removals: [PlannedChange]) throws -> [(
        original: URL, temporary: URL
    )] {
        var moved: [(original: URL, temporary: URL)] = []
        for change in removals {
            let temporary = stagingURL(for: change.location)
            guard rename(change.location.path, temporary.path) == 0 else {
                let reason = String(cString: strerror(errno))
                for item in moved.reversed() { _ = rename(item.temporary.path, item.original.path) }
                throw WriteError(
                    message: "cannot remove \(change.location.path): \(reason). Nothing was "
                        + "removed; check its folder's permissions.")
            }
            moved.append((change.location, temporary))
        }
        return moved
    }

    /// A hidden name beside `location`, for the file while it is being written or removed.
    private static func stagingURL(for location: URL) -> URL {
        location.deletingLastPathComponent().appendingPathComponent(
            ".\(location.lastPathComponent)\(stagingMark)\(ProcessInfo.processInfo.processIdentifier)"
        )
    }

    private static let stagingMark = ".scaffold-repo-"

    /// Removes, from the folders `changes` write in, the staged files of runs that ended without
    /// renaming them (killed, or stopped by a full disk): those of a process no longer running.
    private static func removeStagingOfEndedRuns(besides changes: [PlannedChange]) {
        let folders = Set(changes.map { $0.location.deletingLastPathComponent().path })
        for folder in folders.sorted() {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for name in names where name.hasPrefix(".") {
                guard let mark = name.range(of: stagingMark, options: .backwards),
                    let process = Int32(name[mark.upperBound...]), process > 0,
                    process != ProcessInfo.processInfo.processIdentifier,
                    kill(process, 0) != 0, errno == ESRCH
                else { continue }
                try? FileManager.default.removeItem(atPath: folder + "/" + name)
            }
        }
    }

    private static func write(_ changes: [PlannedChange]) throws {
        let writes = changes.filter(\.status.writes)
        var createdFolders: [URL] = []
        var staged: [(temporary: URL, destination: URL)] = []
        var failure: (path: String, reason: String)?
        for change in writes {
            let folder = change.location.deletingLastPathComponent()
            do {
                createdFolders += try createFolder(folder)
            } catch {
                failure = (folder.path, error.localizedDescription)
                break
            }
            let temporary = stagingURL(for: change.location)
            do {
                try Data(change.file.contents.utf8).write(to: temporary)
            } catch {
                // A full disk can leave the file begun.
                try? FileManager.default.removeItem(at: temporary)
                failure = (change.location.path, error.localizedDescription)
                break
            }
            staged.append((temporary, change.location))
        }
        if let failure {
            for item in staged { try? FileManager.default.removeItem(at: item.temporary) }
            for folder in createdFolders.reversed() {
                try? FileManager.default.removeItem(at: folder)
            }
            throw WriteError(
                message: "cannot write \(failure.path): \(failure.reason) Nothing was written; "
                    + "check the path and its permissions.")
        }
        for (index, item) in staged.enumerated() {
            // rename(2) replaces the destination atomically: readers see the old or the new file.
            guard rename(item.temporary.path, item.destination.path) == 0 else {
                let reason = String(cString: strerror(errno))
                for rest in staged[index...] {
                    try? FileManager.default.removeItem(at: rest.temporary)
                }
                throw WriteError(
                    message: "wrote \(index) of \(staged.count) files, then could not write "
                        + "\(item.destination.path): \(reason)")
            }
        }
    }

    /// Creates `folder` and its missing parents; returns the folders it created, outermost first.
    private static func createFolder(_ folder: URL) throws -> [URL] {
        var missing: [URL] = []
        var candidate = folder
        while !FileManager.default.fileExists(atPath: candidate.path) {
            missing.insert(candidate, at: 0)
            candidate = candidate.deletingLastPathComponent()
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return missing
    }
}

/// Holds back the signals that end a run (SIGINT, SIGTERM, SIGHUP) while files are written: the
/// run ends once they are all in place, not with half of them renamed. A second such signal
/// while held ends it at once (a write that hangs, on a network disk, can still be stopped).
/// Nested or overlapping calls (tests in one process) install the handlers once.
enum Interruptions {
    /// The signal that arrived while held back, 0 for none. Set from a signal handler.
    private nonisolated(unsafe) static var held: Int32 = 0
    private nonisolated(unsafe) static var depth = 0
    private nonisolated(unsafe) static var saved: [(@convention(c) (Int32) -> Void)?] = []
    // Recursive: a write inside ``whileIdle(_:)``'s body takes it again.
    private static let lock = NSRecursiveLock()
    private static let signals = [SIGINT, SIGTERM, SIGHUP]

    static func deferred<T>(_ body: () throws -> T) rethrows -> T {
        lock.withLock {
            depth += 1
            guard depth == 1 else { return }
            saved = signals.map { number in
                let before = signal(number) { number in
                    guard Interruptions.held == 0 else {
                        signal(number, SIG_DFL)
                        raise(number)
                        return
                    }
                    Interruptions.held = number
                }
                // A signal the process ignores (under nohup) stays ignored.
                if before.map({ unsafeBitCast($0, to: Int.self) }) == 1 { signal(number, before) }
                return before
            }
        }
        defer {
            lock.withLock {
                depth -= 1
                guard depth == 0 else { return }
                for (number, handler) in zip(signals, saved) { signal(number, handler) }
                let arrived = held
                held = 0
                // To the process, not this thread, which may block it (a concurrency thread).
                if arrived != 0 { kill(getpid(), arrived) }
            }
        }
        return try body()
    }

    /// Runs `body` and returns true when no write holds signals back; returns false, without
    /// running it, while one does. No other thread's write starts until `body` returns (this
    /// thread's may), so a handler set in `body` is not one that a write in progress replaces.
    static func whileIdle(_ body: () -> Void) -> Bool {
        lock.withLock {
            guard depth == 0 else { return false }
            body()
            return true
        }
    }
}

/// The disk refused a write.
public struct WriteError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
