/// Text from outside (a file name, a notification name, a peer's name) as a human-readable line
/// shows it: a control character is written as an escape (`\n`, `\t`, `\u{1b}`), so that a newline
/// in a name cannot forge a line and an escape sequence cannot reach the terminal raw; so is an
/// invisible format character (a bidirectional override, which makes a name read backwards, a
/// zero-width space) and a line or paragraph separator. The one escaping rule: tools print outside
/// text through it, and Nearby's decoders make peers' text display-safe with it.
package enum TerminalText {
    /// `text` with every C0 and C1 control character, DEL, format character but the zero-width
    /// joiner (emoji sequences need it) and line or paragraph separator escaped. A backslash stays itself
    /// (not doubled), so that a name already shown with `\xNN` for bytes that are not UTF-8
    /// (``SystemCalls/DisplayName``) reads the same; a name holding a backslash followed by `n`
    /// reads like an escaped newline, which JSON output tells apart.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where needsEscape(scalar): out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A row of columns for a terminal: each field escaped, the fields joined by tabs (a tab
    /// inside a field would otherwise read as a column break; escaping the joined row printed
    /// them as a literal `\t`).
    package static func row(_ fields: [String]) -> String {
        fields.map(escaped).joined(separator: "\t")
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        if isControl(scalar) { return true }
        switch scalar.properties.generalCategory {
        case .format: return scalar.value != 0x200D
        case .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }
}
