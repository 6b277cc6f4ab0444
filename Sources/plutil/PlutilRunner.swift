import ToolSupport
import ExtrasBase64
import KeyedArchives
import PropertyLists
import SystemPackage

/// Carries out a parsed `plutil` invocation; returns the exit status.
struct PlutilRunner {
    let invocation: PlutilInvocation
    var failed = false
    /// The last document read, kept so that it is freed by the process's exit rather than node by
    /// node: tearing down the tree of a 3.8 MB plist took 35 M instructions, a tenth of `-lint`.
    /// The one before is freed when the next file is read, so memory stays that of one file.
    private var keptUntilExit: PropertyListDocument?

    init(_ invocation: PlutilInvocation) { self.invocation = invocation }

    mutating func run() -> Int32 {
        for file in invocation.files {
            do throws(PlutilFailure) {
                try runOne(file)
            } catch {
                failed = true
                Output.error(error.namesFile ? error.message : "\(file): \(error.message)")
            }
        }
        return failed ? 1 : 0
    }

    struct PlutilFailure: Error {
        var message: String
        /// Whether the message already starts with the file's name (a file that cannot be read).
        var namesFile = false
        init(_ message: String, namesFile: Bool = false) {
            self.message = message
            self.namesFile = namesFile
        }
    }

    private mutating func read(_ file: String) throws(PlutilFailure) -> PropertyListDocument {
        keptUntilExit = nil
        if file != "-", let status = try? Stat(FilePath(file)), status.type == .regular {
            HeapReservation.prepare(forInputOf: Int(clamping: status.size))
        }
        // Apple's plutil reads JSON for every verb but -lint, which has never linted JSON.
        var options = PropertyListReadOptions()
        if case .lint = invocation.verb {} else { options.readsJSON = true }
        var document: PropertyListDocument
        // Read, then parsed: a file that cannot be read is said as "FILE: why", once.
        let bytes: [UInt8]
        do { bytes = try FileContents.read(FilePath(file)) } catch { throw PlutilFailure(error.message, namesFile: true) }
        do {
            document = try PropertyListReader.read(bytes, options: options)
        } catch {
            if case .lint = invocation.verb, error.format == .json, error.location == nil {
                throw PlutilFailure("\(error.description); -lint checks property lists only, as Apple's plutil does (-convert xml1 reads JSON)")
            }
            throw PlutilFailure(error.description)
        }
        if invocation.unarchive {
            do { document.value = try KeyedArchive(propertyList: document.value).resolvedTopLevel() } catch {
                throw PlutilFailure(error.description)
            }
        }
        keptUntilExit = document
        return document
    }

    private func encode(_ value: PropertyList, as format: PropertyListFormat) throws(PlutilFailure) -> [UInt8] {
        do {
            switch format {
            case .xml: return try XMLPropertyListWriter().write(value)
            case .binary: return BinaryPropertyListWriter().write(value)
            case .json:
                // An unarchived graph is a view of the archive, not a file to round-trip: its data and
                // dates are written as base64 and ISO 8601 strings, so it has a readable JSON form.
                return try JSONPropertyListWriter(prettyPrinted: invocation.humanReadableJSON, nonJSONValues: invocation.unarchive ? .asStrings : .refuse).write(value)
            case .openStep: throw PlutilFailure("writing OpenStep is not supported")
            }
        } catch let error as PlutilFailure {
            throw error
        } catch {
            throw PlutilFailure("cannot write \(format.rawValue): \(error)")
        }
    }

    private func store(_ bytes: [UInt8], for file: String, defaultPath: String? = nil) throws(PlutilFailure) {
        var destination = invocation.output ?? defaultPath ?? file
        if invocation.output == nil, let ext = invocation.outputExtension {
            var path = FilePath(destination)
            path.extension = ext
            destination = path.string
        }
        if destination == "-" && file == "-" && invocation.output == nil { destination = "-" }
        do { try FileContents.write(bytes, to: FilePath(destination)) } catch {
            throw PlutilFailure(error.message)
        }
    }

    private func checkExpected(_ value: PropertyList, at path: PropertyListPath) throws(PlutilFailure) {
        guard let expected = invocation.expectedType else { return }
        guard value.typeName == expected else {
            throw PlutilFailure("Value at [\(path)] expected to be \(expected) but is \(value.typeName)")
        }
    }

    private mutating func runOne(_ file: String) throws(PlutilFailure) {
        switch invocation.verb {
        case .help: break
        case .lint:
            _ = try read(file)
            if !invocation.silent { Output.line("\(file): OK") }
        case .print:
            Output.text(PropertyListDescription.describe(try read(file).value))
        case .convert(let format):
            let document = try read(file)
            try store(try encode(document.value, as: format), for: file)
        case .create(let format):
            try store(try encode(.dictionary([:]), as: format), for: file)
        case .type(let path):
            let value = try valueAt(path, in: read(file).value)
            try checkExpected(value, at: path)
            Output.line(value.typeName)
        case .extract(let path, let format):
            let value = try valueAt(path, in: read(file).value)
            try checkExpected(value, at: path)
            if format == "raw" {
                let text = try raw(value)
                if invocation.output == nil {
                    Output.text(invocation.omitNewline ? text : text + "\n")
                } else {
                    try store(Array((invocation.omitNewline ? text : text + "\n").utf8), for: file)
                }
            } else {
                try store(try encode(value, as: PropertyListFormat(rawValue: format)!), for: file)
            }
        case .edit(let mode, let path, let newValue):
            let document = try read(file)
            var value = document.value
            do { try value.edit(mode, at: path, value: newValue) } catch {
                throw PlutilFailure("\(error.description) (key path \(path))")
            }
            let format: PropertyListFormat = document.format == .openStep ? .xml : document.format
            try store(try encode(value, as: format), for: file)
        }
    }

    private func valueAt(_ path: PropertyListPath, in root: PropertyList) throws(PlutilFailure) -> PropertyList {
        guard let value = root.value(at: path) else {
            throw PlutilFailure("Could not extract value, error: No value at that key path or invalid key path: \(path.components.map { c -> String in if case .key(let k) = c { return k }; if case .index(let i) = c { return String(i) }; return "" }.joined(separator: "."))")
        }
        return value
    }

    /// `-extract … raw`: the value as plain text, as Apple's plutil prints it.
    private func raw(_ value: PropertyList) throws(PlutilFailure) -> String {
        switch value {
        case .bool(let b): return b ? "true" : "false"
        case .integer(let i): return String(i)
        case .unsignedInteger(let u): return String(u)
        case .real(let r): return NumberText.fixed(r)
        case .string(let s): return s
        case .date(let d): return d.iso8601
        case .data(let d): return Base64.encodeToString(bytes: d)
        case .dictionary(let d): return d.keys.sorted().joined(separator: "\n")
        case .array(let a): return String(a.count)
        case .uid(let u): return String(u)
        }
    }
}
