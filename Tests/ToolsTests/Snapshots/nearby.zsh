#compdef nearby
# zsh completion for nearby, generated from its declaration (nearby --generate-completion zsh)
_nearby() {
    local -a verbs
    verbs=(
        'identity:this device'\''s certificate fingerprint (made on first use)'
        'list:the paired devices, and which are in reach (DNS-SD); everyone-mode devices in reach'
        'status:the identity, the paired devices and the spool'
        'send:send files to a paired device (or an address), into an app there; or to a LocalSend device'
        'receive:receive until stopped (SIGINT, SIGTERM) or, for everyone, until the minutes run out'
        'pair:pair with a device\: compare six digits on both screens (--wait there, DEVICE here), or type the code it shows (--show-code there, DEVICE --code here)'
        'activities:the activities paired devices offer for Handoff\: each paired device in reach, or DEVICE (a paired device'\''s name, or HOST\:PORT)'
        'continue:continue here the activity a paired device offers (Handoff)\: its newest, or --type'\''s; in the app here that declares the type, else its web page in the browser'
        'streams:carry a continuation stream between the app that continued an activity here and the app that offered it on DEVICE (started by NSUserActivity.getContinuationStreams; its standard input and output are one socket to that app)'
        'unpair:forget a paired device (its certificate is refused from then on)'
    )
    local -a _nearby_words
    _nearby_words=("${words[@]}")
    local curcontext="$curcontext" state line
    _arguments -s -C \
    '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
    '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
    '--version[print the version]' \
        '(-)1: :->verb' '(-)*:: :->args'
    case $state in
        verb) _describe -t verbs 'verb' verbs ;;
        args)
            case ${words[1]} in
                identity)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '--json[JSON output (send and receive\: one event per line)]' \
                        '--rotate[make a new key and certificate (paired devices must pair again)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' ;;
                list)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '--timeout[look for devices at most this long (default 1.5, at most 60); done as soon as every paired device is seen]:SECONDS: ' \
                        '--json[JSON output (send and receive\: one event per line)]' \
                        '*--interface[announce or look for devices (DNS-SD over mDNS) on this network interface only; repeatable]:IFACE: ' \
                        '--no-discovery[neither announce nor look for devices\: only addresses (--to HOST\:PORT, the last one paired)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' ;;
                status)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '--json[JSON output (send and receive\: one event per line)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' ;;
                send)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '--to[a paired device'\''s name (reached at its last address) or an address]:DEVICE|HOST\:PORT:_nearby_values paired-devices' \
                        '--app[the app on the other device that should get the files]:BUNDLE-ID:_nearby_apps' \
                        '--from[the sending app named in the open request (default org.document-interchange.nearby)]:BUNDLE-ID:_nearby_apps' \
                        '--fingerprint[the certificate the receiver must present, for an unpaired device (else it must be paired)]:HEX: ' \
                        '--localsend[send to a LocalSend device (protocol v2)\: --to its alias (found by LocalSend'\''s multicast, or its /24 sweep where multicast is dropped), HOST\[\:PORT\] or http\://HOST\[\:PORT\]]' \
                        '--localsend-pin[the PIN the LocalSend device asks for]:PIN: ' \
                        '--new-certificate[accept a LocalSend device whose certificate changed since the last send (reinstalled)]' \
                        '--airdrop[send with AirDrop'\''s HTTP protocol (to an OpenDrop receiver) on this interface\: --to its name, or \[ADDRESS\]\:PORT]:IFACE: ' \
                        '--name[the name this device gives itself (default\: the host name)]:NAME: ' \
                        '--json[JSON output (send and receive\: one event per line)]' \
                        '*--interface[announce or look for devices (DNS-SD over mDNS) on this network interface only; repeatable]:IFACE: ' \
                        '--no-discovery[neither announce nor look for devices\: only addresses (--to HOST\:PORT, the last one paired)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
                receive)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '--mode[who may send\: nobody, paired devices (default), or anyone who is then asked about]:off|paired|everyone:(off paired everyone)' \
                        '--minutes[how long everyone-mode lasts (default 10)]:N: ' \
                        '--auto-accept[accept every ask the mode lets in without asking (unattended machines)]' \
                        '--ask-timeout[how long a question about an unpaired sender waits for an answer before it is withdrawn and declined (default 60)]:SECONDS: ' \
                        '--asks-per-minute[how many asks one unpaired sender may make a minute, accepted without a question or not (default 5); one at a time waits for an answer]:N: ' \
                        '--listen[the address to listen on (default \:\:, every address)]:ADDRESS: ' \
                        '--port[the TCP port (default 53400; 0\: any free port, printed)]:N: ' \
                        '--downloads[where items no app takes go (default\: the XDG download folder)]:directory:_files -/' \
                        '--no-launch[deliver without starting the receiving app'\''s launch command]' \
                        '--localsend[in everyone-mode, also receive from LocalSend apps (protocol v2)\: over HTTPS (default), plain HTTP, or not at all]:https|http|off:(https http off)' \
                        '--localsend-port[LocalSend'\''s port, for its server and its multicast announcements (default 53317)]:N: ' \
                        '--localsend-pin[a PIN LocalSend senders must give]:PIN: ' \
                        '--airdrop[in everyone-mode, also receive AirDrop'\''s HTTP protocol (as OpenDrop speaks it), announced on this interface'\''s link-local IPv6 address]:IFACE: ' \
                        '--airdrop-port[AirDrop'\''s HTTPS port (default 8771)]:N: ' \
                        '--name[the name this device gives itself (default\: the host name)]:NAME: ' \
                        '--json[JSON output (send and receive\: one event per line)]' \
                        '*--interface[announce or look for devices (DNS-SD over mDNS) on this network interface only; repeatable]:IFACE: ' \
                        '--no-discovery[neither announce nor look for devices\: only addresses (--to HOST\:PORT, the last one paired)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' ;;
                pair)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '--wait[wait for a device to pair with by comparing digits (findable by this device'\''s name meanwhile)]' \
                        '--show-code[print a one-time code and wait for a device to pair with it (findable by name meanwhile)]' \
                        '--code[the code the other device shows]:CODE: ' \
                        '--to[where the waiting device listens (else DEVICE is looked for by name)]:HOST\:PORT: ' \
                        '--port[the TCP port the waiting device (--wait, --show-code) listens on (default 53401; 0\: any free port, printed)]:N: ' \
                        '--name[the name this device gives itself (default\: the host name)]:NAME: ' \
                        '--json[JSON output (send and receive\: one event per line)]' \
                        '*--interface[announce or look for devices (DNS-SD over mDNS) on this network interface only; repeatable]:IFACE: ' \
                        '--no-discovery[neither announce nor look for devices\: only addresses (--to HOST\:PORT, the last one paired)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:DEVICE:_nearby_values paired-devices' ;;
                activities)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '--watch[keep watching\: print a device'\''s offers again each time they change]' \
                        '--fingerprint[the certificate the device at HOST\:PORT must present (else any paired device'\''s)]:HEX: ' \
                        '--timeout[look for paired devices at most this long (default 1.5, at most 60)]:SECONDS: ' \
                        '--json[JSON output (send and receive\: one event per line)]' \
                        '*--interface[announce or look for devices (DNS-SD over mDNS) on this network interface only; repeatable]:IFACE: ' \
                        '--no-discovery[neither announce nor look for devices\: only addresses (--to HOST\:PORT, the last one paired)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:DEVICE:_nearby_values paired-devices' ;;
                continue)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '--type[the activity type to continue (else the device'\''s current activity)]:TYPE: ' \
                        '--app[continue in this app (it must declare the type)]:BUNDLE: ' \
                        '--no-launch[write the activity request but start no app (it takes the request when it next looks)]' \
                        '--fingerprint[the certificate the device at HOST\:PORT must present (else any paired device'\''s)]:HEX: ' \
                        '--timeout[look for paired devices at most this long (default 1.5, at most 60)]:SECONDS: ' \
                        '--json[JSON output (send and receive\: one event per line)]' \
                        '*--interface[announce or look for devices (DNS-SD over mDNS) on this network interface only; repeatable]:IFACE: ' \
                        '--no-discovery[neither announce nor look for devices\: only addresses (--to HOST\:PORT, the last one paired)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:DEVICE:_nearby_values paired-devices' ;;
                streams)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '--app[the offering app]:BUNDLE: ' \
                        '--process[the offering app'\''s process on DEVICE]:N: ' \
                        '--made-current[when the activity was made current there (as the offer says)]:SECONDS: ' \
                        '--fingerprint[the certificate the device at HOST\:PORT must present (else any paired device'\''s)]:HEX: ' \
                        '*--interface[announce or look for devices (DNS-SD over mDNS) on this network interface only; repeatable]:IFACE: ' \
                        '--no-discovery[neither announce nor look for devices\: only addresses (--to HOST\:PORT, the last one paired)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:DEVICE:_nearby_values paired-devices' ;;
                unpair)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '--json[JSON output (send and receive\: one event per line)]' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:DEVICE:_nearby_values paired-devices' ;;
                *)
                    _arguments -s \
                        '--root[the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)]:directory:_files -/' \
                        '(-h --help)'{-h,--help}'[show this help (also\: help \[VERB\])]' \
                        '--version[print the version]' \
                        '*:file:_files' ;;
            esac
            ;;
    esac
}
# The bundle identifiers of the apps registered on the device root (--root, else
# $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder's), read with plutil.
_nearby_apps() {
    local root="" i app
    i=${_nearby_words[(I)--root]}
    (( i > 0 )) && root=${_nearby_words[i+1]}
    root="${root:-${DOCUMENT_INTERCHANGE_ROOT:-${XDG_DATA_HOME:-$HOME/.local/share}/document-interchange}}"
    local -a apps
    for app in "$root"/Apps/*(N); do
        [[ -d "$app" ]] && app="$app/Info.plist"
        apps+=("$(plutil -extract CFBundleIdentifier raw -o - "$app" 2>/dev/null)")
    done
    compadd -- ${apps:#}
}
# The values nearby lists for a source (nearby --complete-values SOURCE [--root ROOT], the
# device root named on the command line), one a line. The source is the last argument:
# _arguments puts its compadd options (group, explanation) before it, passed on to compadd.
_nearby_values() {
    local root="" i
    local -a ask values
    ask=(--complete-values "${@[-1]}")
    i=${_nearby_words[(I)--root]}
    (( i > 0 )) && root=${_nearby_words[i+1]}
    [[ $root == '~/'* ]] && root=$HOME/${root#'~/'}
    [[ -n $root ]] && ask+=(--root "$root")
    values=("${(@f)$(nearby "${ask[@]}" 2>/dev/null)}")
    compadd "${@[1,-2]}" -- ${values:#}
}
_nearby "$@"
