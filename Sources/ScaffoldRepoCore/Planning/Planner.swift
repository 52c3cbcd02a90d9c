import Foundation

/// What applying a generated file will do to the disk.
public enum ChangeStatus: String, Equatable, Sendable {
    /// The file does not exist yet and will be written.
    case create
    /// The file exists with the same bytes; it is left alone (its modification time too).
    case identical
    /// The file still holds what was generated before (the manifest's hash), but the
    /// generator now writes something else: newer templates or another spec. It is updated.
    case update
    /// The file exists with other contents and the manifest does not know it; nothing is
    /// written unless `--force` is given.
    case conflict
    /// The file was generated, then edited by a person; kept unless `--force` is given.
    case modified
    /// The file differs and `--force` overwrites it.
    case force
    /// The file would be written, but another file is in conflict, so nothing is written.
    case skip
    /// A package-level file (`Package.swift`, `.gitignore`) that a person edited, or a
    /// migration file once written: it is theirs, kept as it is, and never blocks a run or
    /// fails `--check`; `--force` overwrites only the package-level ones.
    case owned
    /// A generated file that a person took over with `own`, whose generated version has changed
    /// since (a new field, newer templates): it is kept as it is, but the other generated files
    /// may rely on the change, so the run shows the diff to apply and gives no "Next:" step,
    /// and `--check` fails.
    case review
    /// `destroy`: the file still holds what was generated for the model; it is removed.
    case delete
    /// `destroy`: a file recorded for the model is not on disk any more; nothing to remove.
    case missing
    /// `destroy`: another model in the package uses the file too; it stays.
    case shared

    /// Whether applying the plan writes this file.
    public var writes: Bool { self == .create || self == .update || self == .force }

    /// Whether the file on disk differs from what would be generated, in a way that matters.
    public var differs: Bool { ![.identical, .owned, .missing, .shared].contains(self) }

    /// Whether the file is kept because a person may have written it.
    public var isKept: Bool { self == .conflict || self == .modified }
}

/// One generated file, where it goes, and what writing (or, for `destroy`, removing) it would
/// do.
public struct PlannedChange: Equatable, Sendable {
    /// The file as it would be written; for `destroy`, what is left (nothing for a `delete`).
    public var file: GeneratedFile
    /// The absolute location on disk.
    public let location: URL
    /// The path shown to the user, as they named the destination.
    public let displayPath: String
    public var status: ChangeStatus
    /// Why a file is kept or left, shown after its path: "kept: yours".
    public var reason: String?
    /// What the file held when it was planned, nil when there was no file: the diffs compare
    /// with this, so the disk is read once. For `review`, what was generated for it before.
    public var previous: String?
    /// Whether a plan's report shows the change's diff: a file that differs, but not one that
    /// `destroy` deletes (its whole text; a forced delete of an edited file says so in its
    /// `reason` instead).
    public var showsADiff: Bool { status.differs && status != .delete }
    /// An edited Package.swift or .gitignore, kept (`owned`) because `--force` was not given:
    /// `--force` would overwrite it.
    public var isOverwrittenByForce = false

    public init(
        file: GeneratedFile, location: URL, displayPath: String, status: ChangeStatus,
        reason: String? = nil, previous: String? = nil
    ) {
        self.file = file
        self.location = location
        self.displayPath = displayPath
        self.status = status
        self.reason = reason
        self.previous = previous
    }
}

