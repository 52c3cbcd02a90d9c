/// `scaffold-repo completions bash|zsh|fish`: shell scripts that complete commands, options,
/// `--storage` values and field types after `name:`.
public enum Completions {
    /// The shells a script is printed for.
    public static let shells = ["bash", "fish", "zsh"]

    /// The script for `shell`, one of ``shells``.
    public static func script(for shell: String) -> String {
        switch shell {
        case "zsh": zsh
        case "fish": fish
        default: bash
        }
    }

    private static var commandWords: String {
        (CommandHelp.commands + ["g"]).sorted().joined(separator: " ")
    }
    private static var optionWords: String {
        InvocationParser.options.sorted().joined(separator: " ")
    }
    private static var typeWords: String {
        (BaseType.allCases.map(\.rawValue) + ["enum("]).joined(separator: " ")
    }
    /// The types, each quoted: `(` is syntax in zsh and fish.
    private static var quotedTypeWords: String {
        (BaseType.allCases.map(\.rawValue) + ["enum("]).map { "'\($0)'" }
            .joined(separator: " ")
    }
    /// The options whose value is a folder, as a shell `case` pattern: `--output|--into|--templates`.
    private static var folderOptions: String {
        CommandOption.all.filter(\.takesAFolder).map(\.name).joined(separator: "|")
    }
    private static var storageWords: String {
        Storage.allCases.map(\.rawValue).joined(separator: " ")
    }

    private static var bash: String {
        """
        # scaffold-repo completion for bash: source <(scaffold-repo completions bash)
        _scaffold_repo() {
            # The word being typed, read from the line: bash splits `title:Str` at the colon
            # and `--storage=j` at the equals sign, unless they are in quotes.
            local line="${COMP_LINE:0:COMP_POINT}"
            local current="${line##* }"
            local word="${COMP_WORDS[COMP_CWORD]}"
            local previous="${COMP_WORDS[COMP_CWORD-1]}"
            COMPREPLY=()
            if [ "$previous" = "=" ] && [ "$COMP_CWORD" -ge 2 ]; then
                previous="${COMP_WORDS[COMP_CWORD-2]}"
            fi
            case "$previous" in
                --storage) COMPREPLY=($(compgen -W "\(storageWords)" -- "${current#*=}")); return ;;
                \(folderOptions)) COMPREPLY=($(compgen -d -- "$word")); return ;;
                completions) COMPREPLY=($(compgen -W "\(shells.joined(separator: " "))" -- "$word")); return ;;
                templates) COMPREPLY=($(compgen -W "list eject" -- "$word")); return ;;
                help) COMPREPLY=($(compgen -W "\(commandWords)" -- "$word")); return ;;
            esac
            case "$current" in
                -*) COMPREPLY=($(compgen -W "\(optionWords)" -- "$current")) ;;
                *:*)
                    # A field: complete its type, in any letter case. When bash kept the word
                    # whole (in quotes), the reply is the whole field.
                    local name="${current%%:*}" type="${current#*:}" prefix="" each
                    case "$name" in \\'*|\\"*) name="${name:1}" ;; esac
                    case "$word" in *:*) prefix="$name:" ;; esac
                    local restore; restore="$(shopt -p nocasematch)"; shopt -s nocasematch
                    for each in \(quotedTypeWords); do
                        [[ "$each" == "$type"* ]] && COMPREPLY+=("$prefix$each")
                    done
                    $restore ;;
                *)
                    if [ "$COMP_CWORD" -eq 1 ]; then
                        COMPREPLY=($(compgen -W "\(commandWords)" -- "$current"))
                    fi ;;
            esac
        }
        complete -o default -F _scaffold_repo scaffold-repo

        """
    }

    private static var zsh: String {
        """
        #compdef scaffold-repo
        # scaffold-repo completion for zsh: save as _scaffold-repo in a folder on $fpath
        _scaffold_repo() {
            local current="${words[CURRENT]}" previous="${words[CURRENT-1]}"
            case "$previous" in
                --storage) compadd -- \(storageWords); return ;;
                \(folderOptions)) _files -/; return ;;
                completions) compadd -- \(shells.joined(separator: " ")); return ;;
                templates) compadd -- list eject; return ;;
            esac
            case "$current" in
                -*) compadd -- \(optionWords) ;;
                *:*) compadd -P "${current%%:*}:" -- \(quotedTypeWords) ;;
                *) (( CURRENT == 2 )) && compadd -- \(commandWords) ;;
            esac
        }
        compdef _scaffold_repo scaffold-repo

        """
    }

    private static var fish: String {
        let options = InvocationParser.options.filter { $0.hasPrefix("--") }.sorted()
            .map { "complete -c scaffold-repo -l \($0.dropFirst(2))" }
            .joined(separator: "\n")
        return """
            # scaffold-repo completion for fish: save in ~/.config/fish/completions/scaffold-repo.fish
            complete -c scaffold-repo -n __fish_use_subcommand -f -a "\(commandWords)"
            \(options)
            complete -c scaffold-repo -n "__fish_seen_argument -l storage" -f -a "\(storageWords)"
            complete -c scaffold-repo -n "__fish_seen_subcommand_from completions" -f -a "\(shells.joined(separator: " "))"
            complete -c scaffold-repo -n "__fish_seen_subcommand_from templates" -f -a "list eject"
            function __scaffold_repo_field_types
                set -l token (commandline -ct)
                string match -q '*:*' -- $token; or return
                set -l name (string split -m1 : -- $token)[1]
                for type in \(quotedTypeWords)
                    echo "$name:$type"
                end
            end
            complete -c scaffold-repo -a "(__scaffold_repo_field_types)"

            """
    }
}
