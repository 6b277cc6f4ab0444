import ToolSupport

/// `pasteboardd`'s command line, declared once (parsing, help, man page, completions).
let pasteboarddSpec = ToolSpec(
    name: "pasteboardd",
    summary: "keeps the general pasteboard and the desktop clipboard (X11 or Wayland) the same, both ways, and keeps copied data after its owner exits",
    discussion: [
        """
        What it does (docs/pasteboards.md):
        - A copy to the general pasteboard (pbcopy, an app) is offered on the desktop clipboard under the MIME types the type registry gives each representation (UTF-8 text also as UTF8_STRING, TEXT and STRING). Items copied --local-only are not; an expired copy is withdrawn.
        - A copy in a desktop program is read in every type it offers and written to the general pasteboard as one item (MIME types become type identifiers through the registry).
        - When the program that owned the clipboard exits, pasteboardd takes the clipboard with the copied data, as a clipboard manager does.
        - From time to time, named pasteboards whose creator's processes have all ended are removed.
        """,
    ],
    verbs: [
        VerbSpec("run", summary: "bridge until SIGTERM or SIGINT (or until the display goes away)", options: [
            OptionSpec("--backend", value: .choice(["auto", "x11", "wayland"]), help: "auto (default): Wayland when WAYLAND_DISPLAY is set, else X11"),
            OptionSpec("--display", value: .text("NAME"), help: "the display (else DISPLAY or WAYLAND_DISPLAY)"),
            OptionSpec("--timeout", value: .number("SECONDS"), help: "give up when the display has not answered the connection after SECONDS (default 10)"),
            OptionSpec("--log-level", value: .choice(["trace", "debug", "info", "notice", "warning", "error"]), help: "logs on stderr, one logfmt line per event (default info)"),
        ], operandCount: 0...0),
    ],
    options: [OptionSpec("--root", value: .directory, help: "the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)")],
    examples: [
        ("pasteboardd run &", "bridge the session's display"),
        ("pasteboardd run --backend x11 --display :1", "one X display"),
    ],
    exitStatus: [(0, "stopped by a signal"), (1, "no display, a display that did not answer in time, or the display went away"), (2, "usage errors")],
    seeAlso: ["pbcopy(1)", "pbpaste(1)", "docs/pasteboards.md"])
