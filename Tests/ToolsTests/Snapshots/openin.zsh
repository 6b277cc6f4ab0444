#compdef openin
# zsh completion for openin, generated from its declaration (openin --generate-completion zsh)
_openin() {
    local -a verbs
    verbs=(
        'default:the user'\''s default app for a type (and its subtypes)'
        'watch:keep watching this session'\''s desktop applications and associations, so that queries need not look at every .desktop file (runs until stopped; the user unit openin-watch.service runs it)'
    )
    local -a _openin_words
    _openin_words=("${words[@]}")
    local curcontext="$curcontext" state line
    _arguments -s -C \
    '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); it must exist]:directory:_files -/' \
    '(-l --list)'{-l,--list}'[print the sheet instead of showing it]' \
    '--dialog[show the sheet as a desktop dialog (zenity or kdialog); the default when started with no terminal and a display]' \
    '--nearby[offer only the paired nearby devices (a file manager'\''s Send to Nearby Device…; docs/nearby.md)]' \
    '--json[the sheet (or default list) as JSON]' \
    '--explain[why each app is eligible and ranks where it does]' \
    '--all[also the apps that are not eligible, and why]' \
    '--to[deliver to that app without asking]:BUNDLE-ID:_openin_apps' \
    '--activity[perform that activity without asking (copy-to-folder, save-to-sender, print, copy-to-clipboard, or a share extension'\''s identifier)]:TYPE: ' \
    '*--exclude[leave out an app or activity type (repeatable)]:ID: ' \
    '--from[the sender (sourceApplication); default org.document-interchange.openin]:BUNDLE-ID:_openin_apps' \
    '--annotation[a property-list value passed to the app (XML, OpenStep or @FILE)]:PLIST: ' \
    '--destination[the folder for copy-to-folder (~ is expanded; it must exist)]:directory:_files -/' \
    '--no-launch[deliver without starting the app'\''s launch command (DILaunchCommand)]' \
    '--desktop-apps[also offer this machine'\''s Linux desktop applications (.desktop files, mimeapps.list) with --root; they are offered without --root]' \
    '--no-desktop-apps[offer registered apps only]' \
    '--gio[order the desktop applications and choose the default as GIO does (gio mime, gio open)]' \
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
                        '(-l --list)'{-l,--list}'[print the sheet instead of showing it]' \
                        '--dialog[show the sheet as a desktop dialog (zenity or kdialog); the default when started with no terminal and a display]' \
                        '--nearby[offer only the paired nearby devices (a file manager'\''s Send to Nearby Device…; docs/nearby.md)]' \
                        '--json[the sheet (or default list) as JSON]' \
                        '--explain[why each app is eligible and ranks where it does]' \
                        '--all[also the apps that are not eligible, and why]' \
                        '--to[deliver to that app without asking]:BUNDLE-ID:_openin_apps' \
                        '--activity[perform that activity without asking (copy-to-folder, save-to-sender, print, copy-to-clipboard, or a share extension'\''s identifier)]:TYPE: ' \
                        '*--exclude[leave out an app or activity type (repeatable)]:ID: ' \
                        '--from[the sender (sourceApplication); default org.document-interchange.openin]:BUNDLE-ID:_openin_apps' \
                        '--annotation[a property-list value passed to the app (XML, OpenStep or @FILE)]:PLIST: ' \
                        '--destination[the folder for copy-to-folder (~ is expanded; it must exist)]:directory:_files -/' \
                        '--no-launch[deliver without starting the app'\''s launch command (DILaunchCommand)]' \
                        '--desktop-apps[also offer this machine'\''s Linux desktop applications (.desktop files, mimeapps.list) with --root; they are offered without --root]' \
                        '--no-desktop-apps[offer registered apps only]' \
                        '--gio[order the desktop applications and choose the default as GIO does (gio mime, gio open)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '1:subverb:(set get unset list)' '*:file:_files' ;;
                watch)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); it must exist]:directory:_files -/' \
                        '(-l --list)'{-l,--list}'[print the sheet instead of showing it]' \
                        '--dialog[show the sheet as a desktop dialog (zenity or kdialog); the default when started with no terminal and a display]' \
                        '--nearby[offer only the paired nearby devices (a file manager'\''s Send to Nearby Device…; docs/nearby.md)]' \
                        '--json[the sheet (or default list) as JSON]' \
                        '--explain[why each app is eligible and ranks where it does]' \
                        '--all[also the apps that are not eligible, and why]' \
                        '--to[deliver to that app without asking]:BUNDLE-ID:_openin_apps' \
                        '--activity[perform that activity without asking (copy-to-folder, save-to-sender, print, copy-to-clipboard, or a share extension'\''s identifier)]:TYPE: ' \
                        '*--exclude[leave out an app or activity type (repeatable)]:ID: ' \
                        '--from[the sender (sourceApplication); default org.document-interchange.openin]:BUNDLE-ID:_openin_apps' \
                        '--annotation[a property-list value passed to the app (XML, OpenStep or @FILE)]:PLIST: ' \
                        '--destination[the folder for copy-to-folder (~ is expanded; it must exist)]:directory:_files -/' \
                        '--no-launch[deliver without starting the app'\''s launch command (DILaunchCommand)]' \
                        '--desktop-apps[also offer this machine'\''s Linux desktop applications (.desktop files, mimeapps.list) with --root; they are offered without --root]' \
                        '--no-desktop-apps[offer registered apps only]' \
                        '--gio[order the desktop applications and choose the default as GIO does (gio mime, gio open)]' \
                        '--idle-exit[exit when no query has asked for SECONDS]:SECONDS: ' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' ;;
                *)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); it must exist]:directory:_files -/' \
                        '(-l --list)'{-l,--list}'[print the sheet instead of showing it]' \
                        '--dialog[show the sheet as a desktop dialog (zenity or kdialog); the default when started with no terminal and a display]' \
                        '--nearby[offer only the paired nearby devices (a file manager'\''s Send to Nearby Device…; docs/nearby.md)]' \
                        '--json[the sheet (or default list) as JSON]' \
                        '--explain[why each app is eligible and ranks where it does]' \
                        '--all[also the apps that are not eligible, and why]' \
                        '--to[deliver to that app without asking]:BUNDLE-ID:_openin_apps' \
                        '--activity[perform that activity without asking (copy-to-folder, save-to-sender, print, copy-to-clipboard, or a share extension'\''s identifier)]:TYPE: ' \
                        '*--exclude[leave out an app or activity type (repeatable)]:ID: ' \
                        '--from[the sender (sourceApplication); default org.document-interchange.openin]:BUNDLE-ID:_openin_apps' \
                        '--annotation[a property-list value passed to the app (XML, OpenStep or @FILE)]:PLIST: ' \
                        '--destination[the folder for copy-to-folder (~ is expanded; it must exist)]:directory:_files -/' \
                        '--no-launch[deliver without starting the app'\''s launch command (DILaunchCommand)]' \
                        '--desktop-apps[also offer this machine'\''s Linux desktop applications (.desktop files, mimeapps.list) with --root; they are offered without --root]' \
                        '--no-desktop-apps[offer registered apps only]' \
                        '--gio[order the desktop applications and choose the default as GIO does (gio mime, gio open)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
            esac
            ;;
    esac
}
# The bundle identifiers of the apps registered on the device root (--root, else
# $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder's), read with plutil.
_openin_apps() {
    local root="" i app
    i=${_openin_words[(I)--root]}
    (( i > 0 )) && root=${_openin_words[i+1]}
    root="${root:-${DOCUMENT_INTERCHANGE_ROOT:-${XDG_DATA_HOME:-$HOME/.local/share}/document-interchange}}"
    local -a apps
    for app in "$root"/Apps/*(N); do
        [[ -d "$app" ]] && app="$app/Info.plist"
        apps+=("$(plutil -extract CFBundleIdentifier raw -o - "$app" 2>/dev/null)")
    done
    compadd -- ${apps:#}
}
_openin "$@"
