import ToolSupport

/// `pbcopy`'s options as the command line types them (``ToolSupport/OptionName``): the code reads
/// them only through this enum, and `pbcopy --check-names` checks it against ``pbcopySpec``.
enum PbcopyOption: String, OptionName {
    case pboard = "-pboard"
    case type = "--type"
    case expires = "--expires"
    case localOnly = "--local-only"
    case changeCount = "--change-count"
    case root = "--root"
}

extension ParsedCommand {
    /// The value of a `pbcopy` option (the last one given).
    subscript(_ option: PbcopyOption) -> String? { lastValue(option) }
    /// Whether a `pbcopy` flag (or option) was given.
    func flag(_ option: PbcopyOption) -> Bool { isGiven(option) }
    /// Every value of a repeatable `pbcopy` option.
    func all(_ option: PbcopyOption) -> [String] { allValues(option) }
}
