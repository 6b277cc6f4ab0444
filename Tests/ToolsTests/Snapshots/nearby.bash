# bash completion for nearby, generated from its declaration (nearby --generate-completion bash)
_nearby() {
    local cur prev verb i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    case "$prev" in
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --timeout) return ;;
        --interface) return ;;
        --to) return ;;
        --app) COMPREPLY=($(compgen -W "$(_nearby_apps)" -- "$cur")); return ;;
        --from) COMPREPLY=($(compgen -W "$(_nearby_apps)" -- "$cur")); return ;;
        --fingerprint) return ;;
        --localsend-pin) return ;;
        --airdrop) return ;;
        --name) return ;;
        --mode) COMPREPLY=($(compgen -W "off paired everyone" -- "$cur")); return ;;
        --minutes) return ;;
        --listen) return ;;
        --port) return ;;
        --downloads) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --localsend-port) return ;;
        --airdrop-port) return ;;
        --code) return ;;
        --type) return ;;
        --process) return ;;
        --made-current) return ;;
    esac
    verb=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case " identity list status send receive pair activities continue streams unpair " in *" ${COMP_WORDS[i]} "*) verb="${COMP_WORDS[i]}"; break ;; esac
    done
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "--root --json --rotate --timeout --interface --no-discovery --to --app --from --fingerprint --localsend --localsend-pin --new-certificate --airdrop --name --mode --minutes --auto-accept --listen --port --downloads --no-launch --localsend-port --airdrop-port --wait --show-code --code --watch --type --process --made-current --help -h --version${verb:+ }${verb:-}" -- "$cur"))
        [[ -n "$verb" ]] && COMPREPLY=($(compgen -W "--root --json --rotate --timeout --interface --no-discovery --to --app --from --fingerprint --localsend --localsend-pin --new-certificate --airdrop --name --mode --minutes --auto-accept --listen --port --downloads --no-launch --localsend-port --airdrop-port --wait --show-code --code --watch --type --process --made-current --help -h --version" -- "$cur"))
        return
    fi
    if [[ -n "$verb" && "$prev" == "$verb" ]]; then
        case "$verb" in
        esac
    fi
    if [[ -z "$verb" && -n "identity list status send receive pair activities continue streams unpair" ]]; then
        COMPREPLY=($(compgen -W "identity list status send receive pair activities continue streams unpair" -- "$cur"))
        
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}
# The bundle identifiers of the apps registered on the device root (--root, else
# $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder's), read with plutil.
_nearby_apps() {
    local root="" i app
    for ((i = 1; i < COMP_CWORD; i++)); do [[ "${COMP_WORDS[i]}" == --root ]] && root="${COMP_WORDS[i+1]}"; done
    root="${root:-${DOCUMENT_INTERCHANGE_ROOT:-${XDG_DATA_HOME:-$HOME/.local/share}/document-interchange}}"
    for app in "$root"/Apps/*; do
        [[ -d "$app" ]] && app="$app/Info.plist"
        plutil -extract CFBundleIdentifier raw -o - "$app" 2>/dev/null && echo
    done
}
complete -o filenames -F _nearby nearby
