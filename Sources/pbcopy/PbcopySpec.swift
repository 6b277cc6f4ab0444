import ToolSupport

/// `pbcopy`'s command line, declared once (parsing, help, man page, completions).
let pbcopySpec = ToolSpec(
    name: "pbcopy",
    summary: "copies standard input to a pasteboard (the general pasteboard unless -pboard names another)",
    discussion: [
        "The input is stored as UTF-8 plain text (public.utf8-plain-text) unless it starts with the Rich Text Format header ({\\rtf: public.rtf) or the Encapsulated PostScript header (com.adobe.encapsulated-postscript), or --type names the type. Text in another encoding than UTF-8 (from LC_ALL, LC_CTYPE or LANG: ISO-8859-1) is converted to UTF-8.",
        "A named pasteboard that does not exist is created, persistent and visible to every app. Each copy replaces the pasteboard's items and adds one to its change count; concurrent copies and pastes never see half an item set (docs/pasteboards.md).",
        "With pasteboardd running on a desktop, the general pasteboard is the desktop clipboard too.",
    ],
    options: [
        OptionSpec("-pboard", value: .text("NAME"), help: "general (default), find, font, ruler, or the name of a named pasteboard"),
        OptionSpec("--type", value: .text("UTI"), help: "store the input as it is under this type"),
        OptionSpec("--expires", value: .number("SECONDS"), help: "the pasteboard reads as empty after SECONDS (expirationDate)"),
        OptionSpec("--local-only", help: "keep it off the desktop clipboard (localOnly)"),
        OptionSpec("--change-count", help: "print the pasteboard's new change count"),
        OptionSpec("--root", value: .directory, help: "the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)"),
    ],
    operands: "",
    examples: [
        ("echo hello | pbcopy", "hello on the general pasteboard"),
        ("pbcopy -pboard find < term.txt", "the find pasteboard"),
        ("pbcopy -pboard com.example.transfer --type com.example.datapackage < package.bin", "an archived data package on a named pasteboard"),
        ("pbcopy --expires 60 --local-only < secret.txt", "gone in a minute, never on the desktop clipboard"),
    ],
    exitStatus: [(0, "copied"), (1, "the pasteboard could not be written"), (2, "usage errors")],
    seeAlso: ["pbpaste(1)", "pasteboardd(1)", "docs/pasteboards.md"])
