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

extension ParsedCommand {
    /// The value of a `notifyutil` option (the last one given).
    subscript(_ option: NotifyutilOption) -> String? { lastValue(option) }
    /// Whether a `notifyutil` flag (or option) was given.
    func flag(_ option: NotifyutilOption) -> Bool { isGiven(option) }
    /// Every value of a repeatable `notifyutil` option.
    func all(_ option: NotifyutilOption) -> [String] { allValues(option) }
}
