# bash completion for openin, generated from its declaration (openin --generate-completion bash)
_openin() {
    local cur prev verb i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    verb=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case " default watch " in *" ${COMP_WORDS[i]} "*) verb="${COMP_WORDS[i]}"; break ;; esac
    done
    case "$verb" in
        watch)
            case "$prev" in
                --idle-exit) return ;;
            esac
            ;;
    esac
    case "$prev" in
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --to) COMPREPLY=($(compgen -W "$(_openin_apps)" -- "$cur")); return ;;
        --activity) return ;;
        --exclude) return ;;
        --from) COMPREPLY=($(compgen -W "$(_openin_apps)" -- "$cur")); return ;;
        --annotation) return ;;
        --destination) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    if [[ "$cur" == -* ]]; then
        case "$verb" in
            "") COMPREPLY=($(compgen -W "--root --list -l --dialog --nearby --json --explain --all --to --activity --exclude --from --annotation --destination --no-launch --desktop-apps --no-desktop-apps --gio --help -h --version" -- "$cur")) ;;
            watch) COMPREPLY=($(compgen -W "--root --list -l --dialog --nearby --json --explain --all --to --activity --exclude --from --annotation --destination --no-launch --desktop-apps --no-desktop-apps --gio --idle-exit --help -h --version" -- "$cur")) ;;
            *) COMPREPLY=($(compgen -W "--root --list -l --dialog --nearby --json --explain --all --to --activity --exclude --from --annotation --destination --no-launch --desktop-apps --no-desktop-apps --gio --help -h --version" -- "$cur")) ;;
        esac
        return
    fi
    if [[ -n "$verb" && "$prev" == "$verb" ]]; then
        case "$verb" in
            default) COMPREPLY=($(compgen -W "set get unset list" -- "$cur")); return ;;
        esac
    fi
    if [[ -z "$verb" ]]; then
        COMPREPLY=($(compgen -W "default watch" -- "$cur"))
        COMPREPLY+=($(compgen -f -- "$cur"))
        return
    fi
    case "$verb" in
        watch) COMPREPLY=() ;;
        *) COMPREPLY=($(compgen -f -- "$cur")) ;;
    esac
}
# The bundle identifiers of the apps registered on the device root (--root, else
# $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder's), read with plutil.
_openin_apps() {
    local root="" i app
    for ((i = 1; i < COMP_CWORD; i++)); do [[ "${COMP_WORDS[i]}" == --root ]] && root="${COMP_WORDS[i+1]}"; done
    root="${root:-${DOCUMENT_INTERCHANGE_ROOT:-${XDG_DATA_HOME:-$HOME/.local/share}/document-interchange}}"
    for app in "$root"/Apps/*; do
        [[ -d "$app" ]] && app="$app/Info.plist"
        plutil -extract CFBundleIdentifier raw -o - "$app" 2>/dev/null && echo
    done
}
complete -o filenames -F _openin openin
