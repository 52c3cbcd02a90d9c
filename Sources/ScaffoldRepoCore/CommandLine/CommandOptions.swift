/// A command, as the parser and the help name it.
enum CommandName: String, CaseIterable, Sendable {
    case generate, regen, destroy, own
    case templatesList = "templates list"
    case templatesEject = "templates eject"
    case completions

    /// The `help` topic that explains it.
    var helpTopic: String { rawValue.split(separator: " ").first.map(String.init) ?? rawValue }

    /// What follows the command's words in its usage line, before its options.
    var operands: String {
        switch self {
        case .generate: "<Model> <field>..."
        case .regen, .templatesList, .templatesEject: "[DIR]"
        case .destroy: "<Model> [DIR]"
        case .own: "PATH..."
        case .completions: Completions.shells.sorted().joined(separator: "|")
        }
    }

    /// The command's usage line: its words, operands and every option it takes, from
    /// ``CommandOption/all``.
    var usage: String {
        guard self != .generate else {
            return "scaffold-repo [generate|g] \(operands) [options]"
        }
        let options = CommandOption.all.filter { $0.commands.contains(self) }
        var parts = ["scaffold-repo", rawValue, operands]
        let names = Set(options.map(\.name))
        for option in options {
            switch option.name {
            case "--dry-run" where names.contains("--check"): continue
            case "--check" where names.contains("--dry-run"): parts.append("[--check | --dry-run]")
            default: parts.append("[\(option.synopsis)]")
            }
        }
        return parts.joined(separator: " ")
    }
}

/// One command-line option, declared once: the parser, the usage, each command's help and the
/// shell completions all read this table.
struct CommandOption: Sendable {
    /// `--output`.
    let name: String
    /// Another spelling, such as `-h`.
    var alias: String?
    /// The value's placeholder, `DIR`; nil for a flag, which takes no value.
    var value: String?
    /// A value an error message offers as an example (the placeholder when nil).
    var example: String?
    /// The commands that take it. A global option (`--help`, `--version`) has none and goes
    /// with any command.
    var commands: Set<CommandName> = []
    /// Its lines in the usage's OPTIONS, the option's own spelling first.
    let help: [String]

    /// `--output DIR`, or `--force`.
    var synopsis: String { value.map { "\(name) \($0)" } ?? name }

    /// Whether completions offer folders for its value.
    var takesAFolder: Bool { value == "DIR" || value == "PACKAGE_DIR" }

    /// Every option, in the order the usage lists them.
    static let all: [CommandOption] = [
        CommandOption(
            name: "--output", value: "DIR", commands: [.generate],
            help: ["--output DIR        write a new package to DIR (default: ./<Model>Store)"]),
        CommandOption(
            name: "--into", value: "PACKAGE_DIR", commands: [.generate, .own],
            help: ["--into PACKAGE_DIR  add the files to an existing package ..."]),
        CommandOption(
            name: "--target", value: "NAME", commands: [.generate],
            help: ["--target NAME       ... into Sources/NAME and Tests/NAMETests"]),
        CommandOption(
            name: "--storage", value: Storage.allCases.map(\.rawValue).joined(separator: "|"),
            example: Storage.journal.rawValue, commands: [.generate],
            help: [
                "--storage journal   snapshot + append-only journal: fast at any size (default)",
                "--storage snapshot  one JSON file rewritten on every save: the simple pattern",
                "--storage sqlite    a table in the module's SQLite database: for data that",
                "                    outgrows memory; queries, sort and paging run in SQL",
            ]),
        CommandOption(
            name: "--plural", value: "NAME", example: "people", commands: [.generate],
            help: ["--plural NAME       the plural variable name when English rules get it wrong"]),
        CommandOption(
            name: "--rename", value: "OLD=NEW[,OLD=NEW...]", example: "title=headline",
            commands: [.generate],
            help: [
                "--rename OLD=NEW[,OLD=NEW...]",
                "                    field NEW was called OLD: stored values under OLD are read into",
                "                    NEW (recorded, so regen and later runs keep reading them)",
            ]),
        CommandOption(
            name: "--drop", value: "FIELD[,FIELD...]", example: "rating", commands: [.generate],
            help: [
                "--drop FIELD[,FIELD...]",
                "                    field FIELD is left out on purpose: its stored values are",
                "                    dropped (a removed field is refused without it)",
            ]),
        CommandOption(
            name: "--annotate", commands: [.generate],
            help: ["--annotate          add comments that explain the pattern (for workshops)"]),
        CommandOption(
            name: "--migrate", commands: [.generate],
            help: [
                "--migrate           let a change that stored data would not survive through: the",
                "                    model gets a new schema version, a frozen type for the old one,",
                "                    and a migration file (yours) that opening old stores runs",
            ]),
        CommandOption(
            name: "--force", commands: [.generate, .regen, .destroy, .templatesEject],
            help: ["--force             overwrite files that differ, edited ones included"]),
        CommandOption(
            name: "--dry-run", commands: [.generate, .regen, .destroy, .own, .templatesEject],
            help: ["--dry-run           print the plan and diffs; write nothing; exit 0"]),
        CommandOption(
            name: "--check", commands: [.generate, .regen, .templatesEject],
            help: [
                "--check             print the plan and diffs; write nothing; exit 1 if anything differs"
            ]),
        CommandOption(
            name: "--json", commands: [.generate, .regen, .destroy, .own, .templatesEject],
            help: ["--json              print the plan (files, statuses, diffs) as JSON"]),
        CommandOption(
            name: "--templates", value: "DIR", commands: [.generate, .regen],
            help: [
                "--templates DIR     use DIR/<name>.tmpl instead of a built-in template of that name",
                "                    (a package's own .scaffold/templates is used too)",
            ]),
        CommandOption(
            name: "--help", alias: "-h", help: ["--help, -h, help    show this help"]),
        CommandOption(name: "--version", help: ["--version           show the version"]),
    ]

    /// The option spelled `spelling` (a name or an alias), if any.
    static func named(_ spelling: String) -> CommandOption? {
        all.first { $0.name == spelling || $0.alias == spelling }
    }

    /// Every spelling, names and aliases, for suggestions and completions.
    static var spellings: [String] { all.flatMap { [$0.name] + ($0.alias.map { [$0] } ?? []) } }

    /// The options `command` takes, for its help: `--output DIR, --force, …`.
    static func list(for command: CommandName) -> String {
        all.filter { $0.commands.contains(command) }.map(\.synopsis).joined(separator: ", ")
    }

    /// The usage's OPTIONS section, each line indented by two spaces.
    static var usageSection: String {
        all.flatMap(\.help).map { "  \($0)" }.joined(separator: "\n")
    }
}
