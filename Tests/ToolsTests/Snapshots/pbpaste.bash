# bash completion for pbpaste, generated from its declaration (pbpaste --generate-completion bash)
_pbpaste() {
    local cur prev verb i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    case "$prev" in
        -pboard) return ;;
        -Prefer) COMPREPLY=($(compgen -W "txt rtf ps" -- "$cur")); return ;;
        --type) return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    verb=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "  " in *" ${COMP_WORDS[i]} "*) verb="${COMP_WORDS[i]}"; break ;; esac
    done
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "-pboard -Prefer --type --types --change-count --root --help -h --version${verb:+ }${verb:-}" -- "$cur"))
        [[ -n "$verb" ]] && COMPREPLY=($(compgen -W "-pboard -Prefer --type --types --change-count --root --help -h --version" -- "$cur"))
        return
    fi
    if [[ -n "$verb" && "$prev" == "$verb" ]]; then
        case "$verb" in
        esac
    fi
    if [[ -z "$verb" && -n "" ]]; then
        COMPREPLY=($(compgen -W "" -- "$cur"))
        COMPREPLY+=($(compgen -f -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}

complete -o filenames -F _pbpaste pbpaste
