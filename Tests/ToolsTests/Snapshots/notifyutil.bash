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
# The bundle identifiers of the apps registered on the device root (--root, else
# $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder's), read with plutil.
_notifyutil_apps() {
    local root="" i app
    for ((i = 1; i < COMP_CWORD; i++)); do [[ "${COMP_WORDS[i]}" == --root ]] && root="${COMP_WORDS[i+1]}"; done
    root="${root:-${DOCUMENT_INTERCHANGE_ROOT:-${XDG_DATA_HOME:-$HOME/.local/share}/document-interchange}}"
    for app in "$root"/Apps/*; do
        [[ -d "$app" ]] && app="$app/Info.plist"
        plutil -extract CFBundleIdentifier raw -o - "$app" 2>/dev/null && echo
    done
}
complete -o filenames -F _notifyutil notifyutil
