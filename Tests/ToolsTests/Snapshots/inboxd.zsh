#compdef inboxd
# zsh completion for inboxd, generated from its declaration (inboxd --generate-completion zsh)
_inboxd() {
    local -a verbs
    verbs=(
        'run:watch (inotify) and move as files arrive, until SIGTERM or SIGINT'
        'once:process what is there now, then exit'
        'status:per app\: files waiting, moves stored, quarantined, and moves a crash left unfinished (read-only)'
        'history:the manifest\: every move and refusal, oldest first, with SHA-256 (read-only)'
        'recover:settle moves a crash interrupted (also done at every start)'
    )
    local curcontext="$curcontext" state line
    _arguments -s -C \
    '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
    '--app[only this app (else every app with a container on the root)]:BUNDLE-ID: ' \
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
                        '--app[only this app (else every app with a container on the root)]:BUNDLE-ID: ' \
                        '--working-folder[move into DIR instead of Documents/ (with --app); on another file system files are copied, flushed, then removed from the Inbox]:directory:_files -/' \
                        '*--allow-sender[accept only documents whose open request names this sender\: an exact bundle identifier, or a prefix ending in a dot (com.example.); repeatable]:ID: ' \
                        '--max-size[refuse larger files (default 4 GiB)]:BYTES: ' \
                        '--log-level[logs on stderr, one logfmt line per event (run\: info, else warning)]:trace|debug|info|notice|warning|error:(trace debug info notice warning error)' \
                        '--rescan[a full pass every SECONDS (default 5)]:SECONDS: ' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' ;;
                once)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '--app[only this app (else every app with a container on the root)]:BUNDLE-ID: ' \
                        '--working-folder[move into DIR instead of Documents/ (with --app); on another file system files are copied, flushed, then removed from the Inbox]:directory:_files -/' \
                        '*--allow-sender[accept only documents whose open request names this sender\: an exact bundle identifier, or a prefix ending in a dot (com.example.); repeatable]:ID: ' \
                        '--max-size[refuse larger files (default 4 GiB)]:BYTES: ' \
                        '--log-level[logs on stderr, one logfmt line per event (run\: info, else warning)]:trace|debug|info|notice|warning|error:(trace debug info notice warning error)' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' ;;
                status)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '--app[only this app (else every app with a container on the root)]:BUNDLE-ID: ' \
                        '--json[JSON output]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' ;;
                history)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '--app[only this app (else every app with a container on the root)]:BUNDLE-ID: ' \
                        '--json[JSON output]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' ;;
                recover)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '--app[only this app (else every app with a container on the root)]:BUNDLE-ID: ' \
                        '--json[JSON output]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' ;;
                *)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '--app[only this app (else every app with a container on the root)]:BUNDLE-ID: ' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
            esac
            ;;
    esac
}
_inboxd "$@"
