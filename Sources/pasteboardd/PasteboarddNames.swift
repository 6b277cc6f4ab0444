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

extension ParsedCommand {
    /// The value of a `pasteboardd` option (the last one given).
    subscript(_ option: PasteboarddOption) -> String? { lastValue(option) }
    /// Whether a `pasteboardd` flag (or option) was given.
    func flag(_ option: PasteboarddOption) -> Bool { isGiven(option) }
    /// Every value of a repeatable `pasteboardd` option.
    func all(_ option: PasteboarddOption) -> [String] { allValues(option) }
}
