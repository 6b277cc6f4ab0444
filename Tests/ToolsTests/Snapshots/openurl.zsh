#compdef openurl
# zsh completion for openurl, generated from its declaration (openurl --generate-completion zsh)
_openurl() {
    local -a verbs
    verbs=(
        'default:the user'\''s default app for a URL scheme (first in the order)'
        'desktop:export the root'\''s apps as x-scheme-handler desktop entries running openurl (sync), or remove them'
    )
    local -a _openurl_words
    _openurl_words=("${words[@]}")
    local curcontext="$curcontext" state line
    _arguments -s -C \
    '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); it must exist]:directory:_files -/' \
    '--from[the sender (sourceApplication), as it states itself; default org.document-interchange.openurl]:BUNDLE-ID:_openurl_apps' \
    '--annotation[a property-list value passed to the app (XML, OpenStep, JSON or @FILE)]:PLIST: ' \
    '--to[open with this app, which must handle the scheme]:BUNDLE-ID:_openurl_apps' \
    '--can[answer canOpenURL for --from instead of opening\: exit 0 yes, 1 no]' \
    '(-l --list)'{-l,--list}'[list every app claiming the URL'\''s scheme, in order, instead of opening]' \
    '--explain[with --can\: the reason; with --list\: why each app is where it is]' \
    '--json[--list and default list as JSON]' \
    '--no-launch[write the open request without starting the app'\''s launch command]' \
    '--no-desktop[do not hand schemes no registered app handles to the desktop (exit 1 instead)]' \
    '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
    '--version[print the version]' \
        '(-)1: :->verb' '(-)*:: :->args'
    case $state in
        verb) _describe -t verbs 'verb' verbs && _files ;;
        args)
            case ${words[1]} in
                default)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); it must exist]:directory:_files -/' \
                        '--from[the sender (sourceApplication), as it states itself; default org.document-interchange.openurl]:BUNDLE-ID:_openurl_apps' \
                        '--annotation[a property-list value passed to the app (XML, OpenStep, JSON or @FILE)]:PLIST: ' \
                        '--to[open with this app, which must handle the scheme]:BUNDLE-ID:_openurl_apps' \
                        '--can[answer canOpenURL for --from instead of opening\: exit 0 yes, 1 no]' \
                        '(-l --list)'{-l,--list}'[list every app claiming the URL'\''s scheme, in order, instead of opening]' \
                        '--explain[with --can\: the reason; with --list\: why each app is where it is]' \
                        '--json[--list and default list as JSON]' \
                        '--no-launch[write the open request without starting the app'\''s launch command]' \
                        '--no-desktop[do not hand schemes no registered app handles to the desktop (exit 1 instead)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '1:subverb:(set get unset list)' '*:file:_files' ;;
                desktop)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); it must exist]:directory:_files -/' \
                        '--from[the sender (sourceApplication), as it states itself; default org.document-interchange.openurl]:BUNDLE-ID:_openurl_apps' \
                        '--annotation[a property-list value passed to the app (XML, OpenStep, JSON or @FILE)]:PLIST: ' \
                        '--to[open with this app, which must handle the scheme]:BUNDLE-ID:_openurl_apps' \
                        '--can[answer canOpenURL for --from instead of opening\: exit 0 yes, 1 no]' \
                        '(-l --list)'{-l,--list}'[list every app claiming the URL'\''s scheme, in order, instead of opening]' \
                        '--explain[with --can\: the reason; with --list\: why each app is where it is]' \
                        '--json[--list and default list as JSON]' \
                        '--no-launch[write the open request without starting the app'\''s launch command]' \
                        '--no-desktop[do not hand schemes no registered app handles to the desktop (exit 1 instead)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '1:subverb:(sync remove)' '*:file:_files' ;;
                *)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); it must exist]:directory:_files -/' \
                        '--from[the sender (sourceApplication), as it states itself; default org.document-interchange.openurl]:BUNDLE-ID:_openurl_apps' \
                        '--annotation[a property-list value passed to the app (XML, OpenStep, JSON or @FILE)]:PLIST: ' \
                        '--to[open with this app, which must handle the scheme]:BUNDLE-ID:_openurl_apps' \
                        '--can[answer canOpenURL for --from instead of opening\: exit 0 yes, 1 no]' \
                        '(-l --list)'{-l,--list}'[list every app claiming the URL'\''s scheme, in order, instead of opening]' \
                        '--explain[with --can\: the reason; with --list\: why each app is where it is]' \
                        '--json[--list and default list as JSON]' \
                        '--no-launch[write the open request without starting the app'\''s launch command]' \
                        '--no-desktop[do not hand schemes no registered app handles to the desktop (exit 1 instead)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
            esac
            ;;
    esac
}
# The bundle identifiers of the apps registered on the device root (--root, else
# $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder's), read with plutil.
_openurl_apps() {
    local root="" i app
    i=${_openurl_words[(I)--root]}
    (( i > 0 )) && root=${_openurl_words[i+1]}
    root="${root:-${DOCUMENT_INTERCHANGE_ROOT:-${XDG_DATA_HOME:-$HOME/.local/share}/document-interchange}}"
    local -a apps
    for app in "$root"/Apps/*(N); do
        [[ -d "$app" ]] && app="$app/Info.plist"
        apps+=("$(plutil -extract CFBundleIdentifier raw -o - "$app" 2>/dev/null)")
    done
    compadd -- ${apps:#}
}
_openurl "$@"
