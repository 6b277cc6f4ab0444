import SystemPackage

/// Reads property lists in any supported format, chosen by the first bytes of the input.
///
/// ```swift
/// let document = try PropertyListReader.read(contentsOf: "App/Info.plist")
/// print(document.format, document.value["CFBundleIdentifier"] ?? "none")
/// ```
///
/// The format is decided once and never retried as another: a damaged binary plist is reported
/// as a damaged binary plist, not read as a string (which Foundation on Linux does).
public enum PropertyListReader {
    /// The format the input is in, judged from its first bytes, or `nil` for empty or blank input.
    ///
    /// `bplist` starts a binary plist; `<?xml`, `<!`, a `<` followed by a letter, or a UTF-16/UTF-8
    /// byte-order mark followed by `<` starts XML. `[`, and `{` whose first key is a quoted
    /// string followed by `:`, start JSON (OpenStep writes `(…)` and `{ key = value; }`); so does
    /// `{}`, which is both. Anything else is OpenStep text, including the bare words and quoted
    /// strings that are also JSON scalars: CoreFoundation reads those as OpenStep strings first,
    /// so Apple's `plutil` never gets to read them as JSON.
    public static func detectFormat(_ bytes: UnsafeRawBufferPointer) -> PropertyListFormat? {
        if bytes.count >= 6, bytes.starts(with: "bplist".utf8) { return .binary }
        var i = 0
        var step = 1
        if bytes.count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) {
            // UTF-16: look at the low byte of each unit.
            i = bytes[0] == 0xFF ? 2 : 3
            step = 2
        } else if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            i = 3
        }
        while i < bytes.count, ScalarText.isSpace(bytes[i]) { i += step }
        guard i < bytes.count else { return nil }
        if step == 1, bytes[i] == UInt8(ascii: "[") { return .json }
        if step == 1, bytes[i] == UInt8(ascii: "{") { return looksLikeJSONObject(bytes, from: i + 1) ? .json : .openStep }
        guard bytes[i] == UInt8(ascii: "<"), i + step < bytes.count else { return .openStep }
        let next = bytes[i + step]
        switch next {
        case UInt8(ascii: "?"), UInt8(ascii: "!"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
            // `<a…>` could be OpenStep hex data only if every letter were a–f; element names decide.
            if step == 1, next | 0x20 >= UInt8(ascii: "a"), next | 0x20 <= UInt8(ascii: "f"),
               Self.looksLikeHexData(bytes, from: i + 1) {
                return .openStep
            }
            return .xml
        default:
            return .openStep
        }
    }

    /// Whether the text after a `{` is `}` or a quoted key followed by `:` (JSON) rather than
    /// `=` (OpenStep), skipping white space; an OpenStep comment before the key means OpenStep.
    private static func looksLikeJSONObject(_ bytes: UnsafeRawBufferPointer, from: Int) -> Bool {
        var i = from
        while i < bytes.count, ScalarText.isSpace(bytes[i]) { i += 1 }
        guard i < bytes.count else { return false }
        if bytes[i] == UInt8(ascii: "}") { return true }
        guard bytes[i] == UInt8(ascii: "\"") else { return false }
        i += 1
        while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
            i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1
        }
        i += 1
        while i < bytes.count, ScalarText.isSpace(bytes[i]) { i += 1 }
        return i < bytes.count && bytes[i] == UInt8(ascii: ":")
    }

    private static func looksLikeHexData(_ bytes: UnsafeRawBufferPointer, from: Int) -> Bool {
        var i = from
        while i < bytes.count, bytes[i] != UInt8(ascii: ">") {
            let b = bytes[i] | 0x20
            let isHex = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(b)
            if !isHex && !ScalarText.isSpace(bytes[i]) { return false }
            i += 1
        }
        return i < bytes.count
    }

    /// Parses a property list from bytes in memory.
    /// - Throws: ``PropertyListError`` with the location of the first problem.
    public static func read(_ bytes: UnsafeRawBufferPointer, options: PropertyListReadOptions = .init())
        throws(PropertyListError) -> PropertyListDocument
    {
        guard !bytes.isEmpty else { throw PropertyListError("the file is empty") }
        switch detectFormat(bytes) {
        case .binary?: return try BinaryPropertyListParser.parse(bytes, options: options)
        case .xml?: return try XMLPropertyListParser.parse(bytes, options: options)
        case .openStep?: return try OpenStepPropertyListParser.parse(bytes, options: options)
        case .json?:
            if options.readsJSON { return try JSONPropertyListParser.parse(bytes, options: options) }
            // `{}` is an OpenStep property list as well as JSON.
            if JSONPropertyListParser.isEmptyObject(bytes) { return try OpenStepPropertyListParser.parse(bytes, options: options) }
            throw PropertyListError("the input is JSON, not a property list", format: .json)
        case nil: throw PropertyListError("the file holds only white space")
        }
    }

    /// Parses bytes as one given format, without looking at the first bytes (for tools that know
    /// what they hold, and for fuzzing one reader at a time).
    public static func read(_ bytes: UnsafeRawBufferPointer, as format: PropertyListFormat,
                            options: PropertyListReadOptions = .init()) throws(PropertyListError) -> PropertyListDocument {
        switch format {
        case .binary: return try BinaryPropertyListParser.parse(bytes, options: options)
        case .xml: return try XMLPropertyListParser.parse(bytes, options: options)
        case .openStep: return try OpenStepPropertyListParser.parse(bytes, options: options)
        case .json: return try JSONPropertyListParser.parse(bytes, options: options)
        }
    }

    /// The value of a binary property list, without the document around it (no duplicate-key
    /// report, no locations): for short-lived processes that read many small trusted records,
    /// where building a document's location table cost more than the record (the Swift runtime
    /// instantiates its dictionary type on first use).
    /// - Throws: ``PropertyListError`` when the bytes are not a valid binary property list.
    public static func value(ofBinary bytes: [UInt8], options: PropertyListReadOptions = .init()) throws(PropertyListError) -> PropertyList {
        do {
            return try bytes.withUnsafeBytes { buffer throws(PropertyListError) in
                guard detectFormat(buffer) == .binary else { throw PropertyListError("not a binary property list") }
                return try BinaryPropertyListParser.parseValue(buffer, options: options)
            }
        } catch let error as PropertyListError {
            throw error
        } catch {
            throw PropertyListError("\(error)")
        }
    }

    /// Parses a property list from an array of bytes.
    public static func read(_ bytes: [UInt8], options: PropertyListReadOptions = .init())
        throws(PropertyListError) -> PropertyListDocument
    {
        do {
            return try bytes.withUnsafeBytes { buffer throws(PropertyListError) in try read(buffer, options: options) }
        } catch let error as PropertyListError {
            throw error
        } catch {
            throw PropertyListError("\(error)")
        }
    }

    /// Reads and parses the file at `path`, a path as a `String` holds it (a variable, a command
    /// line argument), without importing the module of `FilePath`.
    /// - Throws: ``PropertyListError``: the file's system error, or the parse error.
    public static func read(contentsOf path: String, options: PropertyListReadOptions = .init())
        throws(PropertyListError) -> PropertyListDocument
    {
        try read(contentsOf: FilePath(path), options: options)
    }

    /// Reads and parses the file at `path`.
    /// - Throws: ``PropertyListError``: the file's system error, or the parse error.
    public static func read(contentsOf path: FilePath, options: PropertyListReadOptions = .init())
        throws(PropertyListError) -> PropertyListDocument
    {
        let bytes: [UInt8]
        do { bytes = try FileContents.read(path) } catch { throw PropertyListError(error.message) }
        return try read(bytes, options: options)
    }
}

extension PropertyList {
    /// Parses a property list in any supported format.
    public init(parsing bytes: [UInt8]) throws(PropertyListError) {
        self = try PropertyListReader.read(bytes).value
    }
}
