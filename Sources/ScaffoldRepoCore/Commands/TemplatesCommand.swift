import Foundation

/// `scaffold-repo templates list [DIR]` and `scaffold-repo templates eject [DIR]`.
enum TemplatesCommand {
    /// Where, in a package, ejected templates go and overrides are looked for.
    static let defaultDirectory = ".scaffold/templates"

    /// Every built-in template, and whether the package's `.scaffold/templates` overrides it.
    static func list(_ directory: String?, currentDirectory: URL) throws -> RunResult {
        let root = try DestinationResolver.existingFolder(
            directory ?? ".", option: "templates list", currentDirectory: currentDirectory)
        // A folder of templates itself (what --templates takes) lists its own files.
        let holdsTemplates =
            ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [])
            .contains { $0.hasSuffix(".tmpl") }
        let source = PackagePlanner.templates(
            explicit: holdsTemplates ? root : nil, root: root, currentDirectory: currentDirectory)
        let lines =
            BuiltInTemplates.names.map { name in
                let status =
                    if source.overrideFile(named: name) == nil {
                        "built-in"
                    } else if source.isDrifted(name) {
                        "drifted"
                    } else {
                        source.isUneditedCopy(name) ? "unedited" : "edited"
                    }
                return (status, name)
            } + source.unusedOverrides().map { ("unused", $0) }
        let output = { (coloured: Bool) in
            lines.map { PlanReport.line($0, $1, coloured: coloured) }.joined()
        }
        return RunResult(
            exitCode: 0, standardOutput: output(false), standardError: "",
            colouredStandardOutput: output(true))
    }

    /// Writes every built-in template into the package's `.scaffold/templates`.
    static func eject(_ directory: String?, _ options: RunOptions, currentDirectory: URL) throws
        -> RunResult
    {
        let (changes, display) = try ejectPlan(
            directory, force: options.force, currentDirectory: currentDirectory)
        return try Outcome.of(
            changes, options, keepingBlocks: true,
            diagnostics: [
                Diagnostic(
                    .advice,
                    "edit them, then generate as usual: \(display) overrides the built-ins of the "
                        + "same name.")
            ],
            keptFix:
                "an edited template is your override: keep it (leave templates eject --check out "
                + "of CI), or write the built-in over it with --force")
    }

    /// The plan that writes every built-in template into the package's `.scaffold/templates`,
    /// each marked with the built-in it came from.
    static func ejectPlan(
        _ directory: String?, force: Bool, currentDirectory: URL
    ) throws -> (changes: [PlannedChange], display: String) {
        let package = directory.map { DestinationResolver.display($0) } ?? ""
        let path = DiskPaths.shown(defaultDirectory, under: package)
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
