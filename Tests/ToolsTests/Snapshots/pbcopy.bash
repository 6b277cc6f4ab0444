# bash completion for pbcopy, generated from its declaration (pbcopy --generate-completion bash)
_pbcopy() {
    local cur prev verb i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    case "$prev" in
        -pboard) return ;;
        --type) return ;;
        --expires) return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    verb=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "  " in *" ${COMP_WORDS[i]} "*) verb="${COMP_WORDS[i]}"; break ;; esac
    done
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "-pboard --type --expires --local-only --change-count --root --help -h --version${verb:+ }${verb:-}" -- "$cur"))
        [[ -n "$verb" ]] && COMPREPLY=($(compgen -W "-pboard --type --expires --local-only --change-count --root --help -h --version" -- "$cur"))
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

complete -o filenames -F _pbcopy pbcopy
