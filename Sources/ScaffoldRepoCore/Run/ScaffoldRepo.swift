import Foundation

/// What a run printed and how it ended; the executable prints it and exits with `exitCode`.
public struct RunResult: Equatable, Sendable {
    /// 0 done or nothing to do (`regen` also when it keeps edited files), 1 generating found
    /// an edited or unknown file (nothing written) or `--check` found a difference, 2 bad
    /// input (nothing written).
    public var exitCode: Int32
    public var standardOutput: String
    public var standardError: String
}

/// The whole command: argv in, files and a `RunResult` out.
public enum ScaffoldRepo {
    /// The version `--version` prints.
    public static let version = "0.2.0"

    /// Runs `scaffold-repo` with `arguments` (without the program name), resolving relative
    /// paths against `currentDirectory`. Never traps: every failure becomes an exit code.
    public static func run(_ arguments: [String], currentDirectory: URL) -> RunResult {
        var result = runCommand(arguments, currentDirectory: currentDirectory)
        // A script that asked for JSON gets its errors as JSON too; people still read stderr.
        if arguments.contains("--json"), result.exitCode == 2, result.standardOutput.isEmpty {
            result.standardOutput = PlanReport.errorJSON(
                message: result.standardError.replacingOccurrences(of: "error: ", with: "")
                    .trimmingCharacters(in: .whitespacesAndNewlines),
                exitCode: result.exitCode)
        }
        return result
    }

    private static func runCommand(_ arguments: [String], currentDirectory: URL) -> RunResult {
        do {
            switch try ArgumentParser.parse(arguments) {
            case .help(let topic):
                return RunResult(
                    exitCode: 0, standardOutput: CommandHelp.text(for: topic), standardError: "")
            case .completions(let shell):
                return RunResult(
                    exitCode: 0, standardOutput: Completions.script(for: shell), standardError: "")
            case .version:
                return RunResult(
                    exitCode: 0, standardOutput: "scaffold-repo \(version)\n", standardError: "")
            case .generate(let request, let options):
                return try generate(request, options, currentDirectory: currentDirectory)
            case .regen(let directory, let templates, let options):
                return try regen(directory, templates, options, currentDirectory: currentDirectory)
            case .own(let paths, let directory):
                return try Destroyer.own(
                    paths, directory: directory, currentDirectory: currentDirectory)
            case .destroy(let model, let directory, let options):
                return try Destroyer.destroy(
                    model: model, directory: directory, options, currentDirectory: currentDirectory)
            case .listTemplates(let directory):
                return try TemplateCommands.list(directory, currentDirectory: currentDirectory)
            case .ejectTemplates(let directory, let options):
                let (changes, display) = try TemplateCommands.ejectPlan(
                    directory, force: options.force, currentDirectory: currentDirectory)
                return try finish(
                    changes, options, keepingBlocks: true,
                    notes: [
                        "Edit them, then generate as usual: \(display) overrides the built-ins of the same name.\n"
                    ])
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

    private static func generate(
        _ request: GenerateRequest, _ options: RunOptions, currentDirectory: URL
    ) throws -> RunResult {
        let target = try DestinationResolver.resolve(
            request.destination, spec: request.spec, currentDirectory: currentDirectory)
        let templates = try PackagePlanner.templates(
            request.templatesDirectory, root: target.root, currentDirectory: currentDirectory)
        let (changes, orphans, evolution) = try PackagePlanner.plan(
            [request], root: target.root, displayRoot: target.displayRoot, templates: templates,
            force: options.force)
        return try finish(
            changes, options, keepingBlocks: true, notes: target.notes,
            warnings: templates.warnings() + orphans, preface: evolution)
    }

    private static func regen(
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
            var request = try PackagePlanner.recordedRequest(model)
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
        return try finish(
            changes, options, keepingBlocks: false, warnings: templates.warnings() + orphans,
            preface: evolution)
    }

    /// Reports the plan and, in `.apply` mode, writes it, then runs `afterApply`. With
    /// `keepingBlocks`, a kept file (conflict or modified) stops every write; without, the other
    /// files are still written, and `keptNote` tells how many were kept. `preface` lines come
    /// before the statuses (on stderr with `--json`).
    static func finish(
        _ changes: [PlannedChange], _ options: RunOptions, keepingBlocks: Bool,
        notes: [String] = [], warnings: [String] = [], preface: [String] = [],
        keptNote: (Int) -> String = { count in
            "note: \(count) edited file(s) kept as they are; --force overwrites them.\n"
        },
        afterApply: () throws -> Void = {}
    ) throws -> RunResult {
        let kept = changes.filter(\.status.isKept)
        let differing = changes.filter(\.status.differs)
        var errors = warnings.map { $0 + "\n" }
        var exitCode: Int32 = 0
        // What a real run would do: with kept files blocking, nothing is written.
        let blocks = keepingBlocks && !kept.isEmpty
        let shown = blocks ? Planner.blocked(changes) : changes
        switch options.mode {
        case .dryRun, .check:
            if options.mode == .check, !differing.isEmpty {
                exitCode = 1
                let stale = differing.count - kept.count
                errors.append(
                    "error: \(differing.count) file(s) differ from what would be generated: \(stale) "
                        + "to create or update, \(kept.count) edited or unknown (modified/conflict).\n"
                )
            }
        case .apply:
            if blocks {
                exitCode = 1
                errors.append(
                    "error: \(kept.count) existing file(s) differ from the generated ones; nothing was written.\n"
                        + "Re-run with --force to overwrite them, or move them away first.\n")
            } else {
                try Writer.apply(changes)
                try afterApply()
                if !kept.isEmpty { errors.append(keptNote(kept.count)) }
            }
        }
        if options.json {
            return RunResult(
                exitCode: exitCode, standardOutput: PlanReport.json(shown, exitCode: exitCode),
                standardError: preface.map { $0 + "\n" }.joined() + errors.joined())
        }
        var output = preface.map { $0 + "\n" }.joined() + PlanReport.statusLines(shown)
        if options.mode != .apply {
            output += PlanReport.diffs(changes)
        } else if exitCode == 0 {
            output += notes.joined()
        }
        return RunResult(exitCode: exitCode, standardOutput: output, standardError: errors.joined())
    }
}
