import Foundation

/// `scaffold-repo own PATH... [--into DIR]`: records the files as the person's, so that
/// generating, `regen` and `--check` leave them as they are and report them `owned`. A path is
/// relative to DIR (default: the current folder), as the status lines print it; the package is
/// the nearest folder above the file with a manifest.
enum OwnCommand {
    static func run(_ paths: [String], directory: String, currentDirectory: URL) throws
        -> RunResult
    {
        let base = try DestinationResolver.existingFolder(
            directory, option: "--into", currentDirectory: currentDirectory)
        for path in paths {
            let file = URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL
            var root = file.deletingLastPathComponent()
            while !FileManager.default.fileExists(
                atPath: root.appendingPathComponent(Manifest.path).path), root.path != "/"
            {
                root.deleteLastPathComponent()
            }
            guard var manifest = try Manifest.load(root: root) else {
                throw UsageError(
                    "'\(path)' is in no package with a \(Manifest.path); give the path of a "
                        + "generated file, as the status lines print it")
            }
            let relative = String(file.path.dropFirst(root.path.count).drop { $0 == "/" })
            let recording = manifest.models.filter { $0.files[relative] != nil }
            guard !recording.isEmpty else {
                throw UsageError(
                    "'\(path)' is not a file scaffold-repo generated; give the path of a "
                        + "generated file, as the status lines print it")
            }
            // A shared file (StoreFiles.swift) is the person's for every model that records it.
            // The record takes the hash of what is generated for the file now: a file to
            // review (its generated version changed) is owned as of that version once the
            // person has made the change and gives `own` again.
            let templates = PackagePlanner.templates(explicit: nil, root: root)
            for var model in recording {
                model.owned = Array(Set(model.owned ?? []).union([relative])).sorted()
                var request = try model.request()
                request.destination =
                    model.target.map { .into(packageDirectory: root.path, target: $0) }
                    ?? .standalone(outputDirectory: root.path)
                request.sharedFiles = PackagePlanner.sharedFileSettings(
                    in: request.module, manifest: manifest, requests: [])
                if let generated = try? Renderer.render(request, templates: templates)
                    .first(where: { $0.path == relative })
                {
                    model.files[relative] = ContentHash.of(generated.contents)
                }
                manifest.record(model)
            }
            let change = try Planner.plan(
                [try manifest.file()], root: root, displayRoot: "", force: true)
            try Writer.apply(change)
        }
        let output = { (coloured: Bool) in
            paths.map { PlanReport.line("owned", $0, coloured: coloured) }.joined()
        }
        return RunResult(
            exitCode: 0, standardOutput: output(false), standardError: "",
            colouredStandardOutput: output(true))
    }
}
