import ToolSupport

/// `plutil`'s options as the command line types them (``ToolSupport/OptionName``): the code reads
/// them only through this enum, and `plutil --check-names` checks it against ``plutilSpec``.
enum PlutilOption: String, OptionName {
    case expect = "-expect"
    case append = "-append"
    case omitNewline = "-n"
    case unarchive = "-unarchive"
    case silent = "-s"
    case output = "-o"
    case outputExtension = "-e"
    case humanReadable = "-r"
}

/// `plutil`'s verbs (``ToolSupport/VerbName``): switched over exhaustively.
enum PlutilVerb: String, VerbName {
    case lint = "-lint"
    case print = "-p"
    case convert = "-convert"
    case insert = "-insert"
    case replace = "-replace"
    case remove = "-remove"
    case extract = "-extract"
    case type = "-type"
    case create = "-create"
    case help = "-help"
}

/// `plutil`'s command line, read through its names.
typealias PlutilCommand = ToolCommand<PlutilOption, PlutilVerb>
