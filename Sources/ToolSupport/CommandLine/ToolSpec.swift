/// One tool's command line, declared once: parsing (``ToolSpec/parse(_:)``), `--help` and
/// `help VERB` (``HelpText``), the man page (``ManPage``) and the bash, zsh and fish completions
/// (``Completions``) all come from this declaration. (The idea of swift-argument-parser, in a
/// table: that library's start-up cost would be most of a query process.)
package struct ToolSpec: Sendable {
    /// The command's name.
    package var name: String
    /// One line: what the tool does.
    package var summary: String
    /// Paragraphs for `--help` and the man page's DESCRIPTION (guarantees, rules).
    package var discussion: [String]
    /// The verbs; empty for a tool without verbs.
    package var verbs: [VerbSpec]
    /// Options accepted everywhere (before or after the verb).
    package var options: [OptionSpec]
    /// The operands of the tool itself when it has no verb or none is given (`FILE...`); `nil`
    /// when a verb is required.
    package var operands: String?
    /// Example command lines, each with what it does.
    package var examples: [(command: String, meaning: String)]
    /// Exit statuses and their meaning.
    package var exitStatus: [(status: Int32, meaning: String)]
    /// Related documents and tools.
    package var seeAlso: [String]
    /// The files the tool reads or writes, each with what it holds (the man page's FILES).
    package var files: [(path: String, meaning: String)]
    /// The environment variables the tool reads, each with what it changes (the man page's
    /// ENVIRONMENT).
    package var environment: [(name: String, meaning: String)]
    /// The exit status of a command line that does not parse (2; Apple's plutil uses 1).
    package var usageErrorStatus: Int32 = 2
    /// Whether `help [VERB]` as the first word asks for help (a tool whose operands are files
    /// that may be called `help`, such as plutil, says no and keeps `-help`).
    package var helpWord = true

    /// A tool declaration.
    package init(name: String, summary: String, discussion: [String] = [], verbs: [VerbSpec] = [], options: [OptionSpec] = [],
                operands: String? = nil, examples: [(command: String, meaning: String)] = [],
                exitStatus: [(status: Int32, meaning: String)] = [], seeAlso: [String] = [],
                files: [(path: String, meaning: String)] = [], environment: [(name: String, meaning: String)] = []) {
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.verbs = verbs
        self.options = options
        self.operands = operands
        self.examples = examples
        self.exitStatus = exitStatus
        self.seeAlso = seeAlso
        self.files = files
        self.environment = environment
    }

    /// The verb named `name`.
    package func verb(_ name: String) -> VerbSpec? { verbs.first { $0.name == name || $0.aliases.contains(name) } }

    /// The options that apply with `verb` (the tool's own and the verb's).
    package func options(for verb: VerbSpec?) -> [OptionSpec] { options + (verb?.options ?? []) }

    /// Every option name of the tool, each once, as first declared (for parsing an option given
    /// before its verb, and for checking names). Not for what an option means: two verbs may
    /// declare one name differently (``verbOptions``).
    package var allOptions: [OptionSpec] {
        var seen: Set<String> = []
        var result: [OptionSpec] = []
        for option in options + verbs.flatMap(\.options) where seen.insert(option.name).inserted { result.append(option) }
        return result
    }

    /// Each distinct declaration of a verb's option, with the verbs that declare it, for `--help`
    /// and the man page. One name declared differently by two verbs (`--port` whose default
    /// differs, `--localsend` a flag for one verb and a choice for another) is two entries, next
    /// to each other; listed by name alone, one verb's help stood for both.
    package var verbOptions: [(option: OptionSpec, verbs: [String])] {
        var entries: [(option: OptionSpec, verbs: [String])] = []
        for verb in verbs {
            for option in verb.options {
                if let i = entries.firstIndex(where: { $0.option.usage == option.usage && $0.option.help == option.help }) {
                    entries[i].verbs.append(verb.name)
                } else {
                    entries.append((option, [verb.name]))
                }
            }
        }
        // By the first appearance of each name, so that a name's declarations stand together.
        let names = entries.map(\.option.name)
        return entries.enumerated().sorted {
            let (a, b) = (names.firstIndex(of: $0.element.option.name)!, names.firstIndex(of: $1.element.option.name)!)
            return a != b ? a < b : $0.offset < $1.offset
        }.map(\.element)
    }

    /// Every kind of value the tool takes, in declaration order: its options' values (its own
    /// and each verb's), its verbs' arguments and operands (what the completion scripts complete).
    package var valueKinds: [ValueKind] {
        var kinds = (options + ToolSpec.standardOptions).compactMap(\.value)
        for verb in verbs {
            kinds += verb.options.compactMap(\.value) + verb.arguments.map(\.kind)
            if case .values(let kind) = verb.operandKind { kinds.append(kind) }
        }
        return kinds
    }

    /// The sources of the values the tool lists for its completion scripts
    /// (``ValueKind/completed(placeholder:source:)``), each once, in declaration order.
    package var completedSources: [String] {
        var sources: [String] = []
        for kind in valueKinds {
            if case .completed(_, let source) = kind, !sources.contains(source) { sources.append(source) }
        }
        return sources
    }

    /// The options every tool answers, besides its own.
    package static let standardOptions: [OptionSpec] = [
        OptionSpec("--help", short: "-h", help: "show this help (also: help [VERB])"),
        OptionSpec("--version", help: "print the version"),
    ]
}

