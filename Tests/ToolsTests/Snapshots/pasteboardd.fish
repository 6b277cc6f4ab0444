# fish completion for pasteboardd, generated from its declaration (pasteboardd --generate-completion fish)
complete -c pasteboardd -f -n '__fish_use_subcommand' -a run -d 'bridge until SIGTERM or SIGINT (or until the display goes away)'
complete -c pasteboardd -l root -r -x -a '(__fish_complete_directories)' -d 'the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)'
complete -c pasteboardd -l help -s h -d 'show this help (also: help [VERB])'
complete -c pasteboardd -l version -d 'print the version'
complete -c pasteboardd -n '__fish_seen_subcommand_from run' -l backend -x -a 'auto x11 wayland' -d 'auto (default): Wayland when WAYLAND_DISPLAY is set, else X11'
complete -c pasteboardd -n '__fish_seen_subcommand_from run' -l display -x -d 'the display (else DISPLAY or WAYLAND_DISPLAY)'
complete -c pasteboardd -n '__fish_seen_subcommand_from run' -l timeout -x -d 'give up when the display has not answered the connection after SECONDS (default 10)'
complete -c pasteboardd -n '__fish_seen_subcommand_from run' -l log-level -x -a 'trace debug info notice warning error' -d 'logs on stderr, one logfmt line per event (default info)'
complete -c pasteboardd -n '__fish_seen_subcommand_from run' -f
