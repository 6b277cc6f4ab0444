import SharedDefaults
import ToolSupport

/// `defaults`' command line, declared once (parsing, help, man page, completions), in Apple's
/// grammar: `defaults VERB DOMAIN [KEY] [-TYPE VALUE]`.
let defaultsSpec: ToolSpec = {
    let root = OptionSpec("--root", value: .directory, help: "the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder)")
    let typed = [
        OptionSpec("-string", value: .text("STRING"), repeatable: true, help: "a string"),
        OptionSpec("-int", value: .text("N"), repeatable: true, help: "an integer (also -integer)"),
        OptionSpec("-integer", value: .text("N"), repeatable: true, help: "an integer"),
        OptionSpec("-float", value: .text("N"), repeatable: true, help: "a real number"),
        OptionSpec("-bool", value: .text("YES|NO"), repeatable: true, help: "a boolean: YES, NO, true, false, 1 or 0 (also -boolean)"),
        OptionSpec("-boolean", value: .text("YES|NO"), repeatable: true, help: "a boolean"),
        OptionSpec("-date", value: .text("DATE"), repeatable: true, help: "a date: 2026-11-24T03:00:00Z or '2026-11-24 03:00:00 +0000'"),
        OptionSpec("-data", value: .text("HEX"), repeatable: true, help: "bytes, in hexadecimal"),
    ]
    let collections = [
        OptionSpec("-array", help: "the value is an array of the words that follow (strings, or typed: -int 3)"),
        OptionSpec("-array-add", help: "append the words that follow to the array at KEY"),
        OptionSpec("-dict", help: "the value is a dictionary of the KEY VALUE pairs that follow"),
        OptionSpec("-dict-add", help: "add the KEY VALUE pairs that follow to the dictionary at KEY"),
    ]
    let newDomain = OptionSpec("--new-domain", help: "create the domain when it is neither a registered app, an App Group one of them is in, nor a domain that holds defaults (a typo creates nothing)")
    return ToolSpec(
        name: "defaults",
        summary: "read, write and delete the defaults of apps and App Groups on a device root, as Apple's defaults does",
        discussion: [
            "A domain is an app's bundle identifier (its container's Library/Preferences/ID.plist) or an App Group identifier, group.… (the group container's Library/Preferences/GROUP-ID.plist). Apps and their extensions read the same values through the SharedDefaults library while they run: a write here is seen by them at once, and by them only.",
            "Output is Apple's: read prints the old-style description ({ key = value; }), read-type prints 'Type is string', domains a comma-separated list. A value without a type is an old-style plist ('(a, b)', '{ k = v; }'); a bare word, even 1, is a string.",
            "Every change is merged into the domain's property list and flushed to the disk before defaults exits (docs/app-groups.md).",
        ],
        verbs: [
            VerbSpec("read", operands: "[DOMAIN [KEY]]", summary: "print every domain, a domain, or one key", operandCount: 0...2),
            VerbSpec("read-type", operands: "DOMAIN KEY", summary: "print the type of a key's value: Type is string|integer|float|boolean|date|data|array|dictionary", operandCount: 2...2),
            VerbSpec("write", operands: "DOMAIN {PLIST | KEY VALUE}", summary: "write a key (typed with -string, -int, -float, -bool, -date, -data, -array, -array-add, -dict, -dict-add), or replace the domain with a plist",
                     options: typed + collections + [newDomain], operandCount: 2...Int.max),
            VerbSpec("delete", operands: "DOMAIN [KEY]", summary: "remove a key, or the whole domain", operandCount: 1...2),
            VerbSpec("rename", operands: "DOMAIN OLD NEW", summary: "rename a key, keeping its value", operandCount: 3...3),
            VerbSpec("domains", summary: "list the domains that hold defaults, comma-separated", operandCount: 0...0),
            VerbSpec("find", operands: "WORD", summary: "print every key whose name or value contains WORD (any case), by domain", operandCount: 1...1),
            VerbSpec("export", operands: "DOMAIN PATH", summary: "write the domain as an XML property list to PATH ('-': standard output)", operandCount: 2...2),
            VerbSpec("import", operands: "DOMAIN PATH", summary: "replace the domain with the dictionary of the property list at PATH ('-': standard input)",
                     options: [newDomain], operandCount: 2...2),
        ],
        options: [root],
        examples: [
            ("defaults write group.com.example.notes Note -string 'Buy milk'", "set a string in a group's shared defaults"),
            ("defaults read group.com.example.notes", "{ Note = \"Buy milk\"; }"),
            ("defaults write com.example.notes Tags -array work home", "an array of strings"),
            ("defaults read-type com.example.notes Tags", "Type is array"),
            ("defaults export group.com.example.notes -", "the domain as an XML plist"),
        ],
        exitStatus: [(0, "success"), (1, "the domain or key does not exist, or the change failed"), (2, "usage errors")],
        seeAlso: ["plutil(1)", "docs/app-groups.md"])
}()
