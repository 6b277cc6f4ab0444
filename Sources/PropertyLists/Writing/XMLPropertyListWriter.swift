import ExtrasBase64

/// Writes Apple's XML property-list format byte for byte as CoreFoundation (and so Xcode and
/// `plutil -convert xml1`) does: tab indentation, keys sorted, `%.17g` reals, base64 data in
/// lines of at most 76 columns.
///
/// ```swift
/// let bytes = try XMLPropertyListWriter().write(.dictionary(["CFBundleName": .string("Notes")]))
/// ```
public struct XMLPropertyListWriter: Sendable {
    /// Whether dictionary keys are written in sorted order, as CoreFoundation does (the default),
    /// or in the order the value holds them.
    public var sortsKeys: Bool

    /// Creates a writer.
    public init(sortsKeys: Bool = true) { self.sortsKeys = sortsKeys }

    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    /// The complete document for `value`.
    /// - Throws: ``PropertyListWriteError`` for a string holding characters XML 1.0 cannot carry
    ///   (most control characters), which no reader could read back.
    public func write(_ value: PropertyList) throws(PropertyListWriteError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        out.append(contentsOf: Self.header.utf8)
        try append(value, indent: 0, path: .root, to: &out)
        out.append(contentsOf: "</plist>\n".utf8)
        return out
    }

    /// The element for `value` alone, as `plutil -extract … xml1` embeds it in a document.
    func append(_ value: PropertyList, indent: Int, path: PropertyListPath, to out: inout [UInt8]) throws(PropertyListWriteError) {
        func tabs(_ n: Int) { for _ in 0..<n { out.append(0x09) } }
        func line(_ text: String) { tabs(indent); out.append(contentsOf: text.utf8); out.append(0x0A) }
        switch value {
        case .string(let s):
            tabs(indent)
            out.append(contentsOf: "<string>".utf8)
            try Self.appendEscaped(s, to: &out, path: path)
            out.append(contentsOf: "</string>\n".utf8)
        case .integer(let i): line("<integer>\(i)</integer>")
        case .unsignedInteger(let u): line("<integer>\(u)</integer>")
        case .real(let r): line("<real>\(NumberFormatting.xmlReal(r))</real>")
        case .bool(let b): line(b ? "<true/>" : "<false/>")
        case .date(let d):
            guard let year = d.components?.year, (0...9999).contains(year) else {
                throw PropertyListWriteError("a date outside the years 0000–9999 cannot be written in XML; use the binary format", at: path)
            }
            line("<date>\(d.iso8601)</date>")
        case .data(let bytes):
            line("<data>")
            // CF indents base64 lines by at most 8 tabs and fills them to 76 columns (tab = 8).
            let lineIndent = min(indent, 8)
            let width = max(4, (76 - 8 * lineIndent) / 4 * 4)
            let encoded = Array(Base64.encodeToBytes(bytes: bytes))
            var i = 0
            while i < encoded.count {
                tabs(lineIndent)
                out.append(contentsOf: encoded[i..<min(i + width, encoded.count)])
                out.append(0x0A)
                i += width
            }
            line("</data>")
        case .array(let elements):
            if elements.isEmpty { return line("<array/>") }
            line("<array>")
            for (i, element) in elements.enumerated() {
                try append(element, indent: indent + 1, path: path.appending(i), to: &out)
            }
            line("</array>")
        case .dictionary(let entries):
            if entries.isEmpty { return line("<dict/>") }
            line("<dict>")
            for key in orderedKeys(entries.keys) {
                tabs(indent + 1)
                out.append(contentsOf: "<key>".utf8)
                try Self.appendEscaped(key, to: &out, path: path.appending(key))
                out.append(contentsOf: "</key>\n".utf8)
                try append(entries[key]!, indent: indent + 1, path: path.appending(key), to: &out)
            }
            line("</dict>")
        case .uid(let n):
            line("<dict>")
            tabs(indent + 1); out.append(contentsOf: "<key>CF$UID</key>\n".utf8)
            tabs(indent + 1); out.append(contentsOf: "<integer>\(n)</integer>\n".utf8)
            line("</dict>")
        }
    }

    func orderedKeys(_ keys: some Collection<String>) -> [String] {
        sortsKeys ? keys.sorted(by: PropertyListKeyOrder.precedes) : Array(keys)
    }

    static func appendEscaped(_ s: String, to out: inout [UInt8], path: PropertyListPath) throws(PropertyListWriteError) {
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x26: out.append(contentsOf: "&amp;".utf8)
            case 0x3C: out.append(contentsOf: "&lt;".utf8)
            case 0x3E: out.append(contentsOf: "&gt;".utf8)
            // A literal CR would be read back as LF (XML end-of-line handling); CF loses it, we keep it.
            case 0x0D: out.append(contentsOf: "&#13;".utf8)
            case 0x09, 0x0A, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF:
                out.append(contentsOf: UTF8.encode(scalar)!)
            default:
                throw PropertyListWriteError(
                    "U+\(String(scalar.value, radix: 16, uppercase: true)) cannot be written in XML; use the binary format", at: path)
            }
        }
    }
}

/// The key order CoreFoundation sorts by: UTF-16 code units, compared in order.
enum PropertyListKeyOrder {
    static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf16.lexicographicallyPrecedes(b.utf16)
    }
}
