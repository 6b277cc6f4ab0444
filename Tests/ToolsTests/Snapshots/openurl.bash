# bash completion for openurl, generated from its declaration (openurl --generate-completion bash)
_openurl() {
    local cur prev verb i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    verb=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case " default desktop " in *" ${COMP_WORDS[i]} "*) verb="${COMP_WORDS[i]}"; break ;; esac
    done
    case "$prev" in
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --from) COMPREPLY=($(compgen -W "$(_openurl_apps)" -- "$cur")); return ;;
        --annotation) return ;;
        --to) COMPREPLY=($(compgen -W "$(_openurl_apps)" -- "$cur")); return ;;
    esac
    if [[ "$cur" == -* ]]; then
        case "$verb" in
            "") COMPREPLY=($(compgen -W "--root --from --annotation --to --can --list -l --explain --json --no-launch --no-desktop --help -h --version" -- "$cur")) ;;
            *) COMPREPLY=($(compgen -W "--root --from --annotation --to --can --list -l --explain --json --no-launch --no-desktop --help -h --version" -- "$cur")) ;;
        esac
        return
    fi
    if [[ -n "$verb" && "$prev" == "$verb" ]]; then
        case "$verb" in
            default) COMPREPLY=($(compgen -W "set get unset list" -- "$cur")); return ;;
            desktop) COMPREPLY=($(compgen -W "sync remove" -- "$cur")); return ;;
        esac
    fi
    if [[ -z "$verb" ]]; then
        COMPREPLY=($(compgen -W "default desktop" -- "$cur"))
        COMPREPLY+=($(compgen -f -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}
# The bundle identifiers of the apps registered on the device root (--root, else
# $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder's), read with plutil.
_openurl_apps() {
    local root="" i app
    for ((i = 1; i < COMP_CWORD; i++)); do [[ "${COMP_WORDS[i]}" == --root ]] && root="${COMP_WORDS[i+1]}"; done
    root="${root:-${DOCUMENT_INTERCHANGE_ROOT:-${XDG_DATA_HOME:-$HOME/.local/share}/document-interchange}}"
    for app in "$root"/Apps/*; do
        [[ -d "$app" ]] && app="$app/Info.plist"
        plutil -extract CFBundleIdentifier raw -o - "$app" 2>/dev/null && echo
    done
}
complete -o filenames -F _openurl openurl
