#compdef defaults
# zsh completion for defaults, generated from its declaration (defaults --generate-completion zsh)
_defaults() {
    local -a verbs
    verbs=(
        'read:print every domain, a domain, or one key'
        'read-type:print the type of a key'\''s value\: Type is string|integer|float|boolean|date|data|array|dictionary'
        'write:write a key (typed with -string, -int, -float, -bool, -date, -data, -array, -array-add, -dict, -dict-add), or replace the domain with a plist'
        'delete:remove a key, or the whole domain'
        'rename:rename a key, keeping its value'
        'domains:list the domains that hold defaults, comma-separated'
        'find:print every key whose name or value contains WORD (any case), by domain'
        'export:write the domain as an XML property list to PATH ('\''-'\''\: standard output)'
        'import:replace the domain with the dictionary of the property list at PATH ('\''-'\''\: standard input)'
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
                read)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
                read-type)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
                write)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '*-string[a string]:STRING: ' \
                        '*-int[an integer (also -integer)]:N: ' \
                        '*-integer[an integer]:N: ' \
                        '*-float[a real number]:N: ' \
                        '*-bool[a boolean\: YES, NO, true, false, 1 or 0 (also -boolean)]:YES|NO: ' \
                        '*-boolean[a boolean]:YES|NO: ' \
                        '*-date[a date\: 2026-11-24T03\:00\:00Z or '\''2026-11-24 03\:00\:00 +0000'\'']:DATE: ' \
                        '*-data[bytes, in hexadecimal]:HEX: ' \
                        '-array[the value is an array of the words that follow (strings, or typed\: -int 3)]' \
                        '-array-add[append the words that follow to the array at KEY]' \
                        '-dict[the value is a dictionary of the KEY VALUE pairs that follow]' \
                        '-dict-add[add the KEY VALUE pairs that follow to the dictionary at KEY]' \
                        '--new-domain[create the domain when it is neither a registered app, an App Group one of them is in, nor a domain that holds defaults (a typo creates nothing)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
                delete)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
                rename)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
                domains)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' ;;
                find)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
                export)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
                import)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '--new-domain[create the domain when it is neither a registered app, an App Group one of them is in, nor a domain that holds defaults (a typo creates nothing)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
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
_defaults "$@"
