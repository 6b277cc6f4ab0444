import ToolSupport

/// `notifyutil`'s options as the command line types them (``ToolSupport/OptionName``): the code reads
/// them only through this enum, and `notifyutil --check-names` checks it against ``notifyutilSpec``.
enum NotifyutilOption: String, OptionName {
    case signal = "-signal"
    case count = "-#"
    case set = "-s"
    case post = "-p"
    case get = "-g"
    case watch = "-w"
    case quiet = "-q"
    case verbose = "-v"
    case pause = "-z"
    case multiplex = "-M"
    case regenerate = "-R"
    case port = "-port"
    case file = "-file"
    case check = "-check"
    case plain = "-plain"
    case dispatch = "-dispatch"
}

/// `notifyutil`'s command line, read through its names.
typealias NotifyutilCommandLine = ToolCommand<NotifyutilOption, NoVerbs>
