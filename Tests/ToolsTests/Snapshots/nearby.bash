# bash completion for nearby, generated from its declaration (nearby --generate-completion bash)
_nearby() {
    local cur prev verb i
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    verb=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case " identity list status send receive pair activities continue streams unpair " in *" ${COMP_WORDS[i]} "*) verb="${COMP_WORDS[i]}"; break ;; esac
    done
    case "$verb" in
        list)
            case "$prev" in
                --timeout) return ;;
                --interface) return ;;
            esac
            ;;
        send)
            case "$prev" in
                --to) _nearby_values paired-devices; return ;;
                --app) COMPREPLY=($(compgen -W "$(_nearby_apps)" -- "$cur")); return ;;
                --from) COMPREPLY=($(compgen -W "$(_nearby_apps)" -- "$cur")); return ;;
                --fingerprint) return ;;
                --localsend-pin) return ;;
                --airdrop) return ;;
                --name) return ;;
                --interface) return ;;
            esac
            ;;
        receive)
            case "$prev" in
                --mode) COMPREPLY=($(compgen -W "off paired everyone" -- "$cur")); return ;;
                --minutes) return ;;
                --ask-timeout) return ;;
                --asks-per-minute) return ;;
                --listen) return ;;
                --port) return ;;
                --downloads) COMPREPLY=($(compgen -d -- "$cur")); return ;;
                --localsend) COMPREPLY=($(compgen -W "https http off" -- "$cur")); return ;;
                --localsend-port) return ;;
                --localsend-pin) return ;;
                --airdrop) return ;;
                --airdrop-port) return ;;
                --name) return ;;
                --interface) return ;;
            esac
            ;;
        pair)
            case "$prev" in
                --code) return ;;
                --to) return ;;
                --port) return ;;
                --name) return ;;
                --interface) return ;;
            esac
            ;;
        activities)
            case "$prev" in
                --fingerprint) return ;;
                --timeout) return ;;
                --interface) return ;;
            esac
            ;;
        continue)
            case "$prev" in
                --type) return ;;
                --app) return ;;
                --fingerprint) return ;;
                --timeout) return ;;
                --interface) return ;;
            esac
            ;;
        streams)
            case "$prev" in
                --app) return ;;
                --process) return ;;
                --made-current) return ;;
                --fingerprint) return ;;
                --interface) return ;;
            esac
            ;;
    esac
    case "$prev" in
        --root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    if [[ "$cur" == -* ]]; then
        case "$verb" in
            "") COMPREPLY=($(compgen -W "--root --help -h --version" -- "$cur")) ;;
            identity) COMPREPLY=($(compgen -W "--root --json --rotate --help -h --version" -- "$cur")) ;;
            list) COMPREPLY=($(compgen -W "--root --timeout --json --interface --no-discovery --help -h --version" -- "$cur")) ;;
            status) COMPREPLY=($(compgen -W "--root --json --help -h --version" -- "$cur")) ;;
            send) COMPREPLY=($(compgen -W "--root --to --app --from --fingerprint --localsend --localsend-pin --new-certificate --airdrop --name --json --interface --no-discovery --help -h --version" -- "$cur")) ;;
            receive) COMPREPLY=($(compgen -W "--root --mode --minutes --auto-accept --ask-timeout --asks-per-minute --listen --port --downloads --no-launch --localsend --localsend-port --localsend-pin --airdrop --airdrop-port --name --json --interface --no-discovery --help -h --version" -- "$cur")) ;;
            pair) COMPREPLY=($(compgen -W "--root --wait --show-code --code --to --port --name --json --interface --no-discovery --help -h --version" -- "$cur")) ;;
            activities) COMPREPLY=($(compgen -W "--root --watch --fingerprint --timeout --json --interface --no-discovery --help -h --version" -- "$cur")) ;;
            continue) COMPREPLY=($(compgen -W "--root --type --app --no-launch --fingerprint --timeout --json --interface --no-discovery --help -h --version" -- "$cur")) ;;
            streams) COMPREPLY=($(compgen -W "--root --app --process --made-current --fingerprint --interface --no-discovery --help -h --version" -- "$cur")) ;;
            unpair) COMPREPLY=($(compgen -W "--root --json --help -h --version" -- "$cur")) ;;
            *) COMPREPLY=($(compgen -W "--root --help -h --version" -- "$cur")) ;;
        esac
        return
    fi
    if [[ -z "$verb" ]]; then
        COMPREPLY=($(compgen -W "identity list status send receive pair activities continue streams unpair" -- "$cur"))
        return
    fi
    case "$verb" in
        identity|list|status|receive) COMPREPLY=() ;;
        pair|activities|continue|streams|unpair) _nearby_values paired-devices ;;
        *) COMPREPLY=($(compgen -f -- "$cur")) ;;
    esac
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
# The values nearby lists for a source (nearby --complete-values SOURCE [--root ROOT], the
# device root named on the command line), one a line: a value with spaces stays one word.
# The word being completed is compared without its opening quote and backslashes.
_nearby_values() {
    local root="" i value word="${cur#[\"\']}"
    local -a ask=(--complete-values "$1")
    word="${word//\\/}"
    for ((i = 1; i < COMP_CWORD; i++)); do [[ "${COMP_WORDS[i]}" == --root ]] && root="${COMP_WORDS[i+1]}"; done
    [[ "$root" == "~/"* ]] && root="$HOME/${root#"~/"}"
    [[ -n "$root" ]] && ask+=(--root "$root")
    COMPREPLY=()
    while IFS= read -r value; do
        [[ "$value" == "$word"* ]] && COMPREPLY+=("$value")
    done < <(nearby "${ask[@]}" 2>/dev/null)
}
complete -o filenames -F _nearby nearby
