import AppRegistry
import ToolSupport

/// `uti`'s command line, declared once (parsing, help, man page, completions).
let utiSpec: ToolSpec = {
    let json = OptionSpec("--json", help: "JSON output with Apple's names (identifier, conformsTo, tags, preferredFilenameExtension, …)")
    let quiet = OptionSpec("--quiet", short: "-q", help: "print nothing; answer by exit status (conforms), or no report (register, rebuild)")
    let conformingTo = OptionSpec("--conforming-to", value: .text("TYPE"), help: "only types conforming to TYPE (default public.data)")
    let all = OptionSpec("--all", help: "every type claiming the tag, best first")
    let define = OptionSpec("--define", short: "-D", value: .text("NAME=VALUE"), repeatable: true,
                            help: "a build variable's value, substituted for $(NAME) and ${NAME} (repeatable)")
    return ToolSpec(
        name: "uti",
        summary: "Uniform Type Identifiers on Linux, with Apple's semantics: queries and the type registry of a device root",
        discussion: [
            "The registry is compiled from the system catalog (UTIs/, found beside the installed tool or in the build tree), the machine's shared MIME database and the apps registered on the device root, and rebuilt when any of them changes (docs/types.md).",
        ],
        verbs: [
            VerbSpec("conforms", operands: "A B", summary: "exit 0 when A conforms to B, 1 when not, 2 on error; prints true or false",
                     options: [quiet], operandCount: 2...2),
            VerbSpec("info", operands: "[ID]", summary: "identifier, description, declared/dynamic/public, parents, supertypes, tags, source",
                     options: [json, OptionSpec("--extension", value: .text("EXT"), help: "the type for this filename extension"),
                               OptionSpec("--mime", value: .text("TYPE"), help: "the type for this MIME type"),
                               OptionSpec("--file", value: .file, help: "the type of this file")],
                     operandCount: 0...1),
            VerbSpec("for-extension", operands: "EXT...", summary: "the type for each extension, one per line (a dynamic type when none is declared)",
                     options: [conformingTo, all, json], operandCount: 1...Int.max),
            VerbSpec("for-mime", operands: "TYPE...", summary: "the type for each MIME type", options: [conformingTo, all, json], operandCount: 1...Int.max),
            VerbSpec("for-file", operands: "PATH...", summary: "the type of each file as GIO judges it, from the shared MIME database's globs and magic: by name, by content, or both",
                     options: [OptionSpec("--explain", help: "the rule that decided"),
                               OptionSpec("--mime", help: "print the MIME type the chosen type prefers instead of its identifier"),
                               OptionSpec("--by", value: .choice(["name", "content", "both"]), help: "judge by name only, by content only, or both (default)"),
                               json],
                     operandCount: 1...Int.max),
            VerbSpec("tree", operands: "ID", summary: "the supertypes of ID as a tree", options: [json], operandCount: 1...1),
            VerbSpec("subtypes", operands: "ID", summary: "every known type that conforms to ID", options: [json], operandCount: 1...1),
            VerbSpec("graph", operands: "[ID...]", summary: "the conformance graph of the IDs and their supertypes (of every type when none), for Graphviz",
                     options: [OptionSpec("--format", value: .choice(["dot", "svg"]), help: "dot (default), or svg through Graphviz's dot")]),
            VerbSpec("lint", operands: "PLIST...", summary: "check Info.plists (and *.entitlements files) as the toolkit reads them: FILE:LINE:COLUMN: error|warning: message [key path] (rule); exit 1 on errors",
                     discussion: ["Findings of one cause are gathered into one. The rules: " + LintRule.allCases.map(\.rawValue).joined(separator: ", ") + "."],
                     options: [define, OptionSpec("--ignore", value: .choice(LintRule.allCases.map(\.rawValue)), placeholder: "RULE", repeatable: true,
                                                  help: "do not report this rule (repeatable)"), json],
                     operandCount: 1...Int.max),
            VerbSpec("register", operands: "BUNDLE|INFO.PLIST...", summary: "register apps on the device root (a link in ROOT/Apps named by CFBundleIdentifier; a property list without one is refused), then rebuild",
                     options: [define, quiet, OptionSpec("--create-root", help: "create the named device root (--root or $DOCUMENT_INTERCHANGE_ROOT) when it does not exist; the user's default root is always created")],
                     operandCount: 1...Int.max),
            VerbSpec("unregister", operands: "NAME...", summary: "remove registrations, then rebuild", options: [quiet], operandCount: 1...Int.max),
            VerbSpec("rebuild", summary: "rebuild the compiled registry and report problems in the sources", options: [quiet], operandCount: 0...0),
            VerbSpec("dump", summary: "every type with its declaration, then the registry's diagnostics", options: [json], operandCount: 0...0),
            VerbSpec("completions", operands: "bash|zsh|fish", summary: "a shell completion script", operandCount: 1...1),
        ],
        options: [OptionSpec("--root", value: .directory, help: "the device root (else $DOCUMENT_INTERCHANGE_ROOT, else the XDG data folder); a named root must exist (register --create-root makes one)")],
        examples: [
            ("uti conforms public.png public.data", "true; exit 0"),
            ("uti info --extension yaml --json", "Apple's names for the YAML type"),
            ("uti for-extension md srt --conforming-to public.text", "one identifier per line"),
            ("uti for-file --explain scan.bin notes", "by name, else by content, with the rule that decided"),
            ("uti lint --ignore missing-rank App/Info.plist", "check an Info.plist, one rule silenced"),
            ("uti --root Samples register --define PRODUCT_BUNDLE_IDENTIFIER=com.example.app path/to/My.app", "register an app as built"),
            ("uti graph public.svg-image --format dot | dot -Tpng > graph.png", "draw the conformance graph"),
        ],
        exitStatus: [(0, "success (conforms: true)"), (1, "conforms: false; lint: errors found"), (2, "usage errors and failures")],
        seeAlso: ["openin(1)", "plutil(1)", "docs/types.md", "docs/catalog.md"])
}()
