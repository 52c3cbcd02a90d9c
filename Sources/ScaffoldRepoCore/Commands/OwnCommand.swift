import Foundation

/// `scaffold-repo own PATH... [--into DIR] [--dry-run] [--json]`: records the files as the
/// person's, so that generating, `regen` and `--check` leave them as they are and report them
/// `owned`. A path is relative to DIR (default: the current folder), as the status lines print
/// it; the package is the nearest folder above the file with a manifest. The plan is the files,
/// `owned`, and each manifest's change, reported and written as every command's is.
enum OwnCommand {
    /// Every path is found, and each package's manifest changed in memory, before anything is
    /// written: a path that is no generated file leaves every manifest as it was.
    static func run(
        _ paths: [String], directory: String, _ options: RunOptions, currentDirectory: URL
    ) throws -> RunResult {
        let base = try DestinationResolver.existingFolder(
            directory, option: "--into", currentDirectory: currentDirectory)
        var manifests: [(root: URL, display: String, manifest: Manifest)] = []
        var files: [PlannedChange] = []
        for path in paths {
            let (root, relative) = try generatedFile(path, base: base)
            if !manifests.contains(where: { $0.root == root }) {
                // The package's folder relative to where paths are read from, for the manifest's
                // status line.
                let display = DestinationResolver.display(
                    DiskPaths.relativePath(of: root, from: base))
                manifests.append((root, display, try Manifest.load(root: root) ?? Manifest()))
            }
            let index = manifests.firstIndex { $0.root == root } ?? 0
            let manifest = manifests[index].manifest
            guard manifest.models.contains(where: { $0.files[relative] != nil }) else {
                // A typo in the file's name: the recorded path closest to it, as it was given.
                let recorded = Set(manifest.models.flatMap(\.files.keys)).sorted()
                let suggestion = Suggestion.closest(to: relative, among: recorded).map {
                    " Did you mean \(String(path.dropLast(relative.count)) + $0)?"
                }
                throw UsageError(
                    "'\(path)' is not a file scaffold-repo generated.\(suggestion ?? "") Give the "
                        + "path of a generated file, as the status lines print it")
            }
            manifests[index].manifest = try owning(relative, in: manifest, root: root)
            let location = root.appendingPathComponent(relative)
            // The same file given twice is one file to own.
            guard !files.contains(where: { $0.location == location }) else { continue }
            let contents = FileManager.default.contents(atPath: location.path)
                .map { String(decoding: $0, as: UTF8.self) }
            files.append(
                PlannedChange(
                    file: GeneratedFile(path: relative, contents: contents ?? ""),
                    location: location, displayPath: path, status: .owned, previous: contents))
        }
        // The manifest is rewritten whatever it holds: it is the tool's, not recorded in itself.
        let changes = try manifests.flatMap { root, display, manifest in
            try Planner.plan([try manifest.file()], root: root, displayRoot: display, force: true)
                .map { change in
                    var change = change
                    if change.status == .force { change.status = .update }
                    return change
                }
        }
        return try Outcome.of(files + changes, options, keepingBlocks: false)
    }

    /// The package root of the file at `path` (relative to `base`): the nearest folder above it
    /// with a manifest; and the file's path relative to it.
    private static func generatedFile(_ path: String, base: URL) throws
        -> (root: URL, relative: String)
    {
        let file = URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL
        var root = file.deletingLastPathComponent()
        while !FileManager.default.fileExists(
            atPath: root.appendingPathComponent(Manifest.path).path), root.path != "/"
        {
            root.deleteLastPathComponent()
        }
        guard
            FileManager.default.fileExists(atPath: root.appendingPathComponent(Manifest.path).path)
        else {
            throw UsageError(
                "'\(path)' is in no package with a \(Manifest.path); give the path of a "
                    + "generated file, as the status lines print it")
        }
        return (root, String(file.path.dropFirst(root.path.count).drop { $0 == "/" }))
    }

    /// `manifest` with `relative` owned by every model that records it.
    private static func owning(_ relative: String, in manifest: Manifest, root: URL) throws
        -> Manifest
    {
        var manifest = manifest
        // A shared file (StoreFiles.swift) is the person's for every model that records it.
        // The record takes the hash of what is generated for the file now: a file to review
        // (its generated version changed) is owned as of that version once the person has made
        // the change and gives `own` again.
        let templates = PackagePlanner.templates(explicit: nil, root: root)
        let host = HostFiles(root: root, known: Set(manifest.models.flatMap(\.files.keys)))
        for var model in manifest.models where model.files[relative] != nil {
            model.owned = Array(Set(model.owned ?? []).union([relative])).sorted()
            var request = try model.request()
            request.destination =
                model.target.map { .into(packageDirectory: root.path, target: $0) }
                ?? .standalone(outputDirectory: root.path)
            request.sharedFiles = PackagePlanner.sharedFileSettings(
                in: request.module, manifest: manifest, requests: [])
            if let generated = try? host.render(request, templates: templates)
                .first(where: { $0.path == relative })
            {
                model.files[relative] = ContentHash.of(generated.contents)
            }
            manifest.record(model)
        }
        return manifest
    }
}
