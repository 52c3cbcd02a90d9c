import Foundation

/// What applying a generated file will do to the disk.
public enum ChangeStatus: String, Equatable, Sendable {
    /// The file does not exist yet and will be written.
    case create
    /// The file exists with the same bytes; it is left alone (its modification time too).
    case identical
    /// The file exists with other contents; nothing is written unless `--force` is given.
    case conflict
    /// The file exists with other contents and `--force` overwrites it.
    case force
    /// The file would be created, but another file is in conflict, so nothing is written.
    case skip

    /// Whether applying the plan writes this file.
    public var writes: Bool { self == .create || self == .force }
}

/// One generated file, where it goes, and what writing it would do.
public struct PlannedChange: Equatable, Sendable {
    public let file: GeneratedFile
    /// The absolute location on disk.
    public let location: URL
    /// The path shown to the user, as they named the destination.
    public let displayPath: String
    public let status: ChangeStatus
}

/// Compares rendered files with the disk before anything is written.
public enum Planner {
    /// Plans `files` under `root`. Throws a `UsageError` when a path is blocked by something that
    /// `--force` must not replace, such as a folder where a file goes.
    public static func plan(
        _ files: [GeneratedFile], root: URL, displayRoot: String, force: Bool
    ) throws -> [PlannedChange] {
        var changes = try files.map { file -> PlannedChange in
            let location = root.appendingPathComponent(file.path)
            let displayPath = displayRoot.isEmpty ? file.path : displayRoot + "/" + file.path
            try checkParents(of: location, below: root, displayPath: displayPath)
            let status: ChangeStatus
            switch try existingContents(at: location, displayPath: displayPath) {
            case nil: status = .create
            case Data(file.contents.utf8)?: status = .identical
            default: status = force ? .force : .conflict
            }
            return PlannedChange(
                file: file, location: location, displayPath: displayPath, status: status)
        }
        if changes.contains(where: { $0.status == .conflict }) {
            changes = changes.map { change in
                guard change.status == .create else { return change }
                return PlannedChange(
                    file: change.file, location: change.location, displayPath: change.displayPath,
                    status: .skip)
            }
        }
        return changes
    }

    private static func existingContents(at location: URL, displayPath: String) throws -> Data? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: location.path, isDirectory: &isDirectory)
        else {
            return nil
        }
        guard !isDirectory.boolValue else {
            throw UsageError("\(displayPath) is a folder where a generated file goes; move it away")
        }
        guard let data = FileManager.default.contents(atPath: location.path) else {
            throw UsageError("cannot read \(displayPath) to compare it; check its permissions")
        }
        return data
    }

    /// Every existing folder between `root` and the file must be a folder, not a file.
    private static func checkParents(of location: URL, below root: URL, displayPath: String) throws
    {
        var folder = location.deletingLastPathComponent()
        let rootPath = root.standardizedFileURL.path
        while folder.standardizedFileURL.path.count >= rootPath.count {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                throw UsageError(
                    "\(folder.path) is a file where a folder for \(displayPath) goes; move it away "
                        + "or choose another destination")
            }
            folder = folder.deletingLastPathComponent()
        }
    }
}
