/// The human-readable form `plutil -p` prints: keys sorted as Foundation sorts them (ignoring case,
/// numbers by value), `=>` between key and value,
/// array elements numbered, data summarised as `{length = N, bytes = 0x…}`.
/// Not for machine parsing, as Apple says of its own.
public enum PropertyListDescription {
    /// The description of `value`, ending in a newline.
    public static func describe(_ value: PropertyList) -> String {
        var out = ""
        append(value, indent: 0, to: &out)
        out.append("\n")
        return out
    }

    private static func append(_ value: PropertyList, indent: Int, to out: inout String) {
        let pad = String(repeating: "  ", count: indent)
        switch value {
        case .string(let s): out += "\"\(s)\""
        case .integer(let i): out += String(i)
        case .unsignedInteger(let u): out += String(u)
        case .real(let r): out += r.description  // Swift's shortest form, as Foundation prints: 800.0, 0.1, 1e+300, nan
        case .bool(let b): out += b ? "true" : "false"
        case .date(let d): out += d.description
        case .data(let bytes): out += dataSummary(bytes)
        case .uid(let u): out += "<CFKeyedArchiverUID>{value = \(u)}"
        case .array(let elements):
            out += "[\n"
            for (i, element) in elements.enumerated() {
                out += "\(pad)  \(i) => "
                append(element, indent: indent + 1, to: &out)
                out += "\n"
            }
            out += "\(pad)]"
        case .dictionary(let entries):
            out += "{\n"
            for key in entries.keys.sorted(by: FoundationKeyOrder.precedes) {
                out += "\(pad)  \"\(key)\" => "
                append(entries[key]!, indent: indent + 1, to: &out)
                out += "\n"
            }
            out += "\(pad)}"
        }
    }

    /// CoreFoundation's data summary: every byte up to 24, else the first and last 8, in groups of
    /// four (`plutil -p`, and `defaults read` through its own description).
    package static func dataSummary(_ bytes: [UInt8]) -> String {
        func hex(_ slice: ArraySlice<UInt8>) -> String {
            var groups: [String] = []
            var current = ""
            for (i, b) in slice.enumerated() {
                if i > 0, i % 4 == 0 { groups.append(current); current = "" }
                current += hex2(b)
            }
            if !current.isEmpty { groups.append(current) }
            return groups.joined(separator: " ")
        }
        let shown = bytes.count <= 24 ? hex(bytes[...]) : hex(bytes.prefix(8)) + " ... " + hex(bytes.suffix(8))
        return "{length = \(bytes.count), bytes = 0x\(shown)}"
    }
}
