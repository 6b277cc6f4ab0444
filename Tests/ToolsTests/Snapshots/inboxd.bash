# bash completion for inboxd, generated from its declaration (inboxd --generate-completion bash)
_inboxd() {
    local cur prev verb i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    verb=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case " run once status history recover " in *" ${COMP_WORDS[i]} "*) verb="${COMP_WORDS[i]}"; break ;; esac
    done
    case "$verb" in
        run)
            case "$prev" in
                --working-folder) COMPREPLY=($(compgen -d -- "$cur")); return ;;
                --allow-sender) return ;;
                --max-size) return ;;
                --log-level) COMPREPLY=($(compgen -W "trace debug info notice warning error" -- "$cur")); return ;;
                --rescan) return ;;
            esac
            ;;
        once)
            case "$prev" in
                --working-folder) COMPREPLY=($(compgen -d -- "$cur")); return ;;
                --allow-sender) return ;;
                --max-size) return ;;
                --log-level) COMPREPLY=($(compgen -W "trace debug info notice warning error" -- "$cur")); return ;;
            esac
            ;;
    esac
    case "$prev" in
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --app) return ;;
    esac
    if [[ "$cur" == -* ]]; then
        case "$verb" in
            "") COMPREPLY=($(compgen -W "--root --app --help -h --version" -- "$cur")) ;;
            run) COMPREPLY=($(compgen -W "--root --app --working-folder --allow-sender --max-size --log-level --rescan --help -h --version" -- "$cur")) ;;
            once) COMPREPLY=($(compgen -W "--root --app --working-folder --allow-sender --max-size --log-level --help -h --version" -- "$cur")) ;;
            status) COMPREPLY=($(compgen -W "--root --app --json --help -h --version" -- "$cur")) ;;
            history) COMPREPLY=($(compgen -W "--root --app --json --help -h --version" -- "$cur")) ;;
            recover) COMPREPLY=($(compgen -W "--root --app --json --help -h --version" -- "$cur")) ;;
            *) COMPREPLY=($(compgen -W "--root --app --help -h --version" -- "$cur")) ;;
        esac
        return
    fi
    if [[ -z "$verb" ]]; then
        COMPREPLY=($(compgen -W "run once status history recover" -- "$cur"))
        return
    fi
    case "$verb" in
        run|once|status|history|recover) COMPREPLY=() ;;
        *) COMPREPLY=($(compgen -f -- "$cur")) ;;
    esac
}
complete -o filenames -F _inboxd inboxd
