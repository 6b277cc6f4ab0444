/// Shell completion scripts for `uti`: verbs, options, and type identifiers from `uti subtypes public.item`.
enum Completions {
    static let verbs = "conforms info for-extension for-mime for-file tree subtypes graph lint register unregister rebuild dump completions help"
    static let options = "--root --json --quiet --all --explain --conforming-to --extension --mime --by --file --define --format --help"

    static func script(for shell: String) -> String? {
        switch shell {
        case "bash":
            return """
                _uti() {
                  local cur prev; cur="${COMP_WORDS[COMP_CWORD]}"; prev="${COMP_WORDS[COMP_CWORD-1]}"
                  case "$prev" in
                    --root|--file|register|lint|for-file) COMPREPLY=($(compgen -f -- "$cur")); return;;
                    --format) COMPREPLY=($(compgen -W "dot svg" -- "$cur")); return;;
                    --by) COMPREPLY=($(compgen -W "name content both" -- "$cur")); return;;
                  esac
                  if [ "$COMP_CWORD" -eq 1 ]; then COMPREPLY=($(compgen -W "\(verbs)" -- "$cur")); return; fi
                  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "\(options)" -- "$cur")); return; fi
                  COMPREPLY=($(compgen -W "$(uti subtypes public.item 2>/dev/null) public.item" -- "$cur"))
                }
                complete -F _uti uti

                """
        case "zsh":
            return """
                #compdef uti
                _uti() {
                  if (( CURRENT == 2 )); then compadd -- \(verbs); return; fi
                  case "$words[CURRENT]" in
                    -*) compadd -- \(options);;
                    *) compadd -- public.item ${(f)"$(uti subtypes public.item 2>/dev/null)"}; _files;;
                  esac
                }
                _uti "$@"

                """
        case "fish":
            return """
                complete -c uti -f -n "__fish_use_subcommand" -a "\(verbs)"
                complete -c uti -f -n "not __fish_use_subcommand" -a "(uti subtypes public.item 2>/dev/null)"
                \(options.split(separator: " ").map { "complete -c uti -l \($0.dropFirst(2))" }.joined(separator: "\n"))

                """
        default: return nil
        }
    }
}
