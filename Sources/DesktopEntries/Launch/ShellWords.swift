/// The shell quoting the desktop entry specification prescribes for `Exec=`, done exactly as GLib
/// does it (`g_shell_quote`, `g_shell_parse_argv`), so that the words an app receives are
/// byte-identical to what GIO would start it with. Bytes, not characters: file names need not be
/// UTF-8.
public enum ShellWords {
    /// Why a command line cannot be split.
    public enum SplitError: Error, Sendable, Hashable, CustomStringConvertible {
        /// Nothing but blanks and comments.
        case empty
        /// A quote that is never closed (the quote character).
        case unmatchedQuote(Character)
        /// A backslash as the very last character.
        case trailingBackslash

        /// One sentence.
        public var description: String {
            switch self {
            case .empty: "the command line is empty"
            case .unmatchedQuote(let quote): "a \(quote) quote is never closed"
            case .trailingBackslash: "the command line ends with a backslash"
            }
        }
    }

    /// `text` in single quotes, each `'` written as `'\''`.
    public static func quote(_ text: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x27]
        out.reserveCapacity(text.count + 2)
        for byte in text {
            if byte == 0x27 { out += [0x27, 0x5C, 0x27, 0x27] } else { out.append(byte) }
        }
        out.append(0x27)
        return out
    }

    /// Splits a command line into words (`g_shell_parse_argv`).
    public static func split(_ text: String) throws(SplitError) -> [String] {
        try split(Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Splits a command line into words: blanks separate words; `'…'` is literal; in `"…"` a
    /// backslash escapes only `$ \` " \` and newline; outside quotes a backslash escapes any
    /// character (and removes a newline); `#` at the start of a word comments out the line.
    public static func split(_ text: [UInt8]) throws(SplitError) -> [[UInt8]] {
        var tokens: [[UInt8]] = []
        // The current token and whether one is open (GLib distinguishes an empty token from none).
        var token: [UInt8] = []
        var open = false
        var quote: UInt8 = 0
        var escaped = false
        var i = 0
        func delimit() {
            if open { tokens.append(token) }
            token.removeAll(keepingCapacity: true)
            open = false
        }
        func add(_ bytes: UInt8...) {
            token.append(contentsOf: bytes)
            open = true
        }
        while i < text.count {
            let byte = text[i]
            if quote == 0x5C {
                if byte != 0x0A { add(0x5C, byte) }
                quote = 0
            } else if quote == 0x23 {
                while i < text.count && text[i] != 0x0A { i += 1 }
                quote = 0
                if i == text.count { break }
            } else if quote != 0 {
                if byte == quote && !(quote == 0x22 && escaped) { quote = 0 }
                add(byte)
            } else {
                switch byte {
                case 0x0A: delimit()
                case 0x20, 0x09: if open && !token.isEmpty { delimit() }
                case 0x27, 0x22:
                    add(byte)
                    quote = byte
                case 0x5C: quote = byte
                case 0x23:
                    if i == 0 || text[i - 1] == 0x20 || text[i - 1] == 0x0A || text[i - 1] == 0 {
                        quote = byte
                    } else {
                        add(byte)
                    }
                default: add(byte)
                }
            }
            escaped = byte == 0x5C ? !escaped : false
            i += 1
        }
        delimit()
        if quote == 0x5C { throw .trailingBackslash }
        if quote == 0x27 || quote == 0x22 { throw .unmatchedQuote(Character(Unicode.Scalar(quote))) }
        if tokens.isEmpty { throw .empty }
        var words: [[UInt8]] = []
        for token in tokens { words.append(try unquote(token)) }
        return words
    }

    /// One token with its quotes and escapes removed (`g_shell_unquote`).
    static func unquote(_ token: [UInt8]) throws(SplitError) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < token.count {
            let byte = token[i]
            if byte == 0x5C {
                i += 1
                if i < token.count {
                    if token[i] != 0x0A { out.append(token[i]) }
                    i += 1
                }
            } else if byte == 0x27 {
                i += 1
                while i < token.count && token[i] != 0x27 { out.append(token[i]); i += 1 }
                guard i < token.count else { throw .unmatchedQuote("'") }
                i += 1
            } else if byte == 0x22 {
                i += 1
                var closed = false
                while i < token.count {
                    let c = token[i]
                    if c == 0x22 { closed = true; i += 1; break }
                    if c == 0x5C {
                        i += 1
                        if i < token.count, [0x22, 0x5C, 0x60, 0x24, 0x0A].contains(token[i]) {
                            out.append(token[i])
                            i += 1
                        } else {
                            out.append(0x5C)
                        }
                        continue
                    }
                    out.append(c)
                    i += 1
                }
                guard closed else { throw .unmatchedQuote("\"") }
            } else {
                out.append(byte)
                i += 1
            }
        }
        return out
    }
}
