import SystemCalls

/// The text rules `pbcopy` and `pbpaste` follow (macOS's pbcopy(1)): what type copied bytes are
/// stored as, which types a paste looks for and in what order, and the locale's text encoding.
public enum PasteboardText {
    /// What `pbpaste -Prefer` looks for first.
    public enum Preference: String, Sendable, CaseIterable {
        /// Plain text.
        case txt
        /// Rich Text Format.
        case rtf
        /// Encapsulated PostScript.
        case ps
    }

    /// The type copied input is stored as: RTF when it starts with the RTF header (`{\rtf`), EPS
    /// when it starts with the EPS header (`%!PS-Adobe-… EPSF-`), else UTF-8 plain text.
    public static func copyType(of bytes: [UInt8]) -> String {
        if bytes.starts(with: "{\\rtf".utf8) { return PasteboardType.rtf }
        if bytes.starts(with: "%!PS-Adobe".utf8) {
            let firstLine = bytes.prefix(80).prefix { $0 != 0x0A && $0 != 0x0D }
            if String(decoding: firstLine, as: UTF8.self).contains("EPSF-") { return PasteboardType.eps }
        }
        return PasteboardType.utf8PlainText
    }

    /// The types a paste looks for, in order: plain text, then EPS, then RTF, with the preferred
    /// one first. Plain text is asked for as `public.plain-text`, which UTF-8 text conforms to.
    public static func pasteOrder(prefer: Preference = .txt) -> [String] {
        switch prefer {
        case .txt: [PasteboardType.utf8PlainText, PasteboardType.plainText, PasteboardType.eps, PasteboardType.rtf]
        case .ps: [PasteboardType.eps, PasteboardType.utf8PlainText, PasteboardType.plainText, PasteboardType.rtf]
        case .rtf: [PasteboardType.rtf, PasteboardType.utf8PlainText, PasteboardType.plainText, PasteboardType.eps]
        }
    }

    /// The encoding of the terminal's text, from the locale (`LC_ALL`, else `LC_CTYPE`, else `LANG`).
    public enum Encoding: Sendable, Hashable {
        /// UTF-8: also when no locale is set (macOS would use the C encoding; UTF-8 is what every
        /// Linux terminal uses, and what the pasteboard stores).
        case utf8
        /// ISO 8859-1.
        case latin1
        /// The C locale's 7-bit ASCII, when the locale names it (`C`, `POSIX`, `ANSI_X3.4-1968`).
        case ascii

        /// The encoding the environment names.
        public static func fromEnvironment() -> Encoding {
            for variable in ["LC_ALL", "LC_CTYPE", "LANG"] {
                guard let value = Environment.value(variable), !value.isEmpty else { continue }
                return named(value)
            }
            return .utf8
        }

        /// The encoding of a locale name (`en_US.UTF-8`, `de_DE.ISO-8859-1`, `C`).
        public static func named(_ locale: String) -> Encoding {
            if locale == "C" || locale == "POSIX" { return .ascii }
            let charset = locale.split(separator: ".").dropFirst().first.map { $0.split(separator: "@").first ?? $0 } ?? ""
            let normalized = charset.lowercased().filter { $0.isLetter || $0.isNumber }
            switch normalized {
            case "iso88591", "latin1": return .latin1
            case "ansix341968", "ascii", "usascii": return .ascii
            default: return .utf8
            }
        }

        /// Input text in this encoding as UTF-8. ASCII input with bytes above 0x7F is taken as
        /// UTF-8 (nothing would be gained by refusing it).
        public func toUTF8(_ bytes: [UInt8]) -> [UInt8] {
            guard self == .latin1, bytes.contains(where: { $0 >= 0x80 }) else { return bytes }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + bytes.count / 8)
            for byte in bytes {
                if byte < 0x80 { out.append(byte) } else { out += [0xC0 | (byte >> 6), 0x80 | (byte & 0x3F)] }
            }
            return out
        }

        /// UTF-8 text in this encoding, for output: `nil` when nothing needs converting (UTF-8
        /// output, or only ASCII); characters the encoding lacks become `?`.
        public func fromUTF8(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
            guard self != .utf8, bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            var out: [UInt8] = []
            for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
                let limit: UInt32 = self == .latin1 ? 0xFF : 0x7F
                out.append(scalar.value <= limit ? UInt8(scalar.value) : 0x3F)
            }
            return out
        }
    }
}
