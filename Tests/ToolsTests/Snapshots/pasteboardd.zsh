#compdef pasteboardd
# zsh completion for pasteboardd, generated from its declaration (pasteboardd --generate-completion zsh)
_pasteboardd() {
    local -a verbs
    verbs=(
        'run:bridge until SIGTERM or SIGINT (or until the display goes away)'
    )
    local curcontext="$curcontext" state line
    _arguments -s -C \
    '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
    '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
    '--version[print the version]' \
        '(-)1: :->verb' '(-)*:: :->args'
    case $state in
        verb) _describe -t verbs 'verb' verbs ;;
        args)
            case ${words[1]} in
                run)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '--backend[auto (default)\: Wayland when WAYLAND_DISPLAY is set, else X11]:auto|x11|wayland:(auto x11 wayland)' \
                        '--display[the display (else DISPLAY or WAYLAND_DISPLAY)]:NAME: ' \
                        '--timeout[give up when the display has not answered the connection after SECONDS (default 10)]:SECONDS: ' \
                        '--log-level[logs on stderr, one logfmt line per event (default info)]:trace|debug|info|notice|warning|error:(trace debug info notice warning error)' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' ;;
                *)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
            esac
            ;;
    esac
}
_pasteboardd "$@"
