#compdef pbpaste
# zsh completion for pbpaste, generated from its declaration (pbpaste --generate-completion zsh)
_pbpaste() {
    _arguments -s \
    '-pboard[general (default), find, font, ruler, or the name of a named pasteboard]:NAME: ' \
    '-Prefer[which kind of data to look for first]:txt|rtf|ps:(txt rtf ps)' \
    '--type[write the representation answering this type, as it is]:UTI: ' \
    '--types[list each item'\''s types, one item a line, tab-separated]' \
    '--change-count[print the change count]' \
    '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
    '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
    '--version[print the version]' \
        '*:file:_files'
}
_pbpaste "$@"
