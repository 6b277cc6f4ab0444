import PropertyLists
import ToolSupport

/// One `plutil` command line, parsed.
///
/// Apple's grammar puts single-dash verbs, their operands and type flags in positions
/// (`-insert KEYPATH -string VALUE FILE`); ``plutilSpec`` declares them (verb arguments, typed
/// values) and the shared parser reads them.
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

    /// The invocation a parsed command line (``plutilSpec``) stands for.
    init(_ command: PlutilCommand) throws(UsageError) {
        func path(_ k: Int) -> PropertyListPath { PropertyListPath(dotted: command.arguments[k][0]) }
        func format(_ k: Int) -> PropertyListFormat { PropertyListFormat(rawValue: command.arguments[k][0]) ?? .xml }
        switch command.verb {
        case nil, .lint: verb = .lint
        case .help: verb = .help
        case .print: verb = .print
        case .convert: verb = .convert(format(0))
        case .create: verb = .create(format(0))
        case .extract: verb = .extract(path(0), format: command.arguments[1][0])
        case .type: verb = .type(path(0))
        case .remove: verb = .edit(.remove, path(0), nil)
        case .insert: verb = .edit(command.flag(.append) ? .append : .insert, path(0), try Self.typedValue(command.arguments[1]))
        case .replace: verb = .edit(.replace, path(0), try Self.typedValue(command.arguments[1]))
        }
        files = command.operands
        output = command[.output]
        outputExtension = command[.outputExtension]
        silent = command.flag(.silent)
        humanReadableJSON = command.flag(.humanReadable)
        omitNewline = command.flag(.omitNewline)
        expectedType = command[.expect]
        unarchive = command.flag(.unarchive)
        if case .help = verb { return }
        // `-unarchive` alone prints the resolved graph as XML; it never rewrites the archive.
        if unarchive, command.verb == nil {
            verb = .convert(.xml)
            output = output ?? "-"
        }
        guard !files.isEmpty else { throw UsageError(message: "No files specified.") }
    }

    /// The value after `-insert KEYPATH` / `-replace KEYPATH`: `-TYPE VALUE`, or `-dictionary`/`-array`
    /// (the parser took the words; here they become a value).
    static func typedValue(_ words: [String]) throws(UsageError) -> PropertyList {
        let flag = words[0]
        switch flag {
        case "-dictionary": return .dictionary([:])
        case "-array": return .array([])
        default: break
        }
        let text = words[1]
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
