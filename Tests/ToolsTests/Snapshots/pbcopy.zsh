#compdef pbcopy
# zsh completion for pbcopy, generated from its declaration (pbcopy --generate-completion zsh)
_pbcopy() {
    _arguments -s \
    '-pboard[general (default), find, font, ruler, or the name of a named pasteboard]:NAME: ' \
    '--type[store the input as it is under this type]:UTI: ' \
    '--expires[the pasteboard reads as empty after SECONDS (expirationDate)]:SECONDS: ' \
    '--local-only[keep it off the desktop clipboard (localOnly)]' \
    '--change-count[print the pasteboard'\''s new change count]' \
    '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
    '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
    '--version[print the version]' \
        '*:file:_files'
}
_pbcopy "$@"
