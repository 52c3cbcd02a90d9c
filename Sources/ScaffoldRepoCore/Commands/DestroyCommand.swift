import Foundation

/// `scaffold-repo destroy <Model> [DIR]`: removes a model's generated files that still hold
/// what was generated, keeps the ones a person edited, and updates the manifest.
enum DestroyCommand {
    static func run(
        model: String, directory: String, _ options: RunOptions, currentDirectory: URL
    ) throws -> RunResult {
        let root = try DestinationResolver.existingFolder(
            directory, option: "destroy", currentDirectory: currentDirectory)
        let display = DestinationResolver.display(directory)
        guard var manifest = try Manifest.load(root: root) else {
            throw UsageError("'\(directory)' has no \(Manifest.path); nothing there was generated")
        }
        let loaded = manifest
        let name = try SpecParser.parseModelName(model)
        guard let entry = manifest.model(named: name) else {
            let names = manifest.models.map(\.name)
            let guess = Suggestion.closest(to: name, among: names).map { "did you mean \($0)? " }
            throw UsageError(
                "no model \(name) in \(Manifest.path); \(guess ?? "")it records: "
                    + names.joined(separator: ", "))
        }
        // Another model's reference to this one would name a model that is gone: its next run
        // would be refused, and its repository would check a table nobody writes.
        let referrers = manifest.models.filter { record in
            record.name != name && record.destroyed != true
                && (try? record.request())?.spec.fields.contains { $0.reference?.model == name }
                    == true
        }
        if !referrers.isEmpty {
            let names = referrers.map(\.name).joined(separator: ", ")
            throw UsageError(
                "\(names) \(referrers.count == 1 ? "refers" : "refer") to \(name); destroy "
                    + "\(names) first, or generate it again "
                    + "without the reference, then destroy \(name)")
        }
        let shown = { (path: String) in DiskPaths.shown(path, under: display) }
        var (changes, kept) = RemovalPlanner.plan(
            removing: entry, from: manifest, root: root, displayRoot: display,
            force: options.force)
        // Kept files stay recorded, so a later `destroy --force` can still remove them.
        if kept.isEmpty {
            manifest.remove(named: name)
        } else {
            var updated = entry
            updated.files = kept
            updated.destroyed = true
            manifest.record(updated)
        }
        if manifest.models.isEmpty {
            let manifestURL = root.appendingPathComponent(Manifest.path)
            changes.append(
                PlannedChange(
                    file: GeneratedFile(path: Manifest.path, contents: ""), location: manifestURL,
                    displayPath: shown(Manifest.path), status: .delete,
                    previous: FileManager.default.contents(atPath: manifestURL.path)
                        .map { String(decoding: $0, as: UTF8.self) }))
        } else {
            changes.append(try Planner.plan(manifest, root: root, displayRoot: display))
        }
        // A package that generating created (not one generated into) goes with its last model,
        // when nothing else is left in it.
        let removed = changes.filter { $0.status == .delete }.map(\.location)
        let leftovers = try? remainingFiles(in: root, besides: removed)
        let removesPackage =
            manifest.models.isEmpty && entry.target == nil && kept.isEmpty
            && !["", "."].contains(display) && leftovers?.isEmpty == true
        if removesPackage {
            changes.append(
                PlannedChange(
                    file: GeneratedFile(path: "", contents: ""),
                    location: URL(fileURLWithPath: root.path, isDirectory: true),
                    displayPath: display + "/", status: .delete))
        }
        // After --into, the target's folders belong to the package: Package.swift names them.
        let protected =
            entry.target.map { target in
                ["Sources/\(target)", "Tests/\(target)Tests"].map {
                    root.appendingPathComponent($0).standardizedFileURL.path
                }
            } ?? []
        // The files the module's other models share keep the workshop notes and the samples of
        // field types this model gave them, until they are rendered again.
        // Only when the module keeps another model, whose regen renders those files again.
        let othersRemain = manifest.models.contains {
            $0.destroyed != true && $0.module == entry.module
        }
        let before = PackagePlanner.sharedFileSettings(
            in: entry.module, manifest: loaded, requests: [])
        let after = PackagePlanner.sharedFileSettings(
            in: entry.module, manifest: manifest, requests: [])
        let stale = [
            before.annotate != after.annotate ? "its workshop notes" : nil,
            before.fieldTypes != after.fieldTypes ? "the samples of its field types" : nil,
        ]
        let regen = Diagnostic(
            .next,
            "scaffold-repo regen \(DiskPaths.forShell(display.isEmpty ? "." : display)) (the files \(name) shared "
                + "with the other models still have "
                + stale.compactMap { $0 }.joined(separator: " and ") + ")")
        // Files that are the person's stay, --force or not, and use the types that go.
        let yours = changes.filter { $0.status == .owned }.map(\.displayPath)
        let keptYours = Diagnostic(
            .warning,
            "\(name)'s files that are yours stay: \(yours.joined(separator: ", ")). They use "
                + "\(name)'s generated types, which are gone, so the target does not build until "
                + "you delete or change them (scaffold-repo never deletes a file that is yours, "
                + "--force included)")
        return try Outcome.of(
            changes, options, keepingBlocks: false,
            diagnostics: (before != after && othersRemain ? [regen] : [])
                + (yours.isEmpty ? [] : [keptYours]),
            keptNote: { count in
                .note(
                    "\(count) edited file(s) kept, and still recorded; --force removes them too. "
                        + "Until then, the target may not compile where they use the model's "
                        + "removed types.")
            },
            afterApply: {
                for url in removed {
                    removeEmptyFolders(
                        from: url.deletingLastPathComponent(), upTo: root, keeping: protected)
                }
                if removesPackage,
                    (try? FileManager.default.contentsOfDirectory(atPath: root.path))?.isEmpty
                        == true
                {
                    try? FileManager.default.removeItem(at: root)
                }
            })
    }

    /// The files below `folder`, other than `besides`, that are not folders.
    private static func remainingFiles(in folder: URL, besides: [URL]) throws -> [String] {
        let removed = Set(besides.map(\.standardizedFileURL.path))
        let enumerator = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: [.isDirectoryKey])
        var remaining: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            let isFolder = (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory
            if isFolder != true, !removed.contains(url.standardizedFileURL.path) {
                remaining.append(url.path)
            }
        }
        return remaining
    }

    /// Removes `folder` and its parents below `root` while they are empty, except `keeping`.
    private static func removeEmptyFolders(from folder: URL, upTo root: URL, keeping: [String]) {
        var current = folder.standardizedFileURL
        let rootPath = root.standardizedFileURL.path
        while current.path.count > rootPath.count, !keeping.contains(current.path),
            (try? FileManager.default.contentsOfDirectory(atPath: current.path))?.isEmpty == true
        {
            try? FileManager.default.removeItem(at: current)
            current.deleteLastPathComponent()
        }
    }
}
