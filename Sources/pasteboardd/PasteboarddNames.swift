import ToolSupport

/// `pasteboardd`'s options as the command line types them (``ToolSupport/OptionName``): the code reads
/// them only through this enum, and `pasteboardd --check-names` checks it against ``pasteboarddSpec``.
enum PasteboarddOption: String, OptionName {
    case backend = "--backend"
    case display = "--display"
    case timeout = "--timeout"
    case logLevel = "--log-level"
    case root = "--root"
}

/// `pasteboardd`'s verbs (``ToolSupport/VerbName``): switched over exhaustively.
enum PasteboarddVerb: String, VerbName {
    case run
}

/// `pasteboardd`'s command line, read through its names.
typealias PasteboarddCommand = ToolCommand<PasteboarddOption, PasteboarddVerb>
