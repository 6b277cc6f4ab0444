import OrderedCollections
import PropertyLists

/// The text Apple's `defaults read` prints: Foundation's old-style `description` of the values.
///
/// ```
/// {
///     Fruits =     (
///         apple,
///         "passion fruit"
///     );
///     Note = "Buy milk";
///     Count = 3;
/// }
/// ```
///
/// Keys sorted; a collection inside another starts on its own indentation after `=` (hence the
/// wide gaps Apple's output is known for); strings quoted unless made only of letters, digits and
/// `_$+/:.-`, with `"`, `\` and control characters escaped and other non-ASCII characters written
/// `\Uxxxx`; booleans as 1 and 0; dates as `2026-11-24 03:00:00 +0000`; data as
/// `{length = 3, bytes = 0x010203}`.
enum DefaultsDescription {
    /// The description of `value` (no trailing newline).
    static func describe(_ value: PropertyList) -> String {
        var out = ""
        append(value, level: 0, to: &out)
        return out
    }

    /// What `defaults read DOMAIN KEY` prints for one value: a string, a number, a boolean or a
    /// date bare; a collection or data as its description.
    static func describeAlone(_ value: PropertyList) -> String {
        switch value {
        case .string(let s): s
        case .date(let d): date(d)
        default: describe(value)
        }
    }

    /// The `read-type` name: string, integer, float, boolean, date, data, array, dictionary.
    static func typeName(_ value: PropertyList) -> String {
        switch value {
        case .string: "string"
        case .integer, .unsignedInteger, .uid: "integer"
        case .real: "float"
        case .bool: "boolean"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dictionary"
        }
    }

    static func indent(_ level: Int) -> String { String(repeating: "    ", count: level) }

    private static func append(_ value: PropertyList, level: Int, to out: inout String) {
        switch value {
        case .string(let s): out += quoted(s)
        case .integer(let n): out += String(n)
        case .unsignedInteger(let n): out += String(n)
        case .uid(let n): out += String(n)
        case .real(let r): out += real(r)
        case .bool(let b): out += b ? "1" : "0"
        case .date(let d): out += "\"" + date(d) + "\""
        case .data(let bytes): out += PropertyListDescription.dataSummary(bytes)
        case .array(let elements):
            out += indent(level) + "(\n"
            for (i, element) in elements.enumerated() {
                out += indent(level + 1)
                append(element, level: level + 1, to: &out)
                out += i == elements.count - 1 ? "\n" : ",\n"
            }
            out += indent(level) + ")"
        case .dictionary(let entries):
            out += indent(level) + "{\n"
            for key in entries.keys.sorted(by: { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }) {
                out += indent(level + 1) + quoted(key) + " = "
                append(entries[key]!, level: level + 1, to: &out)
                out += ";\n"
            }
            out += indent(level) + "}"
        }
    }

    /// A string as old-style property lists write it.
    static func quoted(_ s: String) -> String {
        let plain = !s.isEmpty && s.unicodeScalars.allSatisfy { c in
            c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c) || "_$+/:.-".unicodeScalars.contains(c))
        }
        if plain { return s }
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if c.isASCII && c.value >= 0x20 && c.value != 0x7F {
                    out.unicodeScalars.append(c)
                } else {
                    for unit in String(c).utf16 { out += "\\U" + hex(Int(unit), digits: 4) }
                }
            }
        }
        return out + "\""
    }

    static func real(_ r: Double) -> String {
        if r.isNaN { return "nan" }
        if r.isInfinite { return r < 0 ? "-inf" : "inf" }
        if r == r.rounded(), abs(r) < 1e16 { return String(Int64(r)) }
        return r.description
    }

    static func date(_ d: PropertyListDate) -> String {
        guard let c = d.components else { return d.iso8601 }
        func pad(_ n: Int64, _ width: Int) -> String {
            let digits = String(abs(n))
            return (n < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(c.year, 4))-\(pad(Int64(c.month), 2))-\(pad(Int64(c.day), 2)) \(pad(Int64(c.hour), 2)):\(pad(Int64(c.minute), 2)):\(pad(Int64(c.second), 2)) +0000"
    }

    static func hex(_ value: Int, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