/// A verb of a tool (`uti conforms`, `inboxd run`).
package struct VerbSpec: Sendable {
    /// Its name.
    package var name: String
    /// Other names it answers to.
    package var aliases: [String]
    /// What it takes after it, for usage lines (`A B`, `FILE...`).
    package var operands: String
    /// One line.
    package var summary: String
    /// Longer text for `help VERB` and the man page.
    package var discussion: [String]
    /// Options only this verb takes.
    package var options: [OptionSpec]
    /// Bounds on the number of operands (checked by the parser).
    package var operandCount: ClosedRange<Int>
    /// Values the verb takes right after it, in order (`-convert FORMAT`, `-extract KEYPATH FORMAT`).
    package var arguments: [ArgumentSpec] = []
    /// The words its first operand is one of (`openin default set|get|unset|list`), for completion.
    package var subverbs: [String] = []
    /// What its operands are, for completion (after its subverb, if it has subverbs).
    package var operandKind: OperandKind

    /// `NAME ARGUMENT… OPERANDS`, for usage lines.
    package var usage: String {
        ([name] + arguments.map(\.name) + (operands.isEmpty ? [] : [operands])).joined(separator: " ")
    }

    /// A verb. Its operands complete as files unless `operandKind` says otherwise, or
    /// `operandCount` says it takes none.
    package init(_ name: String, arguments: [ArgumentSpec] = [], operands: String = "", summary: String, discussion: [String] = [],
                options: [OptionSpec] = [], operandCount: ClosedRange<Int> = 0...Int.max, aliases: [String] = [], subverbs: [String] = [],
                operandKind: OperandKind? = nil) {
        self.operandKind = operandKind ?? (operandCount.upperBound == 0 ? .nothing : .values(.file))
        self.arguments = arguments
        self.subverbs = subverbs
        self.name = name
        self.operands = operands
        self.summary = summary
        self.discussion = discussion
        self.options = options
        self.operandCount = operandCount
        self.aliases = aliases
    }
}

/// What a verb's operands are, for completion: a verb that takes none offers nothing (not the
/// file names a shell offers by default), one that takes paired devices offers their names.
package enum OperandKind: Sendable, Hashable {
    /// Nothing to offer (the verb takes no operands, or words no list could hold).
    case nothing
    /// Values of this kind (`.file` for files).
    case values(ValueKind)
}

