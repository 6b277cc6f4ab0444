#compdef uti
# zsh completion for uti, generated from its declaration (uti --generate-completion zsh)
_uti() {
    local -a verbs
    verbs=(
        'conforms:exit 0 when A conforms to B, 1 when not, 2 on error; prints true or false'
        'info:identifier, description, declared/dynamic/public, parents, supertypes, tags, source'
        'for-extension:the type for each extension, one per line (a dynamic type when none is declared)'
        'for-mime:the type for each MIME type'
        'for-file:the type of each file as GIO judges it, from the shared MIME database'\''s globs and magic\: by name, by content, or both'
        'tree:the supertypes of ID as a tree'
        'subtypes:every known type that conforms to ID'
        'graph:the conformance graph of the IDs and their supertypes (of every type when none), for Graphviz'
        'lint:check Info.plists (and *.entitlements files) as the toolkit reads them\: FILE\:LINE\:COLUMN\: error|warning\: message \[key path\] (rule); exit 1 on errors'
        'register:register apps on the device root (a link in ROOT/Apps named by CFBundleIdentifier; a property list without one is refused), then rebuild'
        'unregister:remove registrations, then rebuild'
        'rebuild:rebuild the compiled registry and report problems in the sources'
        'dump:every type with its declaration, then the registry'\''s diagnostics'
        'completions:a shell completion script'
    )
    local curcontext="$curcontext" state line
    _arguments -s -C \
    '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); a named root must exist (register --create-root makes one)]:directory:_files -/' \
    '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
    '--version[print the version]' \
        '(-)1: :->verb' '(-)*:: :->args'
    case $state in
        verb) _describe -t verbs 'verb' verbs ;;
        args)
            case ${words[1]} in
                conforms)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); a named root must exist (register --create-root makes one)]:directory:_files -/' \
                        '(-q --quiet)'{-q,--quiet}'[print nothing; answer by exit status (conforms), or no report (register, rebuild)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
                info)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); a named root must exist (register --create-root makes one)]:directory:_files -/' \
                        '--json[JSON output with Apple'\''s names (identifier, conformsTo, tags, preferredFilenameExtension, …)]' \
                        '--extension[the type for this filename extension]:EXT: ' \
                        '--mime[the type for this MIME type]:TYPE: ' \
                        '--file[the type of this file]:file:_files' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
                for-extension)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); a named root must exist (register --create-root makes one)]:directory:_files -/' \
                        '--conforming-to[only types conforming to TYPE (default public.data)]:TYPE: ' \
                        '--all[every type claiming the tag, best first]' \
                        '--json[JSON output with Apple'\''s names (identifier, conformsTo, tags, preferredFilenameExtension, …)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
                for-mime)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); a named root must exist (register --create-root makes one)]:directory:_files -/' \
                        '--conforming-to[only types conforming to TYPE (default public.data)]:TYPE: ' \
                        '--all[every type claiming the tag, best first]' \
                        '--json[JSON output with Apple'\''s names (identifier, conformsTo, tags, preferredFilenameExtension, …)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
                for-file)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); a named root must exist (register --create-root makes one)]:directory:_files -/' \
                        '--explain[the rule that decided]' \
                        '--mime[print the MIME type the chosen type prefers instead of its identifier]' \
                        '--by[judge by name only, by content only, or both (default)]:name|content|both:(name content both)' \
                        '--json[JSON output with Apple'\''s names (identifier, conformsTo, tags, preferredFilenameExtension, …)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
                tree)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); a named root must exist (register --create-root makes one)]:directory:_files -/' \
                        '--json[JSON output with Apple'\''s names (identifier, conformsTo, tags, preferredFilenameExtension, …)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
                subtypes)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); a named root must exist (register --create-root makes one)]:directory:_files -/' \
                        '--json[JSON output with Apple'\''s names (identifier, conformsTo, tags, preferredFilenameExtension, …)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
                graph)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); a named root must exist (register --create-root makes one)]:directory:_files -/' \
                        '--format[dot (default), or svg through Graphviz'\''s dot]:dot|svg:(dot svg)' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
                lint)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); a named root must exist (register --create-root makes one)]:directory:_files -/' \
                        '(-D --define)''*'{-D,--define}'[a build variable'\''s value, substituted for $(NAME) and ${NAME} (repeatable)]:NAME=VALUE: ' \
                        '*--ignore[do not report this rule (repeatable)]:unreadable|malformed|not-a-dictionary|duplicate-key|unknown-key|value-type|tolerated-boolean|unresolved-variable|bundle-identifier|bundle-signature|invalid-identifier|dynamic-identifier|apple-domain|reserved-public-domain|redeclared-system-type|foreign-domain|declared-twice|conforms-to-itself|unknown-parent|conformance-cycle|never-binds|tag|shared-tag|role|rank|missing-rank|ignored-legacy-keys|undeclared-content-type|legacy-tag|url-scheme|contested-scheme|scheme-is-bundle-identifier|queried-schemes|activity-type|contested-activity-type|application-groups|team-identifier:(unreadable malformed not-a-dictionary duplicate-key unknown-key value-type tolerated-boolean unresolved-variable bundle-identifier bundle-signature invalid-identifier dynamic-identifier apple-domain reserved-public-domain redeclared-system-type foreign-domain declared-twice conforms-to-itself unknown-parent conformance-cycle never-binds tag shared-tag role rank missing-rank ignored-legacy-keys undeclared-content-type legacy-tag url-scheme contested-scheme scheme-is-bundle-identifier queried-schemes activity-type contested-activity-type application-groups team-identifier)' \
                        '--json[JSON output with Apple'\''s names (identifier, conformsTo, tags, preferredFilenameExtension, …)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
                register)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); a named root must exist (register --create-root makes one)]:directory:_files -/' \
                        '(-D --define)''*'{-D,--define}'[a build variable'\''s value, substituted for $(NAME) and ${NAME} (repeatable)]:NAME=VALUE: ' \
                        '(-q --quiet)'{-q,--quiet}'[print nothing; answer by exit status (conforms), or no report (register, rebuild)]' \
                        '--create-root[create the named device root (--root or $DOCUMENT_INTERCHANGE_ROOT) when it does not exist; the user'\''s default root is always created]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
                unregister)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); a named root must exist (register --create-root makes one)]:directory:_files -/' \
                        '(-q --quiet)'{-q,--quiet}'[print nothing; answer by exit status (conforms), or no report (register, rebuild)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
                rebuild)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); a named root must exist (register --create-root makes one)]:directory:_files -/' \
                        '(-q --quiet)'{-q,--quiet}'[print nothing; answer by exit status (conforms), or no report (register, rebuild)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' ;;
                dump)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); a named root must exist (register --create-root makes one)]:directory:_files -/' \
                        '--json[JSON output with Apple'\''s names (identifier, conformsTo, tags, preferredFilenameExtension, …)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' ;;
                completions)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); a named root must exist (register --create-root makes one)]:directory:_files -/' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
                *)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); a named root must exist (register --create-root makes one)]:directory:_files -/' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
            esac
            ;;
    esac
}
_uti "$@"
