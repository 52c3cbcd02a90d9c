import Foundation

/// Plans removing a model's generated files (`destroy`), as ``Planner`` plans writing them:
/// each file the manifest records for the model gets a status from the disk and the recorded
/// hash. Reads, never writes.
enum RemovalPlanner {
    /// The changes that remove `entry`'s files from the package at `root`, and the files that
    /// stay recorded for it (edited, or shared beside kept files) with their hashes.
    static func plan(
        removing entry: Manifest.Model, from manifest: Manifest, root: URL,
        displayRoot: String, force: Bool
    ) -> (changes: [PlannedChange], kept: [String: String]) {
        let name = entry.name
        let shown = { (path: String) in DiskPaths.shown(path, under: displayRoot) }
        var changes: [PlannedChange] = []
        var kept: [String: String] = [:]
        // A migration a person edited holds their decisions: it is theirs, --force or not.
        let migrations = entry.migrationFileNames
        for (path, hash) in entry.files.sorted(by: { $0.key < $1.key }) {
            let url = root.appendingPathComponent(path)
            let data = FileManager.default.contents(atPath: url.path)
            let change = { (status: ChangeStatus, reason: String?) in
                let text = data.map { String(decoding: $0, as: UTF8.self) }
                return PlannedChange(
                    file: GeneratedFile(path: path, contents: status == .delete ? "" : text ?? ""),
                    location: url, displayPath: shown(path), status: status, reason: reason,
                    previous: text)
            }
            let sharers = manifest.models.filter { $0.name != name && $0.files[path] != nil }
            if entry.owned?.contains(path) == true {
                changes.append(change(.owned, "kept: yours"))
            } else if !sharers.isEmpty {
                let users = sharers.map(\.name).joined(separator: ", ")
                let verb = sharers.count == 1 ? "uses" : "use"
                changes.append(change(.shared, "kept: \(users) \(verb) it too"))
            } else if let data {
                let isMigration = migrations.contains(url.lastPathComponent)
                if isMigration, ContentHash.of(data) != hash {
                    changes.append(change(.owned, "kept: yours, an edited migration"))
                    kept[path] = hash
                } else if ContentHash.of(data) == hash {
                    changes.append(change(.delete, nil))
                } else if force {
                    changes.append(change(.delete, "edited since it was generated"))
                } else {
                    changes.append(change(.modified, "kept: edited since it was generated"))
                    kept[path] = hash
                }
            } else {
                changes.append(change(.missing, nil))
            }
        }
        // Kept sources still use the shared store code, and kept tests the shared sample data:
        // a shared file stays, recorded for this model, while a kept or owned file of its
        // folder (its target) does, even when another model uses it now (that model may go
        // first).
        let folder = { (path: String) in (path as NSString).deletingLastPathComponent }
        let ownedOnDisk = (entry.owned ?? []).filter {
            FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path)
        }
        let keptFolders = Set(
            changes.filter { [.modified, .owned].contains($0.status) }.map { folder($0.file.path) }
                + ownedOnDisk.map(folder))
        for index in changes.indices {
            let path = changes[index].file.path
            let reason: String
            if Names.isShared(path), keptFolders.contains(folder(path)) {
                reason = "kept: beside the kept files of \(name)"
            } else if !path.contains("/"), !keptFolders.isEmpty {
                // A standalone package's Package.swift and .gitignore stay while files of it
                // do: kept sources without their package would build nowhere.
                reason = "kept: the package of the kept files of \(name)"
            } else {
                continue
            }
            guard [.delete, .shared].contains(changes[index].status) else { continue }
            if changes[index].status == .delete {
                changes[index].status = .shared
                changes[index].file = GeneratedFile(
                    path: path, contents: changes[index].previous ?? "")
                changes[index].reason = reason
            }
            kept[path] = entry.files[path]
        }
        return (changes, kept)
    }
}
