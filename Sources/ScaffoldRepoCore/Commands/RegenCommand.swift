import Foundation

/// `scaffold-repo regen [DIR]`: plans every model the package's manifest records, as recorded,
/// with the current templates, then reports and applies the plan; edited files are kept.
enum RegenCommand {
    static func run(
        _ directory: String, _ templatesDirectory: String?, _ options: RunOptions,
        currentDirectory: URL
    ) throws -> RunResult {
        let root = try DestinationResolver.existingFolder(
            directory, option: "regen", currentDirectory: currentDirectory)
        guard let manifest = try Manifest.load(root: root) else {
            throw UsageError(
                "'\(directory)' has no \(Manifest.path): give the folder of a package that "
                    + "scaffold-repo generated (or generated into)")
        }
        guard !manifest.models.isEmpty else {
            throw UsageError(
                "the manifest in '\(directory)' records no models; nothing to regenerate")
        }
        // A destroyed model whose edited files were kept is not brought back.
        let live = manifest.models.filter { $0.destroyed != true }
        guard !live.isEmpty else {
            let names = manifest.models.map(\.name).joined(separator: ", ")
            return RunResult(
                exitCode: 0, standardOutput: "",
                standardError: Diagnostic.note(
                    "nothing to regenerate: \(names) \(manifest.models.count == 1 ? "was" : "were") "
                        + "destroyed, and only files a person edited or owns are kept; "
                        + "'scaffold-repo destroy MODEL \(directory) --force' "
                        + "(\(manifest.models.map(\.name).joined(separator: " or "))) removes the "
                        + "edited ones, and files that are yours (owned, or an edited migration) "
                        + "are yours to delete"
                ).rendered)
        }
        let requests = try live.map { model -> GenerateRequest in
            var request = try model.request()
            if let target = model.target,
                DiskPaths.entry(at: root.appendingPathComponent("Sources/\(target)")) != .folder
            {
                throw ManifestError(
                    "the record of \(model.name) in \(Manifest.path) names target '\(target)', but "
                        + "there is no Sources/\(target) in '\(directory)'; restore the file from "
                        + "version control")
            }
            request.destination =
                model.target.map { .into(packageDirectory: directory, target: $0) }
                ?? .standalone(outputDirectory: directory)
            return request
        }
        let templates = try PackagePlanner.templates(
            templatesDirectory, root: root, currentDirectory: currentDirectory)
        let plan = try PackagePlanner.plan(
            requests, root: root, displayRoot: DestinationResolver.display(directory),
            templates: templates, force: options.force)
        let destroyed = manifest.models.filter { $0.destroyed == true }.map(\.name)
        let leftOut =
            destroyed.isEmpty
            ? []
            : [
                Diagnostic.note(
                    "\(destroyed.joined(separator: ", ")) \(destroyed.count == 1 ? "was" : "were") "
                        + "destroyed and \(destroyed.count == 1 ? "is" : "are") left out; only "
                        + "files a person edited or owns are kept, and generating "
                        + "\(destroyed.count == 1 ? "it" : "one") again takes it back")
            ]
        // Migrations are the person's: regen fits every other file to the target's imports, but
        // not these.
        let migrations = HostFiles.migrationAdvice(
            plan.host.migrationsWithOtherImports(of: live),
            displayRoot: DestinationResolver.display(directory))
        return try Outcome.of(
            plan.changes, options, keepingBlocks: false,
            diagnostics: templates.warnings() + leftOut + plan.warnings + migrations.warnings,
            preface: plan.evolution)
    }
}
