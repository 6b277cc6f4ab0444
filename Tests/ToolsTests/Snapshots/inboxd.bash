# bash completion for inboxd, generated from its declaration (inboxd --generate-completion bash)
_inboxd() {
    local cur prev verb i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    case "$prev" in
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --app) return ;;
        --working-folder) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --allow-sender) return ;;
        --max-size) return ;;
        --log-level) COMPREPLY=($(compgen -W "trace debug info notice warning error" -- "$cur")); return ;;
        --rescan) return ;;
    esac
    verb=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case " run once status history recover " in *" ${COMP_WORDS[i]} "*) verb="${COMP_WORDS[i]}"; break ;; esac
    done
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "--root --app --working-folder --allow-sender --max-size --log-level --rescan --json --help -h --version${verb:+ }${verb:-}" -- "$cur"))
        [[ -n "$verb" ]] && COMPREPLY=($(compgen -W "--root --app --working-folder --allow-sender --max-size --log-level --rescan --json --help -h --version" -- "$cur"))
        return
    fi
    if [[ -n "$verb" && "$prev" == "$verb" ]]; then
        case "$verb" in
        esac
    fi
    if [[ -z "$verb" && -n "run once status history recover" ]]; then
        COMPREPLY=($(compgen -W "run once status history recover" -- "$cur"))
        
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}

complete -o filenames -F _inboxd inboxd
