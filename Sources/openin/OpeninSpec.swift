import AppRegistry
import ToolSupport

/// `openin`'s command line, declared once (parsing, help, man page, completions).
let openinSpec = ToolSpec(
    name: "openin",
    summary: "which apps and activities can take these documents, in what order and why; and hand them over (into the chosen app's Documents/Inbox, with an open request in its Library/)",
    discussion: [
        "Keys in the sheet: arrows or j/k to move, PgUp/PgDn to page, a number then Enter to choose, Enter to choose the highlighted row, q or Esc to cancel.",
        "The order (the user's default, specific before wildcard claims, rank, distance, Editor before Viewer, name), the activities, the Inbox delivery and the launch key DILaunchCommand are in docs/handlers.md.",
        "Linux desktop applications (XDG_DATA_HOME and XDG_DATA_DIRS applications/, mimeapps.list) are offered beside registered apps, by desktop-file ID, and started as GIO starts them: docs/desktop-apps.md.",
    ],
    verbs: [
        VerbSpec("default", operands: "set TYPE BUNDLE-ID | get TYPE | unset TYPE | list",
                 summary: "the user's default app for a type (and its subtypes)",
                 discussion: ["set checks that TYPE is a known type identifier (an extension or MIME type is answered with the type it stands for) and that the app can open it."],
                 operandCount: 1...3),
        VerbSpec("watch", operands: "",
                 summary: "keep watching this session's desktop applications and associations, so that queries need not look at every .desktop file (runs until stopped; the user unit openin-watch.service runs it)",
                 discussion: ["A query asks the watcher whether anything changed since its index was last checked; without a watcher it looks at every file itself, with the same answers. One watcher per user and set of XDG folders: a second one exits with status 2. docs/desktop-apps.md."],
                 operandCount: 0...0),
    ],
    options: [
        OptionSpec("--root", value: .directory, help: "the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); it must exist"),
        OptionSpec("--list", short: "-l", help: "print the sheet instead of showing it"),
        OptionSpec("--json", help: "the sheet (or default list) as JSON"),
        OptionSpec("--explain", help: "why each app is eligible and ranks where it does"),
        OptionSpec("--all", help: "also the apps that are not eligible, and why"),
        OptionSpec("--to", value: .text("BUNDLE-ID"), help: "deliver to that app without asking"),
        OptionSpec("--activity", value: .text("TYPE"), help: "perform that activity without asking (copy-to-folder, save-to-sender, print, copy-to-clipboard, or a share extension's identifier)"),
        OptionSpec("--exclude", value: .text("ID"), repeatable: true, help: "leave out an app or activity type (repeatable)"),
        OptionSpec("--from", value: .text("BUNDLE-ID"), help: "the sender (sourceApplication); default org.document-interchange.openin"),
        OptionSpec("--annotation", value: .text("PLIST"), help: "a property-list value passed to the app (XML, OpenStep or @FILE)"),
        OptionSpec("--destination", value: .directory, help: "the folder for copy-to-folder (~ is expanded; it must exist)"),
        OptionSpec("--no-launch", help: "deliver without starting the app's launch command (DILaunchCommand)"),
        OptionSpec("--desktop-apps", help: "also offer this machine's Linux desktop applications (.desktop files, mimeapps.list) with --root; they are offered without --root"),
        OptionSpec("--no-desktop-apps", help: "offer registered apps only"),
        OptionSpec("--gio", help: "order the desktop applications and choose the default as GIO does (gio mime, gio open)"),
    ],
    operands: "FILE...",
    examples: [
        ("openin --root Samples Samples/Documents/file.person", "the sheet for a document, on a terminal"),
        ("openin --root Samples --list --explain --all Samples/Documents/file.person", "every app, in order, and why"),
        ("openin --to com.example.person-viewer --from com.example.person-editor file.person", "deliver without asking"),
        ("openin --activity copy-to-folder --destination ~/Desktop a.png b.png", "copy into a folder"),
        ("openin default set public.plain-text com.example.notes", "make Notes the default for text"),
        ("openin default list", "every default the user set"),
        ("openin --list --explain report.pdf", "the installed Linux apps for a PDF, where each came from and why"),
        ("openin --gio --list report.pdf", "the same in GIO's order, with GIO's default first"),
        ("openin watch &", "queries trust the desktop-app index while nothing changes"),
    ],
    exitStatus: [(0, "delivered or listed"), (1, "nothing can take the documents, or the sheet was cancelled"), (2, "usage errors and failures")],
    seeAlso: ["uti(1)", "inboxd(1)", "docs/handlers.md"])
