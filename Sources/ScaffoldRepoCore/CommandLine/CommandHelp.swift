/// `help <command>` and `<command> --help`: the help for one command, with examples.
public enum CommandHelp {
    /// The command words, as `help` and completions know them.
    public static let commands = [
        "generate", "regen", "destroy", "own", "templates", "completions", "help",
    ]

    /// The help topic for `word`: nil for the general help, else a key of ``texts``. Throws for
    /// a word that names no command.
    static func topic(_ word: String?) throws -> String? {
        guard let word else { return nil }
        switch word {
        case "g", "generate": return "generate"
        case "help": return nil
        case _ where texts[word] != nil: return word
        default:
            let suggestion =
                Suggestion.closest(to: word, among: commands).map { " Did you mean \($0)?" } ?? ""
            throw UsageError(
                "no command '\(word)'.\(suggestion) Commands: \(commands.joined(separator: ", "))")
        }
    }

    /// The text for `topic` (nil: the general usage).
    public static func text(for topic: String?) -> String {
        topic.flatMap { texts[$0] } ?? InvocationParser.usage
    }

    static var texts: [String: String] {
        [
            "generate": """
            \(CommandName.generate.usage)

            Generates a model store: the model, its actor repository, a live view-model, and
            XCTest and Swift Testing suites. Without --into, a new package (./<Model>Store, or
            --output DIR); with --into PACKAGE_DIR --target NAME, files in that target.

            Fields are name[:Type][=default]; run 'scaffold-repo --help' for the types.
            \(wrapped("Options: " + CommandOption.list(for: .generate)))

            EXAMPLES
              scaffold-repo Question id:String text:String
              scaffold-repo g Note id:UUID title 'body:String?' createdAt:Date --output Notes
              scaffold-repo Item id:Int name:String --into ./MyApp --target MyAppCore
              scaffold-repo Book id:UUID headline:String --rename title=headline

            """,
            "regen": """
            \(CommandName.regen.usage)

            Re-renders every model recorded in DIR/.scaffold/manifest.json (DIR: .) with the
            current templates. Files still as generated are updated; files edited by hand are
            kept and listed as modified (--force overwrites them). --check writes nothing and
            exits 1 when anything differs, for CI.

            EXAMPLES
              scaffold-repo regen
              scaffold-repo regen QuestionStore --check
              scaffold-repo regen . --dry-run --json

            """,
            "destroy": """
            \(CommandName.destroy.usage)

            Removes a model's generated files from the package in DIR (default .), and the
            folders that this leaves empty. Files edited by hand are kept and listed as
            modified; --force removes them too. A file another model uses too (StoreFiles.swift)
            is kept as shared. The manifest forgets the model (or, when edited files are kept,
            marks it destroyed, so regen leaves it out). --dry-run shows the plan and removes
            nothing; --json prints the report as JSON (add --dry-run to remove nothing).

            EXAMPLES
              scaffold-repo destroy Question QuestionStore
              scaffold-repo destroy Tag . --dry-run
              scaffold-repo destroy Tag . --dry-run --json

            """,
            "own": """
            \(CommandName.own.usage)

            Takes over generated files: later runs leave them as they are and list them as
            owned. PATH is written as the status lines print it, relative to . or to --into PACKAGE_DIR.
            The manifest records them; --dry-run shows its change and writes nothing; --json
            prints the report as JSON (add --dry-run to write nothing).

            EXAMPLES
              scaffold-repo own Sources/QuestionStore/QuestionListViewModel.swift --into QuestionStore
              scaffold-repo own QuestionStore/Sources/QuestionStore/Question.swift --dry-run

            """,
            "templates": """
            \(CommandName.templatesList.usage)
            \(CommandName.templatesEject.usage)

            list: every built-in template, and how DIR/.scaffold/templates stands against it:
            built-in (no override), edited (an override that differs from the built-in),
            unedited (a copy that still equals it), drifted (ejected from an older built-in),
            unused (a file that matches no template).
            eject: writes the built-in templates to DIR/.scaffold/templates, where every later
            run in DIR picks them up; --templates DIR gives another folder.

            EXAMPLES
              scaffold-repo templates eject QuestionStore
              scaffold-repo templates list QuestionStore

            """,
            "completions": """
            \(CommandName.completions.usage)

            Prints a script that completes commands, options, --storage values and field
            types (after name:) in that shell.

            EXAMPLES
              source <(scaffold-repo completions bash)          # in ~/.bashrc
              scaffold-repo completions zsh > ~/.zfunc/_scaffold-repo
              scaffold-repo completions fish > ~/.config/fish/completions/scaffold-repo.fish

            """,
        ]
    }

    /// `text` in lines of at most 88 columns, broken at spaces.
    private static func wrapped(_ text: String) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > 88 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return (lines + [line]).joined(separator: "\n")
    }
}
