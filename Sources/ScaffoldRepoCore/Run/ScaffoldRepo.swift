import Foundation

/// What a run printed and how it ended; the executable prints it and exits with `exitCode`.
public struct RunResult: Equatable, Sendable {
    /// 0 done or nothing to do, 1 a file differs and nothing was written, 2 bad input.
    public var exitCode: Int32
    public var standardOutput: String
    public var standardError: String
}

/// The whole command: argv in, files and a `RunResult` out.
public enum ScaffoldRepo {
    /// The version `--version` prints.
    public static let version = "0.1.0"

    /// Runs `scaffold-repo` with `arguments` (without the program name), resolving relative
    /// paths against `currentDirectory`. Never traps: every failure becomes an exit code.
    public static func run(_ arguments: [String], currentDirectory: URL) -> RunResult {
        do {
            switch try ArgumentParser.parse(arguments) {
            case .help:
                return RunResult(
                    exitCode: 0, standardOutput: ArgumentParser.usage, standardError: "")
            case .version:
                return RunResult(
                    exitCode: 0, standardOutput: "scaffold-repo \(version)\n", standardError: "")
            case .generate(let request):
                return try generate(request, currentDirectory: currentDirectory)
            }
        } catch let error as UsageError {
            return RunResult(
                exitCode: 2, standardOutput: "", standardError: "error: \(error.message)\n")
        } catch let error as TemplateError {
            return RunResult(
                exitCode: 2, standardOutput: "",
                standardError:
                    "error: template \(error); fix the template, or remove it to use the built-in one\n"
            )
        } catch {
            return RunResult(exitCode: 1, standardOutput: "", standardError: "error: \(error)\n")
        }
    }

    private static func generate(_ request: GenerateRequest, currentDirectory: URL) throws
        -> RunResult
    {
        let target = try DestinationResolver.resolve(
            request.destination, spec: request.spec, currentDirectory: currentDirectory)
        let templates = try TemplateSource(
            overrideDirectory: request.templatesDirectory.map {
                try DestinationResolver.existingFolder(
                    $0, option: "--templates", currentDirectory: currentDirectory)
            })
        let files = try Renderer.render(request, templates: templates)
        let changes = try Planner.plan(
            files, root: target.root, displayRoot: target.displayRoot, force: request.force)
        var output = changes.map {
            "\($0.status.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0))\($0.displayPath)\n"
        }
        .joined()
        let conflicts = changes.filter { $0.status == .conflict }
        guard conflicts.isEmpty else {
            return RunResult(
                exitCode: 1, standardOutput: output,
                standardError: """
                    error: \(conflicts.count) existing file(s) differ from the generated ones; nothing was written.
                    Re-run with --force to overwrite them, or move them away first.\n
                    """)
        }
        try Writer.apply(changes)
        output += target.notes.joined()
        let warnings = templates.unusedOverrides().map { name in
            "warning: --templates file '\(name)' matches no template and was not used; "
                + "the names are \(BuiltInTemplates.names.joined(separator: ", "))\n"
        }
        return RunResult(exitCode: 0, standardOutput: output, standardError: warnings.joined())
    }
}
