import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Applies a plan: every file to write is first staged beside its destination, then renamed
/// into place, so an error while staging leaves the tree exactly as it was.
public enum Writer {
    /// Writes the changes whose status is `create` or `force`; leaves every other file alone.
    public static func apply(_ changes: [PlannedChange]) throws {
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
            let temporary = folder.appendingPathComponent(
                ".\(change.location.lastPathComponent).scaffold-repo-\(ProcessInfo.processInfo.processIdentifier)"
            )
            do {
                try Data(change.file.contents.utf8).write(to: temporary)
            } catch {
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

/// The disk refused a write.
public struct WriteError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
