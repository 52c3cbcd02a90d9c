import Foundation

/// `scaffold-repo Model field:Type...`: plans the model's files into a new package or a target,
/// then reports and applies the plan.
enum GenerateCommand {
    static func run(
        _ request: GenerateRequest, _ options: RunOptions, currentDirectory: URL
    ) throws -> RunResult {
        let target = try DestinationResolver.resolve(
            request.destination, spec: request.spec, currentDirectory: currentDirectory)
        let templates = try PackagePlanner.templates(
            request.templatesDirectory, root: target.root, currentDirectory: currentDirectory)
        let (changes, orphans, evolution) = try PackagePlanner.plan(
            [request], root: target.root, displayRoot: target.displayRoot, templates: templates,
            force: options.force)
        return try Outcome.of(
            changes, options, keepingBlocks: true, notes: target.notes,
            warnings: templates.warnings() + orphans, preface: evolution)
    }
}
