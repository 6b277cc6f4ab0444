import PropertyLists

/// One `plutil` command line, parsed.
///
/// Parsed by hand: Apple's grammar puts single-dash verbs, their operands and type flags in
/// positions (`-insert KEYPATH -string VALUE FILE`) that swift-argument-parser cannot express,
/// and the tool must not load Foundation, which that parser pulls in, to start in ~2 ms.
struct PlutilInvocation {
    enum Verb {
        case lint
        case help
        case print
        case convert(PropertyListFormat)
        case extract(PropertyListPath, format: String)
        case type(PropertyListPath)
        case edit(PropertyList.EditMode, PropertyListPath, PropertyList?)
        case create(PropertyListFormat)
    }

    var verb: Verb = .lint
    var files: [String] = []
    var output: String?
    var outputExtension: String?
    var silent = false
    var humanReadableJSON = false
    var omitNewline = false
    var expectedType: String?
    /// `-unarchive`: read each file as a keyed archive and work on its resolved object graph.
    var unarchive = false

    struct UsageError: Error { var message: String }

    static func parse(_ arguments: ArraySlice<String>) throws(UsageError) -> PlutilInvocation {
        var invocation = PlutilInvocation()
        var rest = arguments
        var verbSeen = false
        func next(_ what: String) throws(UsageError) -> String {
            guard let value = rest.popFirst() else { throw UsageError(message: "missing \(what)") }
            return value
        }
        func setVerb(_ verb: Verb) throws(UsageError) {
            guard !verbSeen else { throw UsageError(message: "only one command option may be given") }
            verbSeen = true
            invocation.verb = verb
        }
        func format(_ name: String, allowing: [PropertyListFormat]) throws(UsageError) -> PropertyListFormat {
            guard let f = PropertyListFormat(rawValue: name), allowing.contains(f) else {
                throw UsageError(message: "unsupported format '\(name)': use one of \(allowing.map(\.rawValue).joined(separator: ", "))")
            }
            return f
        }
        while let arg = rest.popFirst() {
            switch arg {
            case "--":
                invocation.files.append(contentsOf: rest)
                rest = []
            case "-help", "-h", "--help": try setVerb(.help)
            case "-lint": try setVerb(.lint)
            case "-p": try setVerb(.print)
            case "-convert": try setVerb(.convert(try format(try next("format after -convert"), allowing: [.xml, .binary, .json])))
            case "-create": try setVerb(.create(try format(try next("format after -create"), allowing: [.xml, .binary, .json])))
            case "-extract":
                let path = PropertyListPath(dotted: try next("key path after -extract"))
                let fmt = try next("format after -extract key path")
                guard ["xml1", "binary1", "json", "raw"].contains(fmt) else {
                    throw UsageError(message: "unsupported format '\(fmt)': use one of xml1, binary1, json, raw")
                }
                try setVerb(.extract(path, format: fmt))
            case "-type": try setVerb(.type(PropertyListPath(dotted: try next("key path after -type"))))
            case "-remove": try setVerb(.edit(.remove, PropertyListPath(dotted: try next("key path after -remove")), nil))
            case "-insert", "-replace":
                let path = PropertyListPath(dotted: try next("key path after \(arg)"))
                let value = try Self.typedValue(&rest)
                try setVerb(.edit(arg == "-insert" ? .insert : .replace, path, value))
            case "-append":
                guard case .edit(.insert, let path, let value) = invocation.verb else {
                    throw UsageError(message: "-append goes with -insert")
                }
                invocation.verb = .edit(.append, path, value)
            case "-expect": invocation.expectedType = try next("type after -expect")
            case "-unarchive": invocation.unarchive = true
            case "-o": invocation.output = try next("path after -o")
            case "-e": invocation.outputExtension = try next("extension after -e")
            case "-s": invocation.silent = true
            case "-r": invocation.humanReadableJSON = true
            case "-n": invocation.omitNewline = true
            default:
                if arg.hasPrefix("-"), arg != "-" { throw UsageError(message: "unrecognized option: \(arg)") }
                invocation.files.append(arg)
            }
        }
        if case .help = invocation.verb { return invocation }
        // `-unarchive` alone prints the resolved graph as XML; it never rewrites the archive.
        if invocation.unarchive, !verbSeen {
            invocation.verb = .convert(.xml)
            invocation.output = invocation.output ?? "-"
        }
        guard !invocation.files.isEmpty else { throw UsageError(message: "No files specified.") }
        return invocation
    }

    /// The value after `-insert KEYPATH` / `-replace KEYPATH`: `-TYPE VALUE`, or `-dictionary`/`-array`.
    static func typedValue(_ rest: inout ArraySlice<String>) throws(UsageError) -> PropertyList {
        guard let flag = rest.popFirst() else { throw UsageError(message: "missing value type (-bool, -integer, -string, …)") }
        switch flag {
        case "-dictionary": return .dictionary([:])
        case "-array": return .array([])
        default: break
        }
        guard let text = rest.popFirst() else { throw UsageError(message: "missing value after \(flag)") }
        switch flag {
        case "-bool":
            guard let b = boolValue(text) else {
                throw UsageError(message: "-bool takes YES, NO, true or false (in any case), not '\(text)'")
            }
            return .bool(b)
        case "-string": return .string(text)
        case "-integer":
            guard case .integer(let i)? = Int64(text).map(PropertyList.integer) ?? hexInteger(text) else {
                throw UsageError(message: "'\(text)' is not a 64-bit integer")
            }
            return .integer(i)
        case "-float":
            guard let r = Double(text) else { throw UsageError(message: "'\(text)' is not a number") }
            return .real(r)
        case "-date":
            guard let d = PropertyListDate(iso8601: text) else { throw UsageError(message: "'\(text)' is not a YYYY-MM-DDTHH:MM:SSZ date") }
            return .date(d)
        case "-data":
            let xml = "<data>\(text)</data>"
            guard let value = try? PropertyListReader.read(Array(xml.utf8)).value else {
                throw UsageError(message: "'\(text)' is not base64 data")
            }
            return value
        case "-xml":
            do { return try PropertyListReader.read(Array(text.utf8)).value } catch {
                throw UsageError(message: "-xml value: \(error)")
            }
        case "-json":
            do { return try JSONFragmentParser.parse(text) } catch {
                throw UsageError(message: "-json value: \(error)")
            }
        default:
            throw UsageError(message: "unknown value type \(flag): use -bool, -integer, -float, -string, -date, -data, -xml, -json, -dictionary or -array")
        }
    }

    /// The words `-bool` takes. Apple's plutil stores YES for "yes" or "true" in any case and NO
    /// for any other text at all (swift-corelibs-foundation's Sources/plutil/PLUContext.swift,
    /// which is Apple's tool: `boolValue.lowercased() == "true" || … == "yes"`), so `-bool maybe`
    /// or `-bool 1` silently stores NO. We take the same true words and only "no" and "false" as
    /// false, and refuse the rest rather than guess.
    static func boolValue(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "true": true
        case "no", "false": false
        default: nil
        }
    }

    private static func hexInteger(_ text: String) -> PropertyList? {
        let negative = text.hasPrefix("-")
        let digits = text.dropFirst(negative ? 1 : 0)
        guard digits.hasPrefix("0x") || digits.hasPrefix("0X"), let m = Int64(digits.dropFirst(2), radix: 16) else { return nil }
        return .integer(negative ? -m : m)
    }
}
