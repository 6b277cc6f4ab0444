import ToolSupport

/// `inboxd`'s command line, declared once (parsing, help, man page, completions).
let inboxdSpec: ToolSpec = {
    let root = OptionSpec("--root", value: .directory, help: "the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)")
    let app = OptionSpec("--app", value: .text("BUNDLE-ID"), help: "only this app (else every app with a container on the root)")
    let json = OptionSpec("--json", help: "JSON output")
    let moving = [
        OptionSpec("--working-folder", value: .directory, help: "move into DIR instead of Documents/ (with --app); on another file system files are copied, flushed, then removed from the Inbox"),
        OptionSpec("--allow-sender", value: .text("ID"), repeatable: true, help: "accept only documents whose open request names this sender: an exact bundle identifier, or a prefix ending in a dot (com.example.); repeatable"),
        OptionSpec("--max-size", value: .integer(0...Int64.max), placeholder: "BYTES", help: "refuse larger files (default 4 GiB)"),
        OptionSpec("--log-level", value: .choice(["trace", "debug", "info", "notice", "warning", "error"]), help: "logs on stderr, one logfmt line per event (run: info, else warning)"),
    ]
    return ToolSpec(
        name: "inboxd",
        summary: "moves every complete file out of an app's Documents/Inbox into its Documents/ (or a working folder), and records each move in the app's Library/Manifest.sqlite",
        discussion: [
            "Without --app, every container of the device root (ROOT/Containers/*) is served; inboxd run also serves apps whose container appears while it runs, and starts on an empty root.",
            """
            Guarantees (docs/receiver.md):
            - No loss: the Inbox copy goes away only after the moved file is durable (fsync the file, rename, fsync both folders). A move is journaled before it starts; a crash at any step is completed or rolled back at the next start, without duplicates.
            - Never overwrite: a taken name gets a suffix (name-1.ext, within 255 bytes).
            - One claim per file: several receivers on one Inbox move each file once.
            - Only complete files: a file another process still has open for writing waits.
            - Requests first: a sender writes a document's open request before the document reaches the Inbox, so the sender and annotation are always known when it is judged.
            - Hostile input contained: links are never followed; only regular files with one link, within the size limit, of a type the app opens (CFBundleDocumentTypes, or the rule of the share extension that took it), from an allowed sender are moved; anything else goes to Library/Quarantine with the reason. Nothing is deleted.
            - Set-id and sticky bits are dropped (mode 0644).
            """,
        ],
        verbs: [
            VerbSpec("run", summary: "watch (inotify) and move as files arrive, until SIGTERM or SIGINT", options: moving + [
                OptionSpec("--rescan", value: .number("SECONDS"), help: "a full pass every SECONDS (default 5)"),
            ], operandCount: 0...0),
            VerbSpec("once", summary: "process what is there now, then exit", options: moving, operandCount: 0...0),
            VerbSpec("status", summary: "per app: files waiting, moves stored, quarantined, and moves a crash left unfinished (read-only)", options: [json], operandCount: 0...0),
            VerbSpec("history", summary: "the manifest: every move and refusal, oldest first, with SHA-256 (read-only)", options: [json], operandCount: 0...0),
            VerbSpec("recover", summary: "settle moves a crash interrupted (also done at every start)", options: [json], operandCount: 0...0),
        ],
        options: [root, app],
        examples: [
            ("inboxd run --root Samples", "watch every app's Inbox until SIGTERM"),
            ("inboxd once --root Samples --app com.example.notes", "move what is there now, then exit"),
            ("inboxd run --app com.example.notes --working-folder /mnt/other --allow-sender com.example.", "one app, into another folder, only from com.example.* senders"),
            ("inboxd history --json --root Samples", "every move and refusal, with SHA-256"),
            ("inboxd status --root Samples", "waiting, stored, quarantined, unfinished"),
        ],
        exitStatus: [(0, "done (files left in place are reported)"), (2, "usage errors and failures")],
        seeAlso: ["openin(1)", "uti(1)", "docs/receiver.md"])
}()
