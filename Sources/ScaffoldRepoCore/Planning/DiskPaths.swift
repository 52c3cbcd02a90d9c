import Foundation

/// What is at a path, and how a path is shown: asked in one place.
enum DiskPaths {
    /// What a path holds.
    enum Entry: Equatable {
        case file, folder
        /// A symbolic link to nothing: what it names (a person's, perhaps on another disk).
        case brokenLink(to: String)
    }

    /// What is at `url` (a link counts as what it points to), or nil when nothing is.
    static func entry(at url: URL) -> Entry? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            return (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path))
                .map { .brokenLink(to: $0) }
        }
        return isDirectory.boolValue ? .folder : .file
    }

    /// `path` as a shell word, for a command that the person pastes: as it is when every
    /// character is a letter, a digit or one of `_./-+,:@%`; else in single quotes. One that
    /// starts with `-` starts with `./`, so that no command reads it as an option.
    static func forShell(_ path: String) -> String {
        if path.hasPrefix("-") { return forShell("./" + path) }
        let plain = path.unicodeScalars.allSatisfy { scalar in
            CharacterSet.alphanumerics.contains(scalar)
                || "_./-+,:@%".unicodeScalars.contains(scalar)
        }
        return plain && !path.isEmpty
            ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// `folder`'s path relative to `base` (`..` where it is not below it), `.` for `base`.
    static func relativePath(of folder: URL, from base: URL) -> String {
        let target = URL(fileURLWithPath: folder.path).standardizedFileURL.pathComponents
        let start = URL(fileURLWithPath: base.path).standardizedFileURL.pathComponents
        var common = 0
        while common < min(target.count, start.count), target[common] == start[common] {
            common += 1
        }
        let parts =
            Array(repeating: "..", count: start.count - common) + target.dropFirst(common)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// `path` as the user sees it: below `root` as they named it, or bare when they named
    /// none (the current folder).
    static func shown(_ path: String, under root: String) -> String {
        root.isEmpty ? path : root + "/" + path
    }
}
