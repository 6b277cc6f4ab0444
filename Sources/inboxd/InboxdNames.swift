import ToolSupport

/// `inboxd`'s options as the command line types them (``ToolSupport/OptionName``): the code reads
/// them only through this enum, and `inboxd --check-names` checks it against ``inboxdSpec``.
enum InboxdOption: String, OptionName {
    case root = "--root"
    case app = "--app"
    case json = "--json"
    case workingFolder = "--working-folder"
    case allowSender = "--allow-sender"
    case maxSize = "--max-size"
    case logLevel = "--log-level"
    case rescan = "--rescan"
}

/// `inboxd`'s verbs (``ToolSupport/VerbName``): switched over exhaustively.
enum InboxdVerb: String, VerbName {
    case run
    case once
    case status
    case history
    case recover
}

/// `inboxd`'s command line, read through its names.
typealias InboxdCommand = ToolCommand<InboxdOption, InboxdVerb>
