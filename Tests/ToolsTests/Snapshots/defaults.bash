# bash completion for defaults, generated from its declaration (defaults --generate-completion bash)
_defaults() {
    local cur prev verb i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    verb=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case " read read-type write delete rename domains find export import " in *" ${COMP_WORDS[i]} "*) verb="${COMP_WORDS[i]}"; break ;; esac
    done
    case "$verb" in
        write)
            case "$prev" in
                -string) return ;;
                -int) return ;;
                -integer) return ;;
                -float) return ;;
                -bool) return ;;
                -boolean) return ;;
                -date) return ;;
                -data) return ;;
            esac
            ;;
    esac
    case "$prev" in
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    if [[ "$cur" == -* ]]; then
        case "$verb" in
            "") COMPREPLY=($(compgen -W "--root --help -h --version" -- "$cur")) ;;
            write) COMPREPLY=($(compgen -W "--root -string -int -integer -float -bool -boolean -date -data -array -array-add -dict -dict-add --new-domain --help -h --version" -- "$cur")) ;;
            import) COMPREPLY=($(compgen -W "--root --new-domain --help -h --version" -- "$cur")) ;;
            *) COMPREPLY=($(compgen -W "--root --help -h --version" -- "$cur")) ;;
        esac
        return
    fi
    if [[ -z "$verb" ]]; then
        COMPREPLY=($(compgen -W "read read-type write delete rename domains find export import" -- "$cur"))
        return
    fi
    case "$verb" in
        domains) COMPREPLY=() ;;
        *) COMPREPLY=($(compgen -f -- "$cur")) ;;
    esac
}
complete -o filenames -F _defaults defaults
