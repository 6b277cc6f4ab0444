import ToolSupport

/// `pbpaste`'s command line, declared once (parsing, help, man page, completions).
let pbpasteSpec = ToolSpec(
    name: "pbpaste",
    summary: "writes a pasteboard's text to standard output (the general pasteboard unless -pboard names another)",
    discussion: [
        "pbpaste looks for plain text first (any type conforming to public.plain-text, UTF-8 text first), then Encapsulated PostScript, then Rich Text; -Prefer puts one of them first. With none of them on the pasteboard it writes nothing. Text is written in the locale's encoding (LC_ALL, LC_CTYPE or LANG; UTF-8 when none is set).",
        "--type writes the first representation answering a type, through conformance (--type public.text finds public.utf8-plain-text), byte for byte. --types and --change-count describe the pasteboard instead of pasting.",
    ],
    options: [
        OptionSpec("-pboard", value: .text("NAME"), help: "general (default), find, font, ruler, or the name of a named pasteboard"),
        OptionSpec("-Prefer", value: .choice(["txt", "rtf", "ps"]), help: "which kind of data to look for first"),
        OptionSpec("--type", value: .text("UTI"), help: "write the representation answering this type, as it is"),
        OptionSpec("--types", help: "list each item's types, one item a line, tab-separated"),
        OptionSpec("--change-count", help: "print the change count"),
        OptionSpec("--root", value: .directory, help: "the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)"),
    ],
    operands: "",
    examples: [
        ("pbpaste", "the general pasteboard's text"),
        ("pbpaste -Prefer rtf > copied.rtf", "rich text if there is some"),
        ("pbpaste -pboard com.example.transfer --type com.example.datapackage > package.bin", "a named pasteboard's data package"),
        ("pbpaste --types", "what is there, by type"),
    ],
    exitStatus: [(0, "written (also nothing, when no text is there)"), (1, "no such pasteboard, no representation of --type, or a read error"),
                 (2, "usage errors")],
    seeAlso: ["pbcopy(1)", "pasteboardd(1)", "docs/pasteboards.md"])
