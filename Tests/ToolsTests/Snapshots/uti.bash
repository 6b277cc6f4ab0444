# bash completion for uti, generated from its declaration (uti --generate-completion bash)
_uti() {
    local cur prev verb i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    case "$prev" in
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --extension) return ;;
        --mime) return ;;
        --file) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --conforming-to) return ;;
        --by) COMPREPLY=($(compgen -W "name content both" -- "$cur")); return ;;
        --format) COMPREPLY=($(compgen -W "dot svg" -- "$cur")); return ;;
        --define|-D) return ;;
        --ignore) COMPREPLY=($(compgen -W "unreadable malformed not-a-dictionary duplicate-key unknown-key value-type tolerated-boolean unresolved-variable bundle-identifier bundle-signature invalid-identifier dynamic-identifier apple-domain reserved-public-domain redeclared-system-type foreign-domain declared-twice conforms-to-itself unknown-parent conformance-cycle never-binds tag shared-tag role rank missing-rank ignored-legacy-keys undeclared-content-type legacy-tag url-scheme contested-scheme scheme-is-bundle-identifier queried-schemes activity-type contested-activity-type application-groups team-identifier" -- "$cur")); return ;;
    esac
    verb=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case " conforms info for-extension for-mime for-file tree subtypes graph lint register unregister rebuild dump completions " in *" ${COMP_WORDS[i]} "*) verb="${COMP_WORDS[i]}"; break ;; esac
    done
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "--root --quiet -q --json --extension --mime --file --conforming-to --all --explain --by --format --define -D --ignore --create-root --help -h --version${verb:+ }${verb:-}" -- "$cur"))
        [[ -n "$verb" ]] && COMPREPLY=($(compgen -W "--root --quiet -q --json --extension --mime --file --conforming-to --all --explain --by --format --define -D --ignore --create-root --help -h --version" -- "$cur"))
        return
    fi
    if [[ -n "$verb" && "$prev" == "$verb" ]]; then
        case "$verb" in
        esac
    fi
    if [[ -z "$verb" && -n "conforms info for-extension for-mime for-file tree subtypes graph lint register unregister rebuild dump completions" ]]; then
        COMPREPLY=($(compgen -W "conforms info for-extension for-mime for-file tree subtypes graph lint register unregister rebuild dump completions" -- "$cur"))
        
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}

complete -o filenames -F _uti uti
