import ToolSupport

/// `pbpaste`'s options as the command line types them (``ToolSupport/OptionName``): the code reads
/// them only through this enum, and `pbpaste --check-names` checks it against ``pbpasteSpec``.
enum PbpasteOption: String, OptionName {
    case pboard = "-pboard"
    case Prefer = "-Prefer"
    case type = "--type"
    case types = "--types"
    case changeCount = "--change-count"
    case root = "--root"
}

extension ParsedCommand {
    /// The value of a `pbpaste` option (the last one given).
    subscript(_ option: PbpasteOption) -> String? { lastValue(option) }
    /// Whether a `pbpaste` flag (or option) was given.
    func flag(_ option: PbpasteOption) -> Bool { isGiven(option) }
    /// Every value of a repeatable `pbpaste` option.
    func all(_ option: PbpasteOption) -> [String] { allValues(option) }
}
