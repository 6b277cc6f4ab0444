import ToolSupport

/// `plutil`'s command line, declared once (parsing, help, man page, completions), in Apple's
/// grammar: one command option (`-lint` when none), its values right after it, other options,
/// then the files.
let plutilSpec: ToolSpec = {
    let format = ValueKind.choice(["xml1", "binary1", "json"])
    let expect = OptionSpec("-expect", value: .text("TYPE"), help: "fail unless the value is of TYPE")
    let value = ArgumentSpec("-TYPE VALUE", .typedValue(withText: ["-bool", "-integer", "-float", "-string", "-date", "-data", "-xml", "-json"],
                                                       bare: ["-dictionary", "-array"]))
    var spec = ToolSpec(
        name: "plutil",
        summary: "check, print, convert and edit property lists, as Apple's plutil does",
        discussion: [
            "The file '-' means standard input. Formats read: XML, binary (bplist00), OpenStep/.strings text and JSON, chosen by the first bytes; -lint checks property lists only, not JSON (as Apple's plutil). JSON has no date, data or UID: converting such values to json fails and names them.",
            "Key paths separate keys with '.'; a number indexes an array; '\\.' is a literal dot.",
            "Value types: -bool YES|NO|true|false (any case), -integer N (decimal or 0x hex), -float N, -string S, -date YYYY-MM-DDTHH:MM:SSZ, -data BASE64, -xml PLIST, -json JSON, -dictionary, -array.",
        ],
        verbs: [
            VerbSpec("-lint", summary: "check the property list files for syntax errors (the default)"),
            VerbSpec("-p", summary: "print a property list in a human-readable form (not stable)"),
            VerbSpec("-convert", arguments: [ArgumentSpec("FORMAT", format)], summary: "rewrite property list files in FORMAT: xml1, binary1 or json"),
            VerbSpec("-insert", arguments: [ArgumentSpec("KEYPATH", .text("KEYPATH")), value], summary: "insert a value at KEYPATH",
                     options: [OptionSpec("-append", help: "add the value to the end of the array at KEYPATH")]),
            VerbSpec("-replace", arguments: [ArgumentSpec("KEYPATH", .text("KEYPATH")), value], summary: "set the value at KEYPATH, adding it if absent"),
            VerbSpec("-remove", arguments: [ArgumentSpec("KEYPATH", .text("KEYPATH"))], summary: "remove the value at KEYPATH"),
            VerbSpec("-extract", arguments: [ArgumentSpec("KEYPATH", .text("KEYPATH")), ArgumentSpec("FORMAT", .choice(["xml1", "binary1", "json", "raw"]))],
                     summary: "write the value at KEYPATH as a plist of FORMAT (xml1, binary1, json or raw)",
                     options: [expect, OptionSpec("-n", help: "with raw, do not print a terminating newline")]),
            VerbSpec("-type", arguments: [ArgumentSpec("KEYPATH", .text("KEYPATH"))], summary: "print the type of the value at KEYPATH",
                     options: [expect]),
            VerbSpec("-create", arguments: [ArgumentSpec("FORMAT", format)], summary: "create an empty property list of FORMAT"),
            VerbSpec("-help", summary: "show this message and exit", operandCount: 0...0, aliases: ["-h"]),
        ],
        options: [
            OptionSpec("-unarchive", help: "read files as NSKeyedArchiver archives: the commands see $top with references resolved and each $class as its name; alone, it prints that as XML"),
            OptionSpec("-s", help: "be silent on success"),
            OptionSpec("-o", value: .file, placeholder: "PATH", help: "write the result to PATH ('-' is standard output)"),
            OptionSpec("-e", value: .text("EXTENSION"), help: "use this extension for converted files"),
            OptionSpec("-r", help: "with json, write indented"),
        ],
        operands: "FILE...",
        examples: [
            ("plutil -lint App/Info.plist", "App/Info.plist: OK (exit 1 if any file fails)"),
            ("plutil -convert binary1 -o Info.bin App/Info.plist", "write a binary copy"),
            ("plutil -extract CFBundleDocumentTypes.0.LSItemContentTypes json -o - App/Info.plist", "one value as JSON"),
            ("plutil -insert CFBundleDocumentTypes.0.LSHandlerRank -string Owner App/Info.plist", "edit in place"),
            ("plutil -unarchive -convert json -r -o - package.archive", "a keyed archive's objects as JSON"),
        ],
        exitStatus: [(0, "success"), (1, "a file failed, or the command line is wrong")],
        seeAlso: ["uti(1)", "docs/property-lists.md", "docs/keyed-archives.md"])
    spec.usageErrorStatus = 1
    spec.helpWord = false
    return spec
}()
