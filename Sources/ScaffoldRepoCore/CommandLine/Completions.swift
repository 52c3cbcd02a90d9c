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
        ArgumentParser.options.sorted().joined(separator: " ")
    }
    private static var typeWords: String {
        (BaseType.allCases.map(\.rawValue) + ["enum("]).joined(separator: " ")
    }
    /// The types, each quoted: `(` is syntax in zsh and fish.
    private static var quotedTypeWords: String {
        (BaseType.allCases.map(\.rawValue) + ["enum("]).map { "'\($0)'" }
            .joined(separator: " ")
    }
    private static var storageWords: String {
        Storage.allCases.map(\.rawValue).joined(separator: " ")
    }

    private static var bash: String {
        """
        # scaffold-repo completion for bash: source <(scaffold-repo completions bash)
        _scaffold_repo() {
            # The word being typed, read from the line: bash splits `title:Str` at the colon.
            local line="${COMP_LINE:0:COMP_POINT}"
            local current="${line##* }"
            local previous="${COMP_WORDS[COMP_CWORD-1]}"
            COMPREPLY=()
            case "$previous" in
                --storage) COMPREPLY=($(compgen -W "\(storageWords)" -- "$current")); return ;;
                --output|--into|--templates) COMPREPLY=($(compgen -d -- "$current")); return ;;
                completions) COMPREPLY=($(compgen -W "\(shells.joined(separator: " "))" -- "$current")); return ;;
                templates) COMPREPLY=($(compgen -W "list eject" -- "$current")); return ;;
            esac
            case "$current" in
                -*) COMPREPLY=($(compgen -W "\(optionWords)" -- "$current")) ;;
                *:*)
                    local name="${current%%:*}" type="${current#*:}"
                    if [[ "$COMP_WORDBREAKS" == *:* ]]; then
                        COMPREPLY=($(compgen -W "\(typeWords)" -- "$type"))
                    else
                        COMPREPLY=($(compgen -P "$name:" -W "\(typeWords)" -- "$type"))
                    fi ;;
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
                --output|--into|--templates) _files -/; return ;;
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
        let options = ArgumentParser.options.filter { $0.hasPrefix("--") }.sorted()
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