/// Compares rendered files with the disk before anything is written.
public enum Planner {
    /// Plans `files` under `root`. `recorded` maps paths to the hashes the manifest holds for
    /// them: a differing file whose bytes still have that hash is only stale (`update`); any
    /// other differing file is `modified` (recorded) or a `conflict` (unknown), or `force` with
    /// `force`. Throws a `PlanError` when a path is blocked by something that `--force` must
    /// not replace, such as a folder where a file goes.
    public static func plan(
        _ files: [GeneratedFile], root: URL, displayRoot: String, force: Bool,
        recorded: [String: String] = [:], owned: Set<String> = []
    ) throws -> [PlannedChange] {
        try files.map { file -> PlannedChange in
            let location = root.appendingPathComponent(file.path)
            let displayPath = DiskPaths.shown(file.path, under: displayRoot)
            try checkParents(of: location, below: root, displayPath: displayPath)
            let status: ChangeStatus
            let existing = try existingContents(at: location, displayPath: displayPath)
            switch existing {
            case nil: status = .create
            // A file taken over with `own` is reported as the person's even while it is what
            // would be generated, so that a log shows which files are theirs.
            case _ where owned.contains(file.path) && !file.isWrittenOnce: status = .owned
            case Data(file.contents.utf8)?: status = .identical
            case _ where file.isWrittenOnce: status = .owned
            case let existing? where recorded[file.path] == ContentHash.of(existing):
                status = .update
            case _ where force: status = .force
            case _ where file.isOwnedOnceEdited: status = .owned
            default: status = recorded[file.path] == nil ? .conflict : .modified
            }
            var change = PlannedChange(
                file: file, location: location, displayPath: displayPath, status: status,
                previous: existing.map { String(decoding: $0, as: UTF8.self) })
            change.isOverwrittenByForce =
                status == .owned && file.isOwnedOnceEdited && !owned.contains(file.path)
            return change
        }
    }

    /// The change that writes `manifest`. The manifest belongs to the generator: whatever it
    /// holds counts as generated, so a difference is an update, never a conflict.
    public static func plan(
        _ manifest: Manifest, root: URL, displayRoot: String
    ) throws -> PlannedChange {
        let onDisk = FileManager.default.contents(
            atPath: root.appendingPathComponent(Manifest.path).path)
        let changes = try plan(
            [try manifest.file()], root: root, displayRoot: displayRoot, force: false,
            recorded: onDisk.map { [Manifest.path: ContentHash.of($0)] } ?? [:])
        return changes[0]
    }

    /// The plan when anything is kept: nothing is written, so every write becomes a `skip`.
    public static func blocked(_ changes: [PlannedChange]) -> [PlannedChange] {
        changes.map { change in
            guard change.status.writes else { return change }
            var skipped = change
            skipped.status = .skip
            return skipped
        }
    }

    private static func existingContents(at location: URL, displayPath: String) throws -> Data? {
        switch DiskPaths.entry(at: location) {
        case nil: return nil
        case .file: break
        case .folder:
            throw PlanError("\(displayPath) is a folder where a generated file goes; move it away")
        case .brokenLink(let target):
            throw PlanError(
                "\(displayPath) is a link to \(target), which does not exist, where a generated file "
                    + "goes; remove the link, or restore the file it names")
        }
        guard let data = FileManager.default.contents(atPath: location.path) else {
            throw PlanError("cannot read \(displayPath) to compare it; check its permissions")
        }
        return data
    }

    /// Every existing folder between `root` and the file must be a folder, not a file.
    private static func checkParents(of location: URL, below root: URL, displayPath: String) throws
    {
        var folder = location.deletingLastPathComponent()
        let rootPath = root.standardizedFileURL.path
        while folder.standardizedFileURL.path.count >= rootPath.count {
            switch DiskPaths.entry(at: folder) {
            case .file:
                throw PlanError(
                    "\(folder.path) is a file where a folder for \(displayPath) goes; move it away "
                        + "or choose another destination")
            case .brokenLink(let target):
                throw PlanError(
                    "\(folder.path) is a link to \(target), which does not exist, where a folder for "
                        + "\(displayPath) goes; remove the link, or restore the folder it names")
            case .folder, nil: break
            }
            let parent = folder.deletingLastPathComponent()
            // The root of the file system is its own parent.
            guard parent.standardizedFileURL.path != folder.standardizedFileURL.path else { break }
            folder = parent
        }
    }
}

/// A plan that cannot be made: something on disk where a generated file or its folder goes.
public struct PlanError: BadInput, Equatable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }
}
