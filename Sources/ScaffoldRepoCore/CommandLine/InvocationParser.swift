/// The hand-written command-line parser: argv (without the program name) to an `Invocation`.
public enum InvocationParser {
    /// Every option, for suggestions and completions.
    public static var options: [String] { CommandOption.spellings }

    /// Whether `arguments` ask for JSON, read even when they do not parse, so that a script
    /// gets its errors as JSON too.
    public static func asksForJSON(_ arguments: [String]) -> Bool {
        arguments.contains { CommandOption.named($0)?.name == "--json" }
    }

    /// Parses the arguments, throwing a `UsageError` that names the bad token and the fix.
    /// With `recorded` (a command line that a version-1 manifest holds), defaults are read as
    /// they were written then, not held to every platform's range, as a record's are.
    public static func parse(_ arguments: [String], recorded: Bool = false) throws -> Invocation {
        var values: [String: String] = [:]
        var flags: Set<String> = []
        var positionals: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-"), argument.count > 1 else {
                positionals.append(argument)
                continue
            }
            let parts = argument.split(
                separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let option = String(parts[0])
            let declared = CommandOption.named(option)
            if let declared, declared.value == nil {
                guard parts.count == 1 else {
                    throw UsageError(
                        "\(option) takes no value; write it alone, without '=\(parts[1])'")
                }
                flags.insert(declared.name)
            } else if declared != nil {
                guard values[option] == nil else {
                    throw UsageError("\(option) is given twice; give it once")
                }
                let value: String
                if parts.count == 2 {
                    value = String(parts[1])
                } else if index < arguments.count, !arguments[index].hasPrefix("--") {
                    value = arguments[index]
                    index += 1
                } else {
                    throw UsageError(
                        "\(option) needs a value, for example \(option) \(placeholder(option))")
                }
                guard !value.isEmpty else {
                    let declared = CommandOption.named(option)
                    let example = declared?.example.map { ", for example \(option) \($0)" } ?? ""
                    throw UsageError(
                        "\(option) has an empty value; give \(declared?.value ?? "one")\(example)")
                }
                values[option] = value
            } else {
                let suggestion =
                    Suggestion.closest(to: option, among: CommandOption.spellings)
                    .map { " Did you mean \($0)?" } ?? ""
                throw UsageError(
                    "unknown option '\(argument)'.\(suggestion) Run 'scaffold-repo --help' for the options."
                )
            }
        }
        if positionals.first == "help" {
            return .help(topic: try CommandHelp.topic(positionals.dropFirst().first))
        }
        if flags.contains("--help") {
            // `regen --help` is regen's help; `Question --help` is generating's.
            let first = positionals.first
            let topic =
                first.flatMap { try? CommandHelp.topic($0) } ?? (first == nil ? nil : "generate")
            return .help(topic: topic)
        }
        if flags.contains("--version") { return .version }
        let (command, operands) = try command(positionals)
        let given = Set(values.keys).union(flags)
        let taken = Set(CommandOption.all.filter { $0.commands.contains(command) }.map(\.name))
        if let stray = given.subtracting(taken).sorted().first {
            throw UsageError(
                "\(stray) does not apply to "
                    + "\(command == .generate ? "generating a model" : command.rawValue); "
                    + "run 'scaffold-repo help \(command.helpTopic)' for what it takes")
        }
        guard !(flags.contains("--dry-run") && flags.contains("--check")) else {
            throw UsageError("--dry-run and --check cannot be used together; choose one")
        }
        let options = RunOptions(
            mode: flags.contains("--check")
                ? .check : flags.contains("--dry-run") ? .dryRun : .apply,
            force: flags.contains("--force"), json: flags.contains("--json"))
        switch command {
        case .regen:
            return .regen(
                directory: try single(operands, "regen [DIR]") ?? ".",
                templatesDirectory: values["--templates"], options)
        case .own:
            guard !operands.isEmpty else {
                throw UsageError(
                    "own needs a file: scaffold-repo own PATH... (PATH as the status lines "
                        + "print it)")
            }
            return .own(paths: operands, directory: values["--into"] ?? ".", options)
        case .destroy:
            guard operands.count <= 2 else {
                let extra = operands.dropFirst(2)
                let many = extra.count == 1 ? "is one argument" : "are \(extra.count) arguments"
                throw UsageError(
                    "'\(extra.joined(separator: " "))' \(many) too many: scaffold-repo destroy "
                        + "<Model> [DIR]")
            }
            guard let model = operands.first else {
                throw UsageError("destroy needs a model: scaffold-repo destroy <Model> [DIR]")
            }
            return .destroy(
                model: model, directory: operands.count == 2 ? operands[1] : ".", options)
        case .templatesList:
            return .listTemplates(directory: try single(operands, "templates list [DIR]"))
        case .completions:
            let shells = Completions.shells.joined(separator: "|")
            guard let shell = try single(operands, "completions \(shells)") else {
                throw UsageError("completions needs a shell: scaffold-repo completions \(shells)")
            }
            guard Completions.shells.contains(shell) else {
                let suggestion = Suggestion.closest(to: shell, among: Completions.shells).map {
                    " Did you mean \($0)?"
                }
                throw UsageError(
                    "no completion script for '\(shell)'.\(suggestion ?? "") The shells are "
                        + shells)
            }
            return .completions(shell: shell)
        case .templatesEject:
            return .ejectTemplates(
                directory: try single(operands, "templates eject [DIR]"), options)
        case .generate:
            guard let modelName = operands.first else {
                throw UsageError(
                    "no model given; for example: scaffold-repo Question id:String text:String "
                        + "(run 'scaffold-repo --help' for more)")
            }
            var spec = try SpecParser.parse(
                modelName: modelName, fieldTokens: Array(operands.dropFirst()),
                plural: values["--plural"])
            if !recorded {
                try SpecParser.refuseDefaultsThatDoNotFitEveryPlatform(
                    spec, tokens: Array(operands.dropFirst()))
                try SpecParser.refuseAPluralThatIsNotAVariableName(spec.plural)
                try SpecParser.refuseFieldsNamedLikeTypes(
                    spec, tokens: Array(operands.dropFirst()))
            }
            if let renames = values["--rename"] {
                try SpecParser.applyRenames(renames, to: &spec)
            }
            var request = GenerateRequest(
                spec: spec, destination: try destination(values),
                templatesDirectory: values["--templates"],
                storage: try storage(values["--storage"]),
                annotate: flags.contains("--annotate"))
            request.migrate = flags.contains("--migrate")
            request.storageIsChosen = values["--storage"] != nil
            if let drops = values["--drop"] {
                request.droppedFields = try SpecParser.droppedFields(in: drops)
            }
            // Without --storage, the planner knows the storage once it has read the manifest.
            if request.storageIsChosen { try request.refuseWhatItsStorageCannotDo() }
            return .generate(request, options)
        }
    }

    /// The command the positionals name, and the rest of them. A first word `regen`,
    /// `destroy`, `own` or `templates` names a command, and `generate` or `g` says the model
    /// follows; anything else is a model to generate.
    private static func command(_ positionals: [String]) throws -> (CommandName, [String]) {
        switch positionals.first {
        case "generate", "g":
            return (.generate, Array(positionals.dropFirst()))
        case let word? where ["regen", "destroy", "own", "completions"].contains(word):
            return (CommandName(rawValue: word) ?? .generate, Array(positionals.dropFirst()))
        case "templates":
            let sub = positionals.dropFirst().first
            guard sub == "list" || sub == "eject" else {
                let guess = sub.flatMap { Suggestion.closest(to: $0, among: ["list", "eject"]) }
                let given =
                    sub.map {
                        "'\($0)' is not a templates command"
                            + (guess.map { " (did you mean \($0)?)" } ?? "") + "; "
                    } ?? ""
                throw UsageError(
                    "\(given)templates needs 'list' or 'eject': scaffold-repo templates list, "
                        + "scaffold-repo templates eject [DIR]")
            }
            return (
                sub == "list" ? .templatesList : .templatesEject, Array(positionals.dropFirst(2))
            )
        case let word? where word == word.lowercased() && word.count >= 4:
            // `regne` or `destory` is a mistyped command, not a model named Regne.
            if let command = Suggestion.closest(to: word, among: CommandHelp.commands) {
                throw UsageError(
                    "no command '\(word)'. Did you mean \(command)? To generate a model with "
                        + "this name, write it with a capital letter: "
                        + Names.typeName(fromAnyCase: word))
            }
            return (.generate, positionals)
        default:
            return (.generate, positionals)
        }
    }

    private static func single(_ operands: [String], _ usage: String) throws -> String? {
        guard operands.count <= 1 else {
            throw UsageError("'\(operands[1])' is one argument too many: scaffold-repo \(usage)")
        }
        return operands.first
    }

    private static func destination(_ values: [String: String]) throws -> Destination {
        switch (values["--into"], values["--target"]) {
        case (let package?, let target?):
            guard values["--output"] == nil else {
                throw UsageError("--output and --into cannot be used together; choose one")
            }
            guard Identifier.isValid(target) else {
                throw UsageError(
                    "--target '\(target)' is not a target name scaffold-repo can generate into "
                        + "(ASCII letters, digits and _, not starting with a digit, and not a "
                        + "keyword): it names the module the generated tests import. Give such a "
                        + "target, or rename this one in Package.swift (and its folder)")
            }
            return .into(packageDirectory: package, target: target)
        case (_?, nil):
            throw UsageError(
                "--into needs --target NAME: the target in that package to add the files to")
        case (nil, _?):
            throw UsageError("--target needs --into PACKAGE_DIR: the package that has that target")
        case (nil, nil):
            return .standalone(outputDirectory: values["--output"])
        }
    }

    private static func storage(_ value: String?) throws -> Storage {
        guard let value else { return .journal }
        if let storage = Storage(rawValue: value.lowercased()) { return storage }
        let names = Storage.allCases.map(\.rawValue)
        let suggestion =
            Suggestion.closest(to: value, among: names).map { " Did you mean \($0)?" } ?? ""
        throw UsageError(
            "unknown storage '\(value)'.\(suggestion) Use --storage \(names.joined(separator: " or --storage "))"
        )
    }

    private static func placeholder(_ option: String) -> String {
        CommandOption.named(option).map { $0.example ?? $0.value ?? "" } ?? ""
    }

    /// The text `--help` prints.
    public static var usage: String {
        """
        scaffold-repo: generate a model store (model, actor repository, view-model and tests).

        USAGE
          scaffold-repo <Model> <field>... [--output DIR] [options]
          scaffold-repo <Model> <field>... --into PACKAGE_DIR --target NAME [options]
          scaffold-repo generate|g <Model> <field>... [options]   (the same, as in Rails)
        \(CommandName.allCases.dropFirst().map { "  \($0.usage)" }.joined(separator: "\n"))
          scaffold-repo help [COMMAND]     (or COMMAND --help)

        COMMANDS
          <Model> ...      generate a model store (a package, or into a package's target)
          regen            re-render every model in DIR's .scaffold/manifest.json (DIR: .)
                           with the current templates: stale files are updated, edited ones
                           kept (reported as modified) unless --force
          destroy          remove a model's generated files that were not edited
          own              take over generated files: later runs leave them as they are
                           and report them owned (PATH as the status lines print it,
                           relative to . or to --into PACKAGE_DIR)
          templates list   the built-in templates, and which ones DIR/.scaffold/templates
                           overrides or has drifted from (DIR: the package folder, default .)
          templates eject  write the built-in templates to DIR/.scaffold/templates
          completions      print a shell completion script (commands, options, field types)
          help COMMAND     one command's help, with examples

        FIELDS  name[:Type][=default]   (quote them in the shell: 'tags:[String]')
          Type        \(BaseType.allCases.map(\.rawValue).joined(separator: " ")), any case
          T?          optional                 note:String?
          [T]         array                    tags:[String]
          [String:T]  dictionary               scores:[String:Int]
          enum(a,b)   nested String enum       status:enum(draft,published)=draft
          name        a String field           title
          =default    for init, and for JSON written before the field existed:
                      title=Untitled  count:Int=0  done:Bool=false  tags:[String]=[]
          An id field is required: id:String, id:UUID or id:Int.
          :unique :index   after a type: an index and a lookup; unique also refuses a
                      second value with the same one: email:String:unique  title:String:index
          With --storage sqlite, models of one module can refer to each other:
          folder:references(Folder[,cascade|nullify|restrict])[?]
                      folderID of Folder's id type; deleting a Folder deletes (cascade),
                      nils (nullify, an optional field) or refuses (restrict, the default)

        OPTIONS
        \(CommandOption.usageSection)

        STATUSES
          create, identical, update (stale: still as generated, so updated), modified (edited
          by hand: kept), conflict (unknown file: kept), owned (yours, kept, never blocks:
          Package.swift or .gitignore edited by hand, a migration once written, a file given
          to 'own'), review (an owned file whose generated version changed: the diff to make
          is printed, and no Next: step), force, skip (not written because of a conflict),
          delete, shared, missing (destroy)

        EXIT CODES
          0 done (regen: edited and unknown files are kept and listed, the rest written) ·
          1 generating or templates eject: an edited or unknown file differs (nothing
          written); --check: something differs · 2 bad input (nothing written)

        Options take a value as --option VALUE or --option=VALUE.

        EXAMPLES
          scaffold-repo Question id:String text:String
          scaffold-repo Note id:UUID title 'body:String?' pinned:Bool createdAt:Date --output Notes
          scaffold-repo Item id:Int name:String --into ./MyApp --target MyAppCore
          scaffold-repo regen QuestionStore --check

        """
    }
}
