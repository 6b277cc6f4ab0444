# bash completion for uti, generated from its declaration (uti --generate-completion bash)
_uti() {
    local cur prev verb i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    verb=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case " conforms info for-extension for-mime for-file tree subtypes graph lint register unregister rebuild dump completions " in *" ${COMP_WORDS[i]} "*) verb="${COMP_WORDS[i]}"; break ;; esac
    done
    case "$verb" in
        info)
            case "$prev" in
                --extension) return ;;
                --mime) return ;;
                --file) COMPREPLY=($(compgen -f -- "$cur")); return ;;
            esac
            ;;
        for-extension)
            case "$prev" in
                --conforming-to) return ;;
            esac
            ;;
        for-mime)
            case "$prev" in
                --conforming-to) return ;;
            esac
            ;;
        for-file)
            case "$prev" in
                --by) COMPREPLY=($(compgen -W "name content both" -- "$cur")); return ;;
            esac
            ;;
        graph)
            case "$prev" in
                --format) COMPREPLY=($(compgen -W "dot svg" -- "$cur")); return ;;
            esac
            ;;
        lint)
            case "$prev" in
                --define|-D) return ;;
                --ignore) COMPREPLY=($(compgen -W "unreadable malformed not-a-dictionary duplicate-key unknown-key value-type tolerated-boolean unresolved-variable bundle-identifier bundle-signature invalid-identifier dynamic-identifier apple-domain reserved-public-domain redeclared-system-type foreign-domain declared-twice conforms-to-itself unknown-parent conformance-cycle never-binds tag shared-tag role rank missing-rank ignored-legacy-keys undeclared-content-type legacy-tag url-scheme contested-scheme scheme-is-bundle-identifier queried-schemes activity-type contested-activity-type application-groups team-identifier" -- "$cur")); return ;;
            esac
            ;;
        register)
            case "$prev" in
                --define|-D) return ;;
            esac
            ;;
    esac
    case "$prev" in
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    if [[ "$cur" == -* ]]; then
        case "$verb" in
            "") COMPREPLY=($(compgen -W "--root --help -h --version" -- "$cur")) ;;
            conforms) COMPREPLY=($(compgen -W "--root --quiet -q --help -h --version" -- "$cur")) ;;
            info) COMPREPLY=($(compgen -W "--root --json --extension --mime --file --help -h --version" -- "$cur")) ;;
            for-extension) COMPREPLY=($(compgen -W "--root --conforming-to --all --json --help -h --version" -- "$cur")) ;;
            for-mime) COMPREPLY=($(compgen -W "--root --conforming-to --all --json --help -h --version" -- "$cur")) ;;
            for-file) COMPREPLY=($(compgen -W "--root --explain --mime --by --json --help -h --version" -- "$cur")) ;;
            tree) COMPREPLY=($(compgen -W "--root --json --help -h --version" -- "$cur")) ;;
            subtypes) COMPREPLY=($(compgen -W "--root --json --help -h --version" -- "$cur")) ;;
            graph) COMPREPLY=($(compgen -W "--root --format --help -h --version" -- "$cur")) ;;
            lint) COMPREPLY=($(compgen -W "--root --define -D --ignore --json --help -h --version" -- "$cur")) ;;
            register) COMPREPLY=($(compgen -W "--root --define -D --quiet -q --create-root --help -h --version" -- "$cur")) ;;
            unregister) COMPREPLY=($(compgen -W "--root --quiet -q --help -h --version" -- "$cur")) ;;
            rebuild) COMPREPLY=($(compgen -W "--root --quiet -q --help -h --version" -- "$cur")) ;;
            dump) COMPREPLY=($(compgen -W "--root --json --help -h --version" -- "$cur")) ;;
            *) COMPREPLY=($(compgen -W "--root --help -h --version" -- "$cur")) ;;
        esac
        return
    fi
    if [[ -z "$verb" ]]; then
        COMPREPLY=($(compgen -W "conforms info for-extension for-mime for-file tree subtypes graph lint register unregister rebuild dump completions" -- "$cur"))
        return
    fi
    case "$verb" in
        rebuild|dump) COMPREPLY=() ;;
        *) COMPREPLY=($(compgen -f -- "$cur")) ;;
    esac
}
complete -o filenames -F _uti uti
