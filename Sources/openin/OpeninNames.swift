import ToolSupport

/// `openin`'s options as the command line types them (``ToolSupport/OptionName``): the code reads
/// them only through this enum, and `openin --check-names` checks it against ``openinSpec``.
enum OpeninOption: String, OptionName {
    case idleExit = "--idle-exit"
    case root = "--root"
    case list = "--list"
    case dialog = "--dialog"
    case nearby = "--nearby"
    case json = "--json"
    case explain = "--explain"
    case all = "--all"
    case to = "--to"
    case activity = "--activity"
    case exclude = "--exclude"
    case from = "--from"
    case annotation = "--annotation"
    case destination = "--destination"
    case noLaunch = "--no-launch"
    case desktopApps = "--desktop-apps"
    case noDesktopApps = "--no-desktop-apps"
    case gio = "--gio"
}

/// `openin`'s verbs (``ToolSupport/VerbName``): switched over exhaustively.
enum OpeninVerb: String, VerbName {
    case `default`
    case watch
}

/// `openin`'s command line, read through its names.
typealias OpeninCommand = ToolCommand<OpeninOption, OpeninVerb>

/// What `openin default` does (its subverbs), named once for the spec and the switch.
enum OpeninDefaultAction: String, CaseIterable {
    case set, get, unset, list
}
