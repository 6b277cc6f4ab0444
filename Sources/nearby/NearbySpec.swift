import ToolSupport

/// The TCP port a receiver listens on unless told otherwise.
let defaultPort = 53_400

/// How long `nearby list` looks for devices: the default is the fixed time it browsed before it
/// could end early; the maximum keeps a mistyped value (`--timeout 600`) from holding a script for
/// minutes.
let listTimeout = (default: 1.5, maximum: 60.0)

/// `nearby`'s command line, declared once (parsing, help, man page, completions).
let nearbySpec: ToolSpec = {
    let root = OptionSpec("--root", value: .directory, help: "the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)")
    let json = OptionSpec("--json", help: "JSON output (send and receive: one event per line)")
    let name = OptionSpec("--name", value: .text("NAME"), help: "the name this device gives itself (default: the host name)")
    let port = OptionSpec("--port", value: .integer(0...65535), help: "the TCP port (default \(defaultPort); 0: any free port, printed)")
    // The waiting side of pairing listens beside a receiver, one port up (NearbyTool.pair).
    let pairPort = OptionSpec("--port", value: .integer(0...65535),
                              help: "the TCP port the waiting device (--wait, --show-code) listens on (default \(defaultPort + 1); 0: any free port, printed)")
    // Completed with the names in ROOT/Nearby/Paired.plist (NearbyCompletions).
    let device = OperandKind.values(.completed(placeholder: "DEVICE", source: NearbyCompletions.pairedDevices))
    let interface = OptionSpec("--interface", value: .text("IFACE"), repeatable: true,
                               help: "announce or look for devices (DNS-SD over mDNS) on this network interface only; repeatable")
    // The Handoff verbs reach a paired device by name or HOST:PORT, as `activities` first did.
    let pairedFingerprint = OptionSpec("--fingerprint", value: .text("HEX"), help: "the certificate the device at HOST:PORT must present (else any paired device's)")
    let pairedTimeout = OptionSpec("--timeout", value: .number("SECONDS"),
                                   help: "look for paired devices at most this long (default \(listTimeout.default), at most \(Int(listTimeout.maximum)))")
    let noDiscovery = OptionSpec("--no-discovery", help: "neither announce nor look for devices: only addresses (--to HOST:PORT, the last one paired)")
    return ToolSpec(
        name: "nearby",
        summary: "sends documents into apps on nearby devices, and receives them (AirDrop's channel over the local network)",
        discussion: [
            """
            Every connection is mutual TLS 1.3 between device certificates; a device is let in by its certificate's SHA-256 (its fingerprint) alone, checked in the handshake. Pairing pins the other device's fingerprint, by comparing six digits on both screens or with a one-time code (SPAKE2). A received item goes into the app the sender named (the ask is declined when that app is not here or does not open the type); with none named, into the app ranked first for the type, else into the download folder; never overwriting, through the same delivery as openin (docs/nearby.md).
            """,
        ],
        verbs: [
            VerbSpec("identity", summary: "this device's certificate fingerprint (made on first use)", options: [
                json, OptionSpec("--rotate", help: "make a new key and certificate (paired devices must pair again)"),
            ], operandCount: 0...0),
            VerbSpec("list", summary: "the paired devices, and which are in reach (DNS-SD); everyone-mode devices in reach", options: [
                OptionSpec("--timeout", value: .number("SECONDS"),
                           help: "look for devices at most this long (default \(listTimeout.default), at most \(Int(listTimeout.maximum))); done as soon as every paired device is seen"),
                json, interface, noDiscovery,
            ], operandCount: 0...0),
            VerbSpec("status", summary: "the identity, the paired devices and the spool", options: [json], operandCount: 0...0),
            VerbSpec("send", operands: "FILE...", summary: "send files to a paired device (or an address), into an app there; or to a LocalSend device", options: [
                OptionSpec("--to", value: .completed(placeholder: "DEVICE|HOST:PORT", source: NearbyCompletions.pairedDevices),
                           help: "a paired device's name (reached at its last address) or an address"),
                OptionSpec("--app", value: .bundleIdentifier, help: "the app on the other device that should get the files"),
                OptionSpec("--from", value: .bundleIdentifier, help: "the sending app named in the open request (default org.document-interchange.nearby)"),
                OptionSpec("--fingerprint", value: .text("HEX"), help: "the certificate the receiver must present, for an unpaired device (else it must be paired)"),
                OptionSpec("--localsend", help: "send to a LocalSend device (protocol v2): --to its alias (found by LocalSend's multicast, or its /24 sweep where multicast is dropped), HOST[:PORT] or http://HOST[:PORT]"),
                OptionSpec("--localsend-pin", value: .text("PIN"), help: "the PIN the LocalSend device asks for"),
                OptionSpec("--new-certificate", help: "accept a LocalSend device whose certificate changed since the last send (reinstalled)"),
                OptionSpec("--airdrop", value: .text("IFACE"),
                           help: "send with AirDrop's HTTP protocol (to an OpenDrop receiver) on this interface: --to its name, or [ADDRESS]:PORT"),
                name, json, interface, noDiscovery,
            ], operandCount: 1...1000),
            VerbSpec("receive", summary: "receive until stopped (SIGINT, SIGTERM) or, for everyone, until the minutes run out", options: [
                OptionSpec("--mode", value: .choice(["off", "paired", "everyone"]), help: "who may send: nobody, paired devices (default), or anyone who is then asked about"),
                OptionSpec("--minutes", value: .number("N"), help: "how long everyone-mode lasts (default 10)"),
                OptionSpec("--auto-accept", help: "accept every ask the mode lets in without asking (unattended machines)"),
                OptionSpec("--ask-timeout", value: .number("SECONDS"), help: "how long a question about an unpaired sender waits for an answer before it is withdrawn and declined (default 60)"),
                OptionSpec("--asks-per-minute", value: .integer(1...10_000),
                           help: "how many asks one unpaired sender may make a minute, accepted without a question or not (default 5); one at a time waits for an answer"),
                OptionSpec("--listen", value: .text("ADDRESS"), help: "the address to listen on (default ::, every address)"),
                port,
                OptionSpec("--downloads", value: .directory, help: "where items no app takes go (default: the XDG download folder)"),
                OptionSpec("--no-launch", help: "deliver without starting the receiving app's launch command"),
                OptionSpec("--localsend", value: .choice(["https", "http", "off"]),
                           help: "in everyone-mode, also receive from LocalSend apps (protocol v2): over HTTPS (default), plain HTTP, or not at all"),
                OptionSpec("--localsend-port", value: .number("N"), help: "LocalSend's port, for its server and its multicast announcements (default 53317)"),
                OptionSpec("--localsend-pin", value: .text("PIN"), help: "a PIN LocalSend senders must give"),
                OptionSpec("--airdrop", value: .text("IFACE"),
                           help: "in everyone-mode, also receive AirDrop's HTTP protocol (as OpenDrop speaks it), announced on this interface's link-local IPv6 address"),
                OptionSpec("--airdrop-port", value: .number("N"), help: "AirDrop's HTTPS port (default 8771)"),
                name, json, interface, noDiscovery,
            ], operandCount: 0...0),
            VerbSpec("pair", operands: "[DEVICE]", summary: "pair with a device: compare six digits on both screens (--wait there, DEVICE here), or type the code it shows (--show-code there, DEVICE --code here)", options: [
                OptionSpec("--wait", help: "wait for a device to pair with by comparing digits (findable by this device's name meanwhile)"),
                OptionSpec("--show-code", help: "print a one-time code and wait for a device to pair with it (findable by name meanwhile)"),
                OptionSpec("--code", value: .text("CODE"), help: "the code the other device shows"),
                OptionSpec("--to", value: .text("HOST:PORT"), help: "where the waiting device listens (else DEVICE is looked for by name)"),
                pairPort, name, json, interface, noDiscovery,
            ], operandCount: 0...1, operandKind: device),
            VerbSpec("activities", operands: "[DEVICE]", summary: "the activities paired devices offer for Handoff: each paired device in reach, or DEVICE (a paired device's name, or HOST:PORT)", options: [
                OptionSpec("--watch", help: "keep watching: print a device's offers again each time they change"),
                pairedFingerprint, pairedTimeout,
                json, interface, noDiscovery,
            ], operandCount: 0...1, operandKind: device),
            VerbSpec("continue", operands: "[DEVICE]", summary: "continue here the activity a paired device offers (Handoff): its newest, or --type's; in the app here that declares the type, else its web page in the browser", options: [
                OptionSpec("--type", value: .text("TYPE"), help: "the activity type to continue (else the device's current activity)"),
                OptionSpec("--app", value: .text("BUNDLE"), help: "continue in this app (it must declare the type)"),
                OptionSpec("--no-launch", help: "write the activity request but start no app (it takes the request when it next looks)"),
                pairedFingerprint, pairedTimeout,
                json, interface, noDiscovery,
            ], operandCount: 0...1, operandKind: device),
            VerbSpec("streams", operands: "DEVICE", summary: "carry a continuation stream between the app that continued an activity here and the app that offered it on DEVICE (started by NSUserActivity.getContinuationStreams; its standard input and output are one socket to that app)", options: [
                OptionSpec("--app", value: .text("BUNDLE"), help: "the offering app"),
                OptionSpec("--process", value: .integer(1...Int64(Int32.max)), help: "the offering app's process on DEVICE"),
                OptionSpec("--made-current", value: .text("SECONDS"), help: "when the activity was made current there (as the offer says)"),
                pairedFingerprint,
                interface, noDiscovery,
            ], operandCount: 1...1, operandKind: device),
            VerbSpec("unpair", operands: "DEVICE", summary: "forget a paired device (its certificate is refused from then on)", options: [json], operandCount: 1...1, operandKind: device),
        ],
        options: [root],
        examples: [
            ("nearby identity", "this device's fingerprint"),
            ("nearby pair --wait --name laptop", "on one device: wait to pair, findable as laptop (without --name, by its host name)"),
            ("nearby pair laptop", "on the other: pair with it (both show six digits to compare)"),
            ("nearby activities --watch", "what the paired devices in reach are doing, as it changes (Handoff)"),
            ("nearby continue laptop", "continue here what the laptop's user is doing (Handoff)"),
            ("nearby pair laptop --code 1234-5678 --to 10.0.0.2:53401", "pair by the code `nearby pair --show-code` shows there (scripts)"),
            ("nearby receive --mode paired", "take items from paired devices"),
            ("nearby send report.pdf --to laptop --app com.example.reader", "into the reader app on the laptop"),
        ],
        exitStatus: [(0, "done: every item delivered"), (1, "declined, refused or not every item delivered"), (2, "usage errors and failures")],
        seeAlso: ["openin(1)", "inboxd(1)", "docs/nearby.md"],
        // What NearbyFolder, Outbox, LocalSendPeers, CurrentActivities and DownloadFolder name.
        files: [
            ("ROOT/Nearby/", "the device's nearby state (0700); ROOT is the device root (--root)"),
            ("ROOT/Nearby/identity-key.pem", "this device's P-256 private key (0600), made on first use, replaced by identity --rotate"),
            ("ROOT/Nearby/identity-cert.der", "its self-signed certificate (0600): its SHA-256 is the device's fingerprint"),
            ("ROOT/Nearby/Paired.plist", "the paired devices: each one's name, pinned fingerprint and last address (0600)"),
            ("ROOT/Nearby/InReach.plist", "the paired devices a running receiver sees in reach (0600)"),
            ("ROOT/Nearby/Spool/", "items being received, kept for resuming until delivered"),
            ("ROOT/Nearby/Outbox/", "unfinished sends: the same items sent again to the same device resume the same transfer"),
            ("ROOT/Nearby/LocalSend.plist", "the LocalSend devices sent to: alias, address and the certificate each first presented (0600; --new-certificate accepts a changed one)"),
            ("ROOT/Handoff/Current/", "the activities this device's apps offer (Handoff), which the receiver tells paired devices"),
            ("$XDG_CONFIG_HOME/user-dirs.dirs", "XDG_DOWNLOAD_DIR there is the download folder, where items no app takes go (else ~/Downloads; --downloads overrides)"),
        ],
        // What nearby and the libraries it calls read (Environment.value, and libdbus for avahi).
        environment: [
            ("DOCUMENT_INTERCHANGE_ROOT", "the device root when --root is not given"),
            ("XDG_DATA_HOME", "the device root when neither is given: $XDG_DATA_HOME/document-interchange (else ~/.local/share/document-interchange)"),
            ("HOME", "the home folder, for the defaults above and below"),
            ("XDG_CONFIG_HOME", "where user-dirs.dirs is read (else ~/.config)"),
            ("XDG_CACHE_HOME", "where the type registry of a device root not yet made is kept (else ~/.cache)"),
            ("DOCUMENT_INTERCHANGE_CATALOG", "a type catalog folder to use before the device root's UTIs/ and the installed one"),
            ("DBUS_SESSION_BUS_ADDRESS", "the session bus (else $XDG_RUNTIME_DIR/bus) on which a receiver with no terminal (or --json) asks the desktop about an unpaired sender; with neither, such asks are declined unless --auto-accept"),
            ("DBUS_SYSTEM_BUS_ADDRESS", "the system bus on which avahi-daemon is reached for DNS-SD (read by libdbus); without a daemon, nearby answers mDNS itself"),
        ])
}()
