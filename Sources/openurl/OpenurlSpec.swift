import ToolSupport

/// `openurl`'s command line, declared once (parsing, help, man page, completions).
let openurlSpec = ToolSpec(
    name: "openurl",
    summary: "open a URL with the registered app that handles its scheme (an open request in its Library/, then its launch command), answer canOpenURL for an app, or list who claims a scheme and why",
    discussion: [
        "The handler gets Library/OpenRequests/*.plist with URL, SourceApplication and Annotation; its DILaunchCommand runs with %u (the URL; empty when longer than 32 KiB), %s (the sender) and %r (the request file, which always holds the whole URL). Nothing goes through a shell.",
        "Who opens a scheme two apps claim: the user's default (openurl default set), then the app whose bundle identifier is the scheme, then role Editor, Viewer, Shell, then bundle identifier (docs/url-schemes.md).",
        "A scheme no registered app handles (https, mailto) is handed to the desktop: gio open, else xdg-open.",
        "--can answers as canOpenURL does for the sender: exit 0 when an app handles the scheme and the sender lists it among the first 50 entries of LSApplicationQueriesSchemes, exit 1 otherwise. Opening is not gated.",
    ],
    verbs: [
        VerbSpec("default", operands: "set SCHEME BUNDLE-ID | get SCHEME | unset SCHEME | list",
                 summary: "the user's default app for a URL scheme (first in the order)",
                 discussion: ["set checks that the app is registered and handles the scheme."],
                 operandCount: 1...3, subverbs: OpenurlDefaultAction.allCases.map(\.rawValue)),
        VerbSpec("desktop", operands: "sync | remove",
                 summary: "export the root's apps as x-scheme-handler desktop entries running openurl (sync), or remove them",
                 discussion: ["uti register and unregister keep them in sync for the user's default device root; use this verb for another root."],
                 operandCount: 1...1, subverbs: OpenurlDesktopAction.allCases.map(\.rawValue)),
    ],
    options: [
        OptionSpec("--root", value: .directory, help: "the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); it must exist"),
        OptionSpec("--from", value: .bundleIdentifier, help: "the sender (sourceApplication), as it states itself; default org.document-interchange.openurl"),
        OptionSpec("--annotation", value: .text("PLIST"), help: "a property-list value passed to the app (XML, OpenStep, JSON or @FILE)"),
        OptionSpec("--to", value: .bundleIdentifier, help: "open with this app, which must handle the scheme"),
        OptionSpec("--can", help: "answer canOpenURL for --from instead of opening: exit 0 yes, 1 no"),
        OptionSpec("--list", short: "-l", help: "list every app claiming the URL's scheme, in order, instead of opening"),
        OptionSpec("--explain", help: "with --can: the reason; with --list: why each app is where it is"),
        OptionSpec("--json", help: "--list and default list as JSON"),
        OptionSpec("--no-launch", help: "write the open request without starting the app's launch command"),
        OptionSpec("--no-desktop", help: "do not hand schemes no registered app handles to the desktop (exit 1 instead)"),
    ],
    operands: "URL | -",
    examples: [
        ("openurl --root Samples 'person-viewer://x-callback-url/exportPerson?x-source=com.example.person-editor'", "open a URL with the app that handles its scheme"),
        ("printf '%s' \"$URL\" | openurl --root Samples --from com.example.person-editor -", "the URL from standard input (any length)"),
        ("openurl --root Samples --can --explain --from com.example.person-editor person-viewer://", "canOpenURL, with the reason"),
        ("openurl --root Samples --list --explain person-viewer:", "every app claiming the scheme, in order, and why"),
        ("openurl --root Samples default set person-viewer com.example.person-viewer", "the user's choice for a contested scheme"),
        ("openurl https://example.org/", "a scheme no registered app handles: the desktop's browser"),
    ],
    exitStatus: [(0, "opened, can open, or listed"), (1, "no app handles the scheme, or canOpenURL says no"), (2, "usage errors and failures")],
    seeAlso: ["openin(1)", "uti(1)", "inboxd(1)", "docs/url-schemes.md"])
