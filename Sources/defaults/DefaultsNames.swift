import ToolSupport

/// `defaults`'s options as the command line types them (``ToolSupport/OptionName``): the code reads
/// them only through this enum, and `defaults --check-names` checks it against ``defaultsSpec``.
enum DefaultsOption: String, OptionName {
    case root = "--root"
    case string = "-string"
    case int = "-int"
    case integer = "-integer"
    case float = "-float"
    case bool = "-bool"
    case boolean = "-boolean"
    case date = "-date"
    case data = "-data"
    case array = "-array"
    case arrayAdd = "-array-add"
    case dict = "-dict"
    case dictAdd = "-dict-add"
    case newDomain = "--new-domain"
}

/// `defaults`'s verbs (``ToolSupport/VerbName``): switched over exhaustively.
enum DefaultsVerb: String, VerbName {
    case read
    case readType = "read-type"
    case write
    case delete
    case rename
    case domains
    case find
    case export
    case `import`
}

/// `defaults`'s command line, read through its names.
typealias DefaultsCommand = ToolCommand<DefaultsOption, DefaultsVerb>
