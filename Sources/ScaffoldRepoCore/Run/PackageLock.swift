import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One run at a time in a package: each command that reads a package's manifest and writes it
/// again holds an advisory lock on the package's folder (`flock`) from its first read to its
/// last write, so that two runs started together (a CI job generating several models at once)
/// each read the manifest the other wrote, and neither drops the other's records. The kernel
/// drops the lock when the process ends, however it ends.
enum PackageLock {
    /// Runs `body` while holding the lock on `path` (resolved against `currentDirectory`), or
    /// on its nearest folder that exists, waiting for another run to finish first. A folder
    /// that cannot be opened is not locked: the run goes on as it would without the lock.
    static func whileHeld<T>(
        on path: String, currentDirectory: URL, _ body: () throws -> T
    ) rethrows -> T {
        var folder = URL(fileURLWithPath: path, relativeTo: currentDirectory).standardizedFileURL
        while DiskPaths.entry(at: folder) != .folder, folder.pathComponents.count > 1 {
            folder.deleteLastPathComponent()
        }
        let descriptor = open(folder.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return try body() }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0, errno == EINTR {}
        defer { _ = flock(descriptor, LOCK_UN) }
        return try body()
    }
}