/// A value a verb takes right after it.
package struct ArgumentSpec: Sendable {
    /// Its name in usage (`KEYPATH`, `FORMAT`).
    package var name: String
    /// What it is.
    package var kind: ValueKind

    /// An argument.
    package init(_ name: String, _ kind: ValueKind) {
        self.name = name
        self.kind = kind
    }
}

/// What an option's value is, for checking and completion.
package enum ValueKind: Sendable, Hashable {
    /// Any text, shown as `placeholder`.
    case text(String)
    /// A path to a file.
    case file
    /// A path to a folder.
    case directory
    /// One of these words.
    case choice([String])
    /// A whole number within the range.
    case integer(ClosedRange<Int64>)
    /// A positive real number.
    case number(String)
    /// A typed value: one of `withText` and the text after it (`-string S`), or one of `bare`
    /// alone (`-array`).
    case typedValue(withText: [String], bare: [String])
    /// An app's bundle identifier: completed from the apps registered on the device root.
    case bundleIdentifier
    /// Text shown as `placeholder`, completed with what the tool itself lists for `source` at
    /// completion time (`TOOL --complete-values SOURCE [--root ROOT]`, answered by the provider
    /// the tool gives ``ToolMain``): values only the tool can read, such as nearby's paired
    /// devices. `source` is one word of letters, digits and dashes (it is written into scripts).
    case completed(placeholder: String, source: String)

    /// Whether this is a typed value (`-TYPE VALUE`).
    package var isTyped: Bool { if case .typedValue = self { true } else { false } }

    /// The placeholder shown in usage (`DIR`, `BYTES`, `a|b`).
    package var placeholder: String {
        switch self {
        case .text(let name), .number(let name): name
        case .file: "FILE"
        case .directory: "DIR"
        case .choice(let words): words.joined(separator: "|")
        case .integer: "N"
        case .typedValue: "-TYPE VALUE"
        case .bundleIdentifier: "BUNDLE-ID"
        case .completed(let placeholder, _): placeholder
        }
    }
}

/// An option: a flag, or an option with a value.
package struct OptionSpec: Sendable {
    /// Its name as typed (`--root`, `-lint`).
    package var name: String
    /// A short name, if any (`-q`).
    package var short: String?
    /// Its value; `nil` for a flag.
    package var value: ValueKind?
    /// Whether it may be given several times (values collected in order).
    package var repeatable: Bool
    /// The value's placeholder in usage, when it differs from the kind's (`BUNDLE-ID`, `PREFIX`).
    package var placeholder: String?
    /// One line.
    package var help: String
    /// Values the option takes after its first (`-s KEY VALUE`).
    package var trailing: [ArgumentSpec] = []
    /// Whether the value may be left out: it is taken only when the next word is not an option
    /// (`-signal [NUMBER]`).
    package var optionalValue = false
    /// Whether a count written as the option (`-1`, `-25`) means this option, the count being
    /// its first value (notifyutil's `-# KEY`: wait for that many posts).
    package var countForm = false
    /// Words people type for this option that are not its name (`--post` for notifyutil's
    /// `-p`): an unknown option that is one of them is answered with this option's name, where
    /// spelling alone would suggest another (`-port`).
    package var mistakenFor: [String] = []

    /// An option.
    package init(_ name: String, short: String? = nil, value: ValueKind? = nil, placeholder: String? = nil,
                repeatable: Bool = false, help: String) {
        self.name = name
        self.short = short
        self.value = value
        self.placeholder = placeholder
        self.repeatable = repeatable
        self.help = help
    }

    /// `--root DIR`, `-q`.
    package var usage: String {
        let names = ([short].compactMap { $0 } + [name]).joined(separator: ", ")
        guard let value else { return names }
        let first = placeholder ?? value.placeholder
        return ([names, optionalValue ? "[" + first + "]" : first] + trailing.map(\.name)).joined(separator: " ")
    }
}
