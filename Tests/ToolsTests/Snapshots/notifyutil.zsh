#compdef notifyutil
# zsh completion for notifyutil, generated from its declaration (notifyutil --generate-completion zsh)
_notifyutil() {
    _arguments -s \
    '-q[quiet\: print nothing for notifications]' \
    '-v[verbose\: print the time, key, state and registration type for each notification]' \
    '-z[pause MSEC milliseconds after each post \[default 100\]]:MSEC: ' \
    '-M[multiplex (accepted; no effect here)]' \
    '-R[regenerate registrations (accepted; no effect here)]' \
    '*-port[deliver later registrations through a callback (the default)]' \
    '*-file[deliver later registrations through a file descriptor]' \
    '*-check[later registrations are checked (notify_check) every 100 ms]' \
    '*-plain[later registrations are plain, checked every 100 ms]' \
    '*-signal[deliver later registrations as signal # (default 1, SIGHUP)]:#: ' \
    '*-dispatch[deliver later registrations through a callback]' \
    '*-p[post a notification for KEY]:KEY: ' \
    '*-w[register for KEY and report notifications]:KEY: ' \
    '*-#[(# is a whole number, e.g. -1) register for KEY and report # notifications]:KEY: ' \
    '*-g[get the state value for KEY]:KEY: ' \
    '*-s[set the state value for KEY to VAL (a 64-bit integer)]:KEY: ' \
    '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
    '--version[print the version]' \
        '*:file:_files'
}
_notifyutil "$@"
