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

/// `pbpaste`'s command line, read through its names.
typealias PbpasteCommand = ToolCommand<PbpasteOption, NoVerbs>
