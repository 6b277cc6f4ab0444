# bash completion for pasteboardd, generated from its declaration (pasteboardd --generate-completion bash)
_pasteboardd() {
    local cur prev verb i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    verb=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case " run " in *" ${COMP_WORDS[i]} "*) verb="${COMP_WORDS[i]}"; break ;; esac
    done
    case "$verb" in
        run)
            case "$prev" in
                --backend) COMPREPLY=($(compgen -W "auto x11 wayland" -- "$cur")); return ;;
                --display) return ;;
                --timeout) return ;;
                --log-level) COMPREPLY=($(compgen -W "trace debug info notice warning error" -- "$cur")); return ;;
            esac
            ;;
    esac
    case "$prev" in
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    if [[ "$cur" == -* ]]; then
        case "$verb" in
            "") COMPREPLY=($(compgen -W "--root --help -h --version" -- "$cur")) ;;
            run) COMPREPLY=($(compgen -W "--root --backend --display --timeout --log-level --help -h --version" -- "$cur")) ;;
            *) COMPREPLY=($(compgen -W "--root --help -h --version" -- "$cur")) ;;
        esac
        return
    fi
    if [[ -z "$verb" ]]; then
        COMPREPLY=($(compgen -W "run" -- "$cur"))
        return
    fi
    case "$verb" in
        run) COMPREPLY=() ;;
        *) COMPREPLY=($(compgen -f -- "$cur")) ;;
    esac
}
complete -o filenames -F _pasteboardd pasteboardd
