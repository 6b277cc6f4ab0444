#compdef plutil
# zsh completion for plutil, generated from its declaration (plutil --generate-completion zsh)
_plutil() {
    local -a verbs
    verbs=(
        '-lint:check the property list files for syntax errors (the default)'
        '-p:print a property list in a human-readable form (not stable)'
        '-convert:rewrite property list files in FORMAT\: xml1, binary1 or json'
        '-insert:insert a value at KEYPATH'
        '-replace:set the value at KEYPATH, adding it if absent'
        '-remove:remove the value at KEYPATH'
        '-extract:write the value at KEYPATH as a plist of FORMAT (xml1, binary1, json or raw)'
        '-type:print the type of the value at KEYPATH'
        '-create:create an empty property list of FORMAT'
        '-help:show this message and exit'
    )
    local curcontext="$curcontext" state line
    _arguments -s -C \
    '-unarchive[read files as NSKeyedArchiver archives\: the commands see $top with references resolved and each $class as its name; alone, it prints that as XML]' \
    '-s[be silent on success]' \
    '-o[write the result to PATH ('\''-'\'' is standard output)]:file:_files' \
    '-e[use this extension for converted files]:EXTENSION: ' \
    '-r[with json, write indented]' \
    '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
    '--version[print the version]' \
        '(-)1: :->verb' '(-)*:: :->args'
    case $state in
        verb) _describe -t verbs 'verb' verbs && _files ;;
        args)
            case ${words[1]} in
                -lint)
                    _arguments -s \
                        '-unarchive[read files as NSKeyedArchiver archives\: the commands see $top with references resolved and each $class as its name; alone, it prints that as XML]' \
                        '-s[be silent on success]' \
                        '-o[write the result to PATH ('\''-'\'' is standard output)]:file:_files' \
                        '-e[use this extension for converted files]:EXTENSION: ' \
                        '-r[with json, write indented]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
                -p)
                    _arguments -s \
                        '-unarchive[read files as NSKeyedArchiver archives\: the commands see $top with references resolved and each $class as its name; alone, it prints that as XML]' \
                        '-s[be silent on success]' \
                        '-o[write the result to PATH ('\''-'\'' is standard output)]:file:_files' \
                        '-e[use this extension for converted files]:EXTENSION: ' \
                        '-r[with json, write indented]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
                -convert)
                    _arguments -s \
                        '-unarchive[read files as NSKeyedArchiver archives\: the commands see $top with references resolved and each $class as its name; alone, it prints that as XML]' \
                        '-s[be silent on success]' \
                        '-o[write the result to PATH ('\''-'\'' is standard output)]:file:_files' \
                        '-e[use this extension for converted files]:EXTENSION: ' \
                        '-r[with json, write indented]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '1:FORMAT:(xml1 binary1 json)' '*:file:_files' ;;
                -insert)
                    _arguments -s \
                        '-unarchive[read files as NSKeyedArchiver archives\: the commands see $top with references resolved and each $class as its name; alone, it prints that as XML]' \
                        '-s[be silent on success]' \
                        '-o[write the result to PATH ('\''-'\'' is standard output)]:file:_files' \
                        '-e[use this extension for converted files]:EXTENSION: ' \
                        '-r[with json, write indented]' \
                        '-append[add the value to the end of the array at KEYPATH]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '1:KEYPATH: ' '*:file:_files' ;;
                -replace)
                    _arguments -s \
                        '-unarchive[read files as NSKeyedArchiver archives\: the commands see $top with references resolved and each $class as its name; alone, it prints that as XML]' \
                        '-s[be silent on success]' \
                        '-o[write the result to PATH ('\''-'\'' is standard output)]:file:_files' \
                        '-e[use this extension for converted files]:EXTENSION: ' \
                        '-r[with json, write indented]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '1:KEYPATH: ' '*:file:_files' ;;
                -remove)
                    _arguments -s \
                        '-unarchive[read files as NSKeyedArchiver archives\: the commands see $top with references resolved and each $class as its name; alone, it prints that as XML]' \
                        '-s[be silent on success]' \
                        '-o[write the result to PATH ('\''-'\'' is standard output)]:file:_files' \
                        '-e[use this extension for converted files]:EXTENSION: ' \
                        '-r[with json, write indented]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '1:KEYPATH: ' '*:file:_files' ;;
                -extract)
                    _arguments -s \
                        '-unarchive[read files as NSKeyedArchiver archives\: the commands see $top with references resolved and each $class as its name; alone, it prints that as XML]' \
                        '-s[be silent on success]' \
                        '-o[write the result to PATH ('\''-'\'' is standard output)]:file:_files' \
                        '-e[use this extension for converted files]:EXTENSION: ' \
                        '-r[with json, write indented]' \
                        '-expect[fail unless the value is of TYPE]:TYPE: ' \
                        '-n[with raw, do not print a terminating newline]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '1:KEYPATH: ' '2:FORMAT:(xml1 binary1 json raw)' '*:file:_files' ;;
                -type)
                    _arguments -s \
                        '-unarchive[read files as NSKeyedArchiver archives\: the commands see $top with references resolved and each $class as its name; alone, it prints that as XML]' \
                        '-s[be silent on success]' \
                        '-o[write the result to PATH ('\''-'\'' is standard output)]:file:_files' \
                        '-e[use this extension for converted files]:EXTENSION: ' \
                        '-r[with json, write indented]' \
                        '-expect[fail unless the value is of TYPE]:TYPE: ' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '1:KEYPATH: ' '*:file:_files' ;;
                -create)
                    _arguments -s \
                        '-unarchive[read files as NSKeyedArchiver archives\: the commands see $top with references resolved and each $class as its name; alone, it prints that as XML]' \
                        '-s[be silent on success]' \
                        '-o[write the result to PATH ('\''-'\'' is standard output)]:file:_files' \
                        '-e[use this extension for converted files]:EXTENSION: ' \
                        '-r[with json, write indented]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '1:FORMAT:(xml1 binary1 json)' '*:file:_files' ;;
                -help)
                    _arguments -s \
                        '-unarchive[read files as NSKeyedArchiver archives\: the commands see $top with references resolved and each $class as its name; alone, it prints that as XML]' \
                        '-s[be silent on success]' \
                        '-o[write the result to PATH ('\''-'\'' is standard output)]:file:_files' \
                        '-e[use this extension for converted files]:EXTENSION: ' \
                        '-r[with json, write indented]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' ;;
                *)
                    _arguments -s \
                        '-unarchive[read files as NSKeyedArchiver archives\: the commands see $top with references resolved and each $class as its name; alone, it prints that as XML]' \
                        '-s[be silent on success]' \
                        '-o[write the result to PATH ('\''-'\'' is standard output)]:file:_files' \
                        '-e[use this extension for converted files]:EXTENSION: ' \
                        '-r[with json, write indented]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
            esac
            ;;
    esac
}
_plutil "$@"
