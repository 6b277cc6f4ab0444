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

/// `pbcopy`'s command line, read through its names.
typealias PbcopyCommand = ToolCommand<PbcopyOption, NoVerbs>
