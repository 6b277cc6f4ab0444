import ToolSupport

/// `openurl`'s options as the command line types them (``ToolSupport/OptionName``): the code reads
/// them only through this enum, and `openurl --check-names` checks it against ``openurlSpec``.
enum OpenurlOption: String, OptionName {
    case root = "--root"
    case from = "--from"
    case annotation = "--annotation"
    case to = "--to"
    case can = "--can"
    case list = "--list"
    case explain = "--explain"
    case json = "--json"
    case noLaunch = "--no-launch"
    case noDesktop = "--no-desktop"
}

/// `openurl`'s verbs (``ToolSupport/VerbName``): switched over exhaustively.
enum OpenurlVerb: String, VerbName {
    case `default`
    case desktop
}

/// `openurl`'s command line, read through its names.
typealias OpenurlCommand = ToolCommand<OpenurlOption, OpenurlVerb>

/// What `openurl default` does (its subverbs), named once for the spec and the switch.
enum OpenurlDefaultAction: String, CaseIterable {
    case set, get, unset, list
}

/// What `openurl desktop` does.
enum OpenurlDesktopAction: String, CaseIterable {
    case sync, remove
}
