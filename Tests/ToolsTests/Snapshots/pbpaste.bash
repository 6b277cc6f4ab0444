# bash completion for pbpaste, generated from its declaration (pbpaste --generate-completion bash)
_pbpaste() {
    local cur prev verb i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    case "$prev" in
        -pboard) return ;;
        -Prefer) COMPREPLY=($(compgen -W "txt rtf ps" -- "$cur")); return ;;
        --type) return ;;
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    verb=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "  " in *" ${COMP_WORDS[i]} "*) verb="${COMP_WORDS[i]}"; break ;; esac
    done
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "-pboard -Prefer --type --types --change-count --root --help -h --version${verb:+ }${verb:-}" -- "$cur"))
        [[ -n "$verb" ]] && COMPREPLY=($(compgen -W "-pboard -Prefer --type --types --change-count --root --help -h --version" -- "$cur"))
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
# The bundle identifiers of the apps registered on the device root (--root, else
# $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder's), read with plutil.
_pbpaste_apps() {
    local root="" i app
    for ((i = 1; i < COMP_CWORD; i++)); do [[ "${COMP_WORDS[i]}" == --root ]] && root="${COMP_WORDS[i+1]}"; done
    root="${root:-${DOCUMENT_INTERCHANGE_ROOT:-${XDG_DATA_HOME:-$HOME/.local/share}/document-interchange}}"
    for app in "$root"/Apps/*; do
        [[ -d "$app" ]] && app="$app/Info.plist"
        plutil -extract CFBundleIdentifier raw -o - "$app" 2>/dev/null && echo
    done
}
complete -o filenames -F _pbpaste pbpaste
