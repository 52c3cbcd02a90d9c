/// What one run of `scaffold-repo` was asked to do.
public enum Invocation: Equatable, Sendable {
    /// Print the help: the general usage (topic nil) or one command's.
    case help(topic: String?)
    case version
    /// Print a completion script for `shell` (bash, zsh or fish).
    case completions(shell: String)
    /// Generate one model.
    case generate(GenerateRequest, RunOptions)
    /// Re-render every model recorded in the manifest of the package in `directory`.
    case regen(directory: String, templatesDirectory: String?, RunOptions)
    /// Remove a model's generated files from the package in `directory`.
    case destroy(model: String, directory: String, RunOptions)
    /// Hand generated files (paths relative to the package in `directory`) to the person.
    case own(paths: [String], directory: String, RunOptions)
    /// List the built-in templates, and how the override folder stands against them.
    case listTemplates(directory: String?)
    /// Write the built-in templates to `directory` for customizing.
    case ejectTemplates(directory: String?, RunOptions)
}

/// How a command treats the disk and reports.
public struct RunOptions: Equatable, Sendable {
    /// What to do with the plan.
    public enum Mode: Equatable, Sendable {
        /// Write it.
        case apply
        /// Print it with diffs, write nothing, exit 0.
        case dryRun
        /// Print it with diffs, write nothing, exit 1 when anything would change.
        case check
    }

    public var mode: Mode
    /// Overwrite files that differ, edited ones included.
    public var force: Bool
    /// Print the plan as JSON on stdout instead of status lines.
    public var json: Bool

    public init(mode: Mode = .apply, force: Bool = false, json: Bool = false) {
        self.mode = mode
        self.force = force
        self.json = json
    }
}
