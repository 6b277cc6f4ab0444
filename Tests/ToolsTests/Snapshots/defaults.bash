# bash completion for defaults, generated from its declaration (defaults --generate-completion bash)
_defaults() {
    local cur prev verb i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    case "$prev" in
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        -string) return ;;
        -int) return ;;
        -integer) return ;;
        -float) return ;;
        -bool) return ;;
        -boolean) return ;;
        -date) return ;;
        -data) return ;;
    esac
    verb=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case " read read-type write delete rename domains find export import " in *" ${COMP_WORDS[i]} "*) verb="${COMP_WORDS[i]}"; break ;; esac
    done
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "--root -string -int -integer -float -bool -boolean -date -data -array -array-add -dict -dict-add --new-domain --help -h --version${verb:+ }${verb:-}" -- "$cur"))
        [[ -n "$verb" ]] && COMPREPLY=($(compgen -W "--root -string -int -integer -float -bool -boolean -date -data -array -array-add -dict -dict-add --new-domain --help -h --version" -- "$cur"))
        return
    fi
    if [[ -n "$verb" && "$prev" == "$verb" ]]; then
        case "$verb" in
        esac
    fi
    if [[ -z "$verb" && -n "read read-type write delete rename domains find export import" ]]; then
        COMPREPLY=($(compgen -W "read read-type write delete rename domains find export import" -- "$cur"))
        
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}

complete -o filenames -F _defaults defaults
