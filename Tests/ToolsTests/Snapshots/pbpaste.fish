# fish completion for pbpaste, generated from its declaration (pbpaste --generate-completion fish)
complete -c pbpaste -o pboard -x -d 'general (default), find, font, ruler, or the name of a named pasteboard'
complete -c pbpaste -o Prefer -x -a 'txt rtf ps' -d 'which kind of data to look for first'
complete -c pbpaste -l type -x -d 'write the representation answering this type, as it is'
complete -c pbpaste -l types -d 'list each item\'s types, one item a line, tab-separated'
complete -c pbpaste -l change-count -d 'print the change count'
complete -c pbpaste -l root -r -x -a '(__fish_complete_directories)' -d 'the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)'
complete -c pbpaste -l help -s h -d 'show this help (also: help [VERB])'
complete -c pbpaste -l version -d 'print the version'
