import Foundation

/// What a run printed and how it ended; the executable prints it and exits with `exitCode`.
public struct RunResult: Equatable, Sendable {
    /// 0 done or nothing to do (`regen` also when it keeps edited files), 1 generating found
    /// an edited or unknown file (nothing written) or `--check` found a difference, 2 bad
    /// input (nothing written).
    public var exitCode: Int32
    public var standardOutput: String
    public var standardError: String
    /// Whether the run was asked for JSON (`--json`), so stdout is JSON and never coloured.
    public var isJSON = false
    /// `standardOutput` with each status line's status word coloured, for a terminal; nil when
    /// it has no status lines.
    public var colouredStandardOutput: String? = nil
}

/// The whole command: argv in, files and a `RunResult` out.
///
/// Every command that changes files runs one pipeline; where the disk is touched is named:
///
/// 1. **Parse** (`CommandLine/`, `Spec/`): `InvocationParser.parse([String]) -> Invocation`; a
///    model's name and field tokens become a checked `ModelSpec` in a `GenerateRequest`. No disk.
/// 2. **Resolve** (`Run/DestinationResolver`): the request's `Destination` becomes the package
///    root and the prefix its paths are shown with. Reads: what exists, whose package it is.
/// 3. **Recall** (`Manifest/`, `Evolution/`; `PackagePlanner.recall`): the package's `Manifest`
///    gives each model's record (`regen` builds its requests from them) and `ModelHistory`;
///    `ModelEvolution.check` refuses a change that stored data would not follow. Reads
///    `.scaffold/manifest.json`. Hands on a `RecalledPackage`.
/// 4. **Render** (`Rendering/`, `Templates/`; `PackagePlanner.render`): `Renderer.render` fills
///    the templates with a `RenderContext` into `[GeneratedFile]` for each model, and
///    `ClashCheck` refuses a path that clashes with a stranger's file. Reads templates (built-in,
///    or a package's overrides). Hands on `[RenderedModel]`.
/// 5. **Plan** (`Planning/Planner`, `PackagePlanner.plan`): compares each `GeneratedFile` with
///    the disk and the manifest's hashes into `[PlannedChange]`, each with a `ChangeStatus`,
///    plus the manifest's own change: a `PackagePlan`. Reads, never writes. `destroy` plans
///    from the manifest instead (`Planning/RemovalPlanner`) and joins here.
/// 6. **Report and apply** (`Commands/Outcome`): status lines and diffs, or JSON; in `.apply`
///    mode `Writer.apply` moves removed files aside, stages every write beside its file, then
///    renames. That is the only place that writes (and `destroy` then removes the folders it
///    emptied).
///
/// Each stage throws its own ``BadInput`` error; ``exitCode(for:)`` maps every error to an exit
/// code, here only.
public enum ScaffoldRepo {
    /// The version `--version` prints.
    public static let version = "0.2.0"

    /// Runs `scaffold-repo` with `arguments` (without the program name), resolving relative
    /// paths against `currentDirectory`. Never traps: every failure becomes an exit code.
    public static func run(_ arguments: [String], currentDirectory: URL) -> RunResult {
        var result = runCommand(arguments, currentDirectory: currentDirectory)
        // A script that asked for JSON gets its errors as JSON too, those of a command line
        // that does not parse included, and a disk's (exit 1); people still read stderr.
        result.isJSON = InvocationParser.asksForJSON(arguments)
        if result.isJSON, result.exitCode != 0, result.standardOutput.isEmpty {
            result.standardOutput = PlanReport.errorJSON(
                message: result.standardError.replacingOccurrences(of: "error: ", with: "")
                    .trimmingCharacters(in: .whitespacesAndNewlines),
                exitCode: result.exitCode)
        }
        return result
    }

    private static func runCommand(_ arguments: [String], currentDirectory: URL) -> RunResult {
        do {
            switch try InvocationParser.parse(arguments) {
            case .help(let topic):
                // A script that asked for JSON gets an error it can read, not text.
                guard !InvocationParser.asksForJSON(arguments) else {
                    throw UsageError("--json: help is text for people; leave out --json")
                }
                return RunResult(
                    exitCode: 0, standardOutput: CommandHelp.text(for: topic), standardError: "")
            case .completions(let shell):
                return RunResult(
                    exitCode: 0, standardOutput: Completions.script(for: shell), standardError: "")
            case .version:
                let text =
                    InvocationParser.asksForJSON(arguments)
                    ? try StableJSON.text(["version": version]) : "scaffold-repo \(version)\n"
                return RunResult(exitCode: 0, standardOutput: text, standardError: "")
            case .generate(let request, let options):
                let package: String
                switch request.destination {
                case .into(let directory, _): package = directory
                case .standalone(let output): package = output ?? "."
                }
                return try PackageLock.whileHeld(on: package, currentDirectory: currentDirectory) {
                    try GenerateCommand.run(request, options, currentDirectory: currentDirectory)
                }
            case .regen(let directory, let templates, let options):
                return try PackageLock.whileHeld(on: directory, currentDirectory: currentDirectory)
                {
                    try RegenCommand.run(
                        directory, templates, options, currentDirectory: currentDirectory)
                }
            case .own(let paths, let directory, let options):
                return try PackageLock.whileHeld(on: directory, currentDirectory: currentDirectory)
                {
                    try OwnCommand.run(
                        paths, directory: directory, options, currentDirectory: currentDirectory)
                }
            case .destroy(let model, let directory, let options):
                return try PackageLock.whileHeld(on: directory, currentDirectory: currentDirectory)
                {
                    try DestroyCommand.run(
                        model: model, directory: directory, options,
                        currentDirectory: currentDirectory)
                }
            case .listTemplates(let directory):
                return try TemplatesCommand.list(directory, currentDirectory: currentDirectory)
            case .ejectTemplates(let directory, let options):
                return try TemplatesCommand.eject(
                    directory, options, currentDirectory: currentDirectory)
            }
        } catch {
            return RunResult(
                exitCode: exitCode(for: error), standardOutput: "",
                standardError: "error: \((error as? any BadInput)?.message ?? "\(error)")\n")
        }
    }

    /// The exit code for a failed run, decided here only: 2 for bad input (nothing was
    /// written), 1 for anything else, such as a disk that refused a write.
    static func exitCode(for error: any Error) -> Int32 {
        error is any BadInput ? 2 : 1
    }
}
