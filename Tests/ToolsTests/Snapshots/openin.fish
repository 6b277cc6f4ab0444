# fish completion for openin, generated from its declaration (openin --generate-completion fish)
complete -c openin -f -n '__fish_use_subcommand' -a default -d 'the user\'s default app for a type (and its subtypes)'
complete -c openin -f -n '__fish_use_subcommand' -a watch -d 'keep watching this session\'s desktop applications and associations, so that queries need not look at every .desktop file (runs until stopped; the user unit openin-watch.service runs it)'
complete -c openin -l root -r -x -a '(__fish_complete_directories)' -d 'the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); it must exist'
complete -c openin -l list -s l -d 'print the sheet instead of showing it'
complete -c openin -l dialog -d 'show the sheet as a desktop dialog (zenity or kdialog); the default when started with no terminal and a display'
complete -c openin -l nearby -d 'offer only the paired nearby devices (a file manager\'s Send to Nearby Device…; docs/nearby.md)'
complete -c openin -l json -d 'the sheet (or default list) as JSON'
complete -c openin -l explain -d 'why each app is eligible and ranks where it does'
complete -c openin -l all -d 'also the apps that are not eligible, and why'
complete -c openin -l to -x -a '(___openin_apps)' -d 'deliver to that app without asking'
complete -c openin -l activity -x -d 'perform that activity without asking (copy-to-folder, save-to-sender, print, copy-to-clipboard, or a share extension\'s identifier)'
complete -c openin -l exclude -x -d 'leave out an app or activity type (repeatable)'
complete -c openin -l from -x -a '(___openin_apps)' -d 'the sender (sourceApplication); default org.document-interchange.openin'
complete -c openin -l annotation -x -d 'a property-list value passed to the app (XML, OpenStep or @FILE)'
complete -c openin -l destination -r -x -a '(__fish_complete_directories)' -d 'the folder for copy-to-folder (~ is expanded; it must exist)'
complete -c openin -l no-launch -d 'deliver without starting the app\'s launch command (DILaunchCommand)'
complete -c openin -l desktop-apps -d 'also offer this machine\'s Linux desktop applications (.desktop files, mimeapps.list) with --root; they are offered without --root'
complete -c openin -l no-desktop-apps -d 'offer registered apps only'
complete -c openin -l gio -d 'order the desktop applications and choose the default as GIO does (gio mime, gio open)'
complete -c openin -l help -s h -d 'show this help (also: help [VERB])'
complete -c openin -l version -d 'print the version'
complete -c openin -n '__fish_seen_subcommand_from watch' -l idle-exit -x -d 'exit when no query has asked for SECONDS'
complete -c openin -f -n '__fish_seen_subcommand_from default; and not __fish_seen_subcommand_from set get unset list' -a 'set get unset list'
complete -c openin -n '__fish_seen_subcommand_from watch' -f
function ___openin_apps
    set -l words (commandline -opc)
    set -l root
    set -l i (contains -i -- --root $words); and set root $words[(math $i + 1)]
    test -n "$root"; or set root $DOCUMENT_INTERCHANGE_ROOT
    test -n "$root"; or begin; set -q XDG_DATA_HOME; and set root $XDG_DATA_HOME/document-interchange; or set root $HOME/.local/share/document-interchange; end
    for app in $root/Apps/*
        test -d $app; and set app $app/Info.plist
        plutil -extract CFBundleIdentifier raw -o - $app 2>/dev/null
    end
end
