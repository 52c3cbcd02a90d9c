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
        let requests = try manifest.models.map { model -> GenerateRequest in
            var request = try model.request()
            request.destination =
                model.target.map { .into(packageDirectory: directory, target: $0) }
                ?? .standalone(outputDirectory: directory)
            return request
        }
        let templates = try PackagePlanner.templates(
            templatesDirectory, root: root, currentDirectory: currentDirectory)
        let (changes, orphans, evolution) = try PackagePlanner.plan(
            requests, root: root, displayRoot: DestinationResolver.display(directory),
            templates: templates, force: options.force)
        return try Outcome.of(
            changes, options, keepingBlocks: false, warnings: templates.warnings() + orphans,
            preface: evolution)
    }
}
