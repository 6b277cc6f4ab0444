# fish completion for nearby, generated from its declaration (nearby --generate-completion fish)
complete -c nearby -f -n '__fish_use_subcommand' -a identity -d 'this device\'s certificate fingerprint (made on first use)'
complete -c nearby -f -n '__fish_use_subcommand' -a list -d 'the paired devices, and which are in reach (DNS-SD); everyone-mode devices in reach'
complete -c nearby -f -n '__fish_use_subcommand' -a status -d 'the identity, the paired devices and the spool'
complete -c nearby -f -n '__fish_use_subcommand' -a send -d 'send files to a paired device (or an address), into an app there; or to a LocalSend device'
complete -c nearby -f -n '__fish_use_subcommand' -a receive -d 'receive until stopped (SIGINT, SIGTERM) or, for everyone, until the minutes run out'
complete -c nearby -f -n '__fish_use_subcommand' -a pair -d 'pair with a device: compare six digits on both screens (--wait there, DEVICE here), or type the code it shows (--show-code there, DEVICE --code here)'
complete -c nearby -f -n '__fish_use_subcommand' -a activities -d 'the activities paired devices offer for Handoff: each paired device in reach, or DEVICE (a paired device\'s name, or HOST:PORT)'
complete -c nearby -f -n '__fish_use_subcommand' -a continue -d 'continue here the activity a paired device offers (Handoff): its newest, or --type\'s; in the app here that declares the type, else its web page in the browser'
complete -c nearby -f -n '__fish_use_subcommand' -a streams -d 'carry a continuation stream between the app that continued an activity here and the app that offered it on DEVICE (started by NSUserActivity.getContinuationStreams; its standard input and output are one socket to that app)'
complete -c nearby -f -n '__fish_use_subcommand' -a unpair -d 'forget a paired device (its certificate is refused from then on)'
complete -c nearby -l root -r -x -a '(__fish_complete_directories)' -d 'the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)'
complete -c nearby -l help -s h -d 'show this help (also: help [VERB])'
complete -c nearby -l version -d 'print the version'
complete -c nearby -n '__fish_seen_subcommand_from identity' -l json -d 'JSON output (send and receive: one event per line)'
complete -c nearby -n '__fish_seen_subcommand_from identity' -l rotate -d 'make a new key and certificate (paired devices must pair again)'
complete -c nearby -n '__fish_seen_subcommand_from list' -l timeout -x -d 'look for devices at most this long (default 1.5, at most 60); done as soon as every paired device is seen'
complete -c nearby -n '__fish_seen_subcommand_from list' -l json -d 'JSON output (send and receive: one event per line)'
complete -c nearby -n '__fish_seen_subcommand_from list' -l interface -x -d 'announce or look for devices (DNS-SD over mDNS) on this network interface only; repeatable'
complete -c nearby -n '__fish_seen_subcommand_from list' -l no-discovery -d 'neither announce nor look for devices: only addresses (--to HOST:PORT, the last one paired)'
complete -c nearby -n '__fish_seen_subcommand_from status' -l json -d 'JSON output (send and receive: one event per line)'
complete -c nearby -n '__fish_seen_subcommand_from send' -l to -x -a '(___nearby_values paired-devices)' -d 'a paired device\'s name (reached at its last address) or an address'
complete -c nearby -n '__fish_seen_subcommand_from send' -l app -x -a '(___nearby_apps)' -d 'the app on the other device that should get the files'
complete -c nearby -n '__fish_seen_subcommand_from send' -l from -x -a '(___nearby_apps)' -d 'the sending app named in the open request (default org.document-interchange.nearby)'
complete -c nearby -n '__fish_seen_subcommand_from send' -l fingerprint -x -d 'the certificate the receiver must present, for an unpaired device (else it must be paired)'
complete -c nearby -n '__fish_seen_subcommand_from send' -l localsend -d 'send to a LocalSend device (protocol v2): --to its alias (found by LocalSend\'s multicast, or its /24 sweep where multicast is dropped), HOST[:PORT] or http://HOST[:PORT]'
complete -c nearby -n '__fish_seen_subcommand_from send' -l localsend-pin -x -d 'the PIN the LocalSend device asks for'
complete -c nearby -n '__fish_seen_subcommand_from send' -l new-certificate -d 'accept a LocalSend device whose certificate changed since the last send (reinstalled)'
complete -c nearby -n '__fish_seen_subcommand_from send' -l airdrop -x -d 'send with AirDrop\'s HTTP protocol (to an OpenDrop receiver) on this interface: --to its name, or [ADDRESS]:PORT'
complete -c nearby -n '__fish_seen_subcommand_from send' -l name -x -d 'the name this device gives itself (default: the host name)'
complete -c nearby -n '__fish_seen_subcommand_from send' -l json -d 'JSON output (send and receive: one event per line)'
complete -c nearby -n '__fish_seen_subcommand_from send' -l interface -x -d 'announce or look for devices (DNS-SD over mDNS) on this network interface only; repeatable'
complete -c nearby -n '__fish_seen_subcommand_from send' -l no-discovery -d 'neither announce nor look for devices: only addresses (--to HOST:PORT, the last one paired)'
complete -c nearby -n '__fish_seen_subcommand_from receive' -l mode -x -a 'off paired everyone' -d 'who may send: nobody, paired devices (default), or anyone who is then asked about'
complete -c nearby -n '__fish_seen_subcommand_from receive' -l minutes -x -d 'how long everyone-mode lasts (default 10)'
complete -c nearby -n '__fish_seen_subcommand_from receive' -l auto-accept -d 'accept every ask the mode lets in without asking (unattended machines)'
complete -c nearby -n '__fish_seen_subcommand_from receive' -l ask-timeout -x -d 'how long a question about an unpaired sender waits for an answer before it is withdrawn and declined (default 60)'
complete -c nearby -n '__fish_seen_subcommand_from receive' -l asks-per-minute -x -d 'how many asks one unpaired sender may make a minute, accepted without a question or not (default 5); one at a time waits for an answer'
complete -c nearby -n '__fish_seen_subcommand_from receive' -l listen -x -d 'the address to listen on (default ::, every address)'
complete -c nearby -n '__fish_seen_subcommand_from receive' -l port -x -d 'the TCP port (default 53400; 0: any free port, printed)'
complete -c nearby -n '__fish_seen_subcommand_from receive' -l downloads -r -x -a '(__fish_complete_directories)' -d 'where items no app takes go (default: the XDG download folder)'
complete -c nearby -n '__fish_seen_subcommand_from receive' -l no-launch -d 'deliver without starting the receiving app\'s launch command'
complete -c nearby -n '__fish_seen_subcommand_from receive' -l localsend -x -a 'https http off' -d 'in everyone-mode, also receive from LocalSend apps (protocol v2): over HTTPS (default), plain HTTP, or not at all'
complete -c nearby -n '__fish_seen_subcommand_from receive' -l localsend-port -x -d 'LocalSend\'s port, for its server and its multicast announcements (default 53317)'
complete -c nearby -n '__fish_seen_subcommand_from receive' -l localsend-pin -x -d 'a PIN LocalSend senders must give'
complete -c nearby -n '__fish_seen_subcommand_from receive' -l airdrop -x -d 'in everyone-mode, also receive AirDrop\'s HTTP protocol (as OpenDrop speaks it), announced on this interface\'s link-local IPv6 address'
complete -c nearby -n '__fish_seen_subcommand_from receive' -l airdrop-port -x -d 'AirDrop\'s HTTPS port (default 8771)'
complete -c nearby -n '__fish_seen_subcommand_from receive' -l name -x -d 'the name this device gives itself (default: the host name)'
complete -c nearby -n '__fish_seen_subcommand_from receive' -l json -d 'JSON output (send and receive: one event per line)'
complete -c nearby -n '__fish_seen_subcommand_from receive' -l interface -x -d 'announce or look for devices (DNS-SD over mDNS) on this network interface only; repeatable'
complete -c nearby -n '__fish_seen_subcommand_from receive' -l no-discovery -d 'neither announce nor look for devices: only addresses (--to HOST:PORT, the last one paired)'
complete -c nearby -n '__fish_seen_subcommand_from pair' -l wait -d 'wait for a device to pair with by comparing digits (findable by this device\'s name meanwhile)'
complete -c nearby -n '__fish_seen_subcommand_from pair' -l show-code -d 'print a one-time code and wait for a device to pair with it (findable by name meanwhile)'
complete -c nearby -n '__fish_seen_subcommand_from pair' -l code -x -d 'the code the other device shows'
complete -c nearby -n '__fish_seen_subcommand_from pair' -l to -x -d 'where the waiting device listens (else DEVICE is looked for by name)'
complete -c nearby -n '__fish_seen_subcommand_from pair' -l port -x -d 'the TCP port the waiting device (--wait, --show-code) listens on (default 53401; 0: any free port, printed)'
complete -c nearby -n '__fish_seen_subcommand_from pair' -l name -x -d 'the name this device gives itself (default: the host name)'
complete -c nearby -n '__fish_seen_subcommand_from pair' -l json -d 'JSON output (send and receive: one event per line)'
complete -c nearby -n '__fish_seen_subcommand_from pair' -l interface -x -d 'announce or look for devices (DNS-SD over mDNS) on this network interface only; repeatable'
complete -c nearby -n '__fish_seen_subcommand_from pair' -l no-discovery -d 'neither announce nor look for devices: only addresses (--to HOST:PORT, the last one paired)'
complete -c nearby -n '__fish_seen_subcommand_from activities' -l watch -d 'keep watching: print a device\'s offers again each time they change'
complete -c nearby -n '__fish_seen_subcommand_from activities' -l fingerprint -x -d 'the certificate the device at HOST:PORT must present (else any paired device\'s)'
complete -c nearby -n '__fish_seen_subcommand_from activities' -l timeout -x -d 'look for paired devices at most this long (default 1.5, at most 60)'
complete -c nearby -n '__fish_seen_subcommand_from activities' -l json -d 'JSON output (send and receive: one event per line)'
complete -c nearby -n '__fish_seen_subcommand_from activities' -l interface -x -d 'announce or look for devices (DNS-SD over mDNS) on this network interface only; repeatable'
complete -c nearby -n '__fish_seen_subcommand_from activities' -l no-discovery -d 'neither announce nor look for devices: only addresses (--to HOST:PORT, the last one paired)'
complete -c nearby -n '__fish_seen_subcommand_from continue' -l type -x -d 'the activity type to continue (else the device\'s current activity)'
complete -c nearby -n '__fish_seen_subcommand_from continue' -l app -x -d 'continue in this app (it must declare the type)'
complete -c nearby -n '__fish_seen_subcommand_from continue' -l no-launch -d 'write the activity request but start no app (it takes the request when it next looks)'
complete -c nearby -n '__fish_seen_subcommand_from continue' -l fingerprint -x -d 'the certificate the device at HOST:PORT must present (else any paired device\'s)'
complete -c nearby -n '__fish_seen_subcommand_from continue' -l timeout -x -d 'look for paired devices at most this long (default 1.5, at most 60)'
complete -c nearby -n '__fish_seen_subcommand_from continue' -l json -d 'JSON output (send and receive: one event per line)'
complete -c nearby -n '__fish_seen_subcommand_from continue' -l interface -x -d 'announce or look for devices (DNS-SD over mDNS) on this network interface only; repeatable'
complete -c nearby -n '__fish_seen_subcommand_from continue' -l no-discovery -d 'neither announce nor look for devices: only addresses (--to HOST:PORT, the last one paired)'
complete -c nearby -n '__fish_seen_subcommand_from streams' -l app -x -d 'the offering app'
complete -c nearby -n '__fish_seen_subcommand_from streams' -l process -x -d 'the offering app\'s process on DEVICE'
complete -c nearby -n '__fish_seen_subcommand_from streams' -l made-current -x -d 'when the activity was made current there (as the offer says)'
complete -c nearby -n '__fish_seen_subcommand_from streams' -l fingerprint -x -d 'the certificate the device at HOST:PORT must present (else any paired device\'s)'
complete -c nearby -n '__fish_seen_subcommand_from streams' -l interface -x -d 'announce or look for devices (DNS-SD over mDNS) on this network interface only; repeatable'
complete -c nearby -n '__fish_seen_subcommand_from streams' -l no-discovery -d 'neither announce nor look for devices: only addresses (--to HOST:PORT, the last one paired)'
complete -c nearby -n '__fish_seen_subcommand_from unpair' -l json -d 'JSON output (send and receive: one event per line)'
complete -c nearby -n '__fish_seen_subcommand_from identity list status receive' -f
complete -c nearby -n '__fish_seen_subcommand_from pair activities continue streams unpair' -f -a '(___nearby_values paired-devices)'
complete -c nearby -n '__fish_seen_subcommand_from send' -F
function ___nearby_apps
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
function ___nearby_values
    set -l ask --complete-values $argv[1]
    set -l words (commandline -opc)
    set -l i (contains -i -- --root $words); and set -a ask --root (string replace -r '^~/' "$HOME/" -- $words[(math $i + 1)])
    nearby $ask 2>/dev/null
end
