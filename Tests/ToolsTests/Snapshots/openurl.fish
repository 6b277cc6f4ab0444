# fish completion for openurl, generated from its declaration (openurl --generate-completion fish)
complete -c openurl -f -n '__fish_use_subcommand' -a default -d 'the user\'s default app for a URL scheme (first in the order)'
complete -c openurl -f -n '__fish_use_subcommand' -a desktop -d 'export the root\'s apps as x-scheme-handler desktop entries running openurl (sync), or remove them'
complete -c openurl -l root -r -x -a '(__fish_complete_directories)' -d 'the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); it must exist'
complete -c openurl -l from -x -a '(___openurl_apps)' -d 'the sender (sourceApplication), as it states itself; default org.document-interchange.openurl'
complete -c openurl -l annotation -x -d 'a property-list value passed to the app (XML, OpenStep, JSON or @FILE)'
complete -c openurl -l to -x -a '(___openurl_apps)' -d 'open with this app, which must handle the scheme'
complete -c openurl -l can -d 'answer canOpenURL for --from instead of opening: exit 0 yes, 1 no'
complete -c openurl -l list -s l -d 'list every app claiming the URL\'s scheme, in order, instead of opening'
complete -c openurl -l explain -d 'with --can: the reason; with --list: why each app is where it is'
complete -c openurl -l json -d '--list and default list as JSON'
complete -c openurl -l no-launch -d 'write the open request without starting the app\'s launch command'
complete -c openurl -l no-desktop -d 'do not hand schemes no registered app handles to the desktop (exit 1 instead)'
complete -c openurl -l help -s h -d 'show this help (also: help [VERB])'
complete -c openurl -l version -d 'print the version'
complete -c openurl -f -n '__fish_seen_subcommand_from default; and not __fish_seen_subcommand_from set get unset list' -a 'set get unset list'
complete -c openurl -f -n '__fish_seen_subcommand_from desktop; and not __fish_seen_subcommand_from sync remove' -a 'sync remove'
function ___openurl_apps
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
