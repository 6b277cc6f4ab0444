# bash completion for notifyutil, generated from its declaration (notifyutil --generate-completion bash)
_notifyutil() {
    local cur prev verb i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    case "$prev" in
        -z) return ;;
        -signal) return ;;
        -p) return ;;
        -w) return ;;
        -#) return ;;
        -g) return ;;
        -s) return ;;
    esac
    verb=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "  " in *" ${COMP_WORDS[i]} "*) verb="${COMP_WORDS[i]}"; break ;; esac
    done
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "-q -v -z -M -R -port -file -check -plain -signal -dispatch -p -w -# -g -s --help -h --version${verb:+ }${verb:-}" -- "$cur"))
        [[ -n "$verb" ]] && COMPREPLY=($(compgen -W "-q -v -z -M -R -port -file -check -plain -signal -dispatch -p -w -# -g -s --help -h --version" -- "$cur"))
        return
    fi
    if [[ -n "$verb" && "$prev" == "$verb" ]]; then
        case "$verb" in
        esac
    fi
    if [[ -z "$verb" && -n "" ]]; then
        COMPREPLY=($(compgen -W "" -- "$cur"))
        
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}

complete -o filenames -F _notifyutil notifyutil
