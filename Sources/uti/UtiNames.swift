import ToolSupport

/// `uti`'s options as the command line types them (``ToolSupport/OptionName``): the code reads
/// them only through this enum, and `uti --check-names` checks it against ``utiSpec``.
enum UtiOption: String, OptionName {
    case json = "--json"
    case quiet = "--quiet"
    case conformingTo = "--conforming-to"
    case all = "--all"
    case define = "--define"
    case `extension` = "--extension"
    case mime = "--mime"
    case file = "--file"
    case explain = "--explain"
    case by = "--by"
    case format = "--format"
    case ignore = "--ignore"
    case createRoot = "--create-root"
    case root = "--root"
}

/// `uti`'s verbs (``ToolSupport/VerbName``): switched over exhaustively.
enum UtiVerb: String, VerbName {
    case conforms
    case info
    case forExtension = "for-extension"
    case forMime = "for-mime"
    case forFile = "for-file"
    case tree
    case subtypes
    case graph
    case lint
    case register
    case unregister
    case rebuild
    case dump
    case completions
}

/// `uti`'s command line, read through its names.
typealias UtiCommand = ToolCommand<UtiOption, UtiVerb>
