import Foundation

/// `scaffold-repo templates list [DIR]` and `scaffold-repo templates eject [DIR]`.
enum TemplateCommands {
    /// Where ejected templates go, and where a package's overrides are looked for.
    static let defaultDirectory = ".scaffold/templates"

    /// Every built-in template, and whether DIR (default `.scaffold/templates`) overrides it.
    static func list(_ directory: String?, currentDirectory: URL) throws -> RunResult {
        var overrides: [URL] = []
        if let directory {
            overrides = [
                try DestinationResolver.existingFolder(
                    directory, option: "templates list", currentDirectory: currentDirectory)
            ]
        } else {
            let local = currentDirectory.appendingPathComponent(defaultDirectory)
            if FileManager.default.fileExists(atPath: local.path) { overrides = [local] }
        }
        let source = TemplateSource(overrideDirectories: overrides)
        var output = BuiltInTemplates.names.map { name in
            let status =
                source.isDrifted(name)
                ? "drifted" : source.overrideFile(named: name) != nil ? "override" : "built-in"
            return PlanReport.line(status, name)
        }
        .joined()
        output += source.unusedOverrides().map { PlanReport.line("unused", $0) }.joined()
        return RunResult(exitCode: 0, standardOutput: output, standardError: "")
    }

    /// The plan that writes every built-in template, marked with the built-in it came from.
    static func ejectPlan(
        _ directory: String?, force: Bool, currentDirectory: URL
    ) throws -> (changes: [PlannedChange], display: String) {
        let path = directory ?? defaultDirectory
        let root = URL(fileURLWithPath: path, relativeTo: currentDirectory).standardizedFileURL
        let files = BuiltInTemplates.names.map { name in
            GeneratedFile(
                path: name,
                contents: BuiltInTemplates.ejectHeader(for: name) + "\n"
                    + (BuiltInTemplates.embedded[name] ?? ""))
        }
        let display = DestinationResolver.display(path)
        return (try Planner.plan(files, root: root, displayRoot: display, force: force), display)
    }
}
