# bash completion for pasteboardd, generated from its declaration (pasteboardd --generate-completion bash)
_pasteboardd() {
    local cur prev verb i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    case "$prev" in
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --backend) COMPREPLY=($(compgen -W "auto x11 wayland" -- "$cur")); return ;;
        --display) return ;;
        --timeout) return ;;
        --log-level) COMPREPLY=($(compgen -W "trace debug info notice warning error" -- "$cur")); return ;;
    esac
    verb=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case " run " in *" ${COMP_WORDS[i]} "*) verb="${COMP_WORDS[i]}"; break ;; esac
    done
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "--root --backend --display --timeout --log-level --help -h --version${verb:+ }${verb:-}" -- "$cur"))
        [[ -n "$verb" ]] && COMPREPLY=($(compgen -W "--root --backend --display --timeout --log-level --help -h --version" -- "$cur"))
        return
    fi
    if [[ -n "$verb" && "$prev" == "$verb" ]]; then
        case "$verb" in
        esac
    fi
    if [[ -z "$verb" && -n "run" ]]; then
        COMPREPLY=($(compgen -W "run" -- "$cur"))
        
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}

complete -o filenames -F _pasteboardd pasteboardd
