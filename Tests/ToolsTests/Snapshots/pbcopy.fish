# fish completion for pbcopy, generated from its declaration (pbcopy --generate-completion fish)
complete -c pbcopy -o pboard -x -d 'general (default), find, font, ruler, or the name of a named pasteboard'
complete -c pbcopy -l type -x -d 'store the input as it is under this type'
complete -c pbcopy -l expires -x -d 'the pasteboard reads as empty after SECONDS (expirationDate)'
complete -c pbcopy -l local-only -d 'keep it off the desktop clipboard (localOnly)'
complete -c pbcopy -l change-count -d 'print the pasteboard\'s new change count'
complete -c pbcopy -l root -r -x -a '(__fish_complete_directories)' -d 'the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)'
complete -c pbcopy -l help -s h -d 'show this help (also: help [VERB])'
complete -c pbcopy -l version -d 'print the version'
