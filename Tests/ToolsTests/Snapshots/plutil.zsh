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
    local state
    _arguments -s \
    '-unarchive[read files as NSKeyedArchiver archives\: the commands see $top with references resolved and each $class as its name; alone, it prints that as XML]' \
    '-s[be silent on success]' \
    '-o[write the result to PATH ('\''-'\'' is standard output)]:file:_files' \
    '-e[use this extension for converted files]:EXTENSION: ' \
    '-r[with json, write indented]' \
    '-append[add the value to the end of the array at KEYPATH]' \
    '-expect[fail unless the value is of TYPE]:TYPE: ' \
    '-n[with raw, do not print a terminating newline]' \
    '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
    '--version[print the version]' \
        '1: :->verb' '*:file:_files'
    [[ $state == verb ]] && _describe -t verbs 'verb' verbs && _files
}

_plutil "$@"
