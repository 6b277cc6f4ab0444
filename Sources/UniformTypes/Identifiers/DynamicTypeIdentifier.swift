/// Apple-compatible dynamic type identifiers: `dyn.a` followed by a base-32 encoding of a tag
/// specification, which is what macOS answers for a tag no declared type claims.
///
/// The payload is `key=value` pairs joined by `:`; a conformance pair (key `0`) comes first,
/// after a `?`. Keys are one-character codes for tag classes; well-known conformance targets
/// also have codes. `:` and `\` inside values are escaped with `\`.
///
/// ```swift
/// DynamicTypeIdentifier.encode(payload: "?0=6:1=srt")   // "dyn.ah62d4rv4ge81g6xy"
/// ```
public enum DynamicTypeIdentifier {
    /// The prefix every dynamic identifier has.
    public static let prefix = "dyn.a"

    /// Apple's base-32 alphabet (index 0 is `a`; no `i`, `j`, `l`, `o`).
    static let alphabet = Array("abcdefghkmnpqrstuvwxyz0123456789".utf8)

    /// Codes for tag classes (keys) in a payload.
    public static let tagClassCodes: [String: String] = [
        "1": "public.filename-extension", "2": "com.apple.ostype", "3": "public.mime-type",
        "4": "com.apple.nspboard-type", "5": "public.url-scheme",
    ]

    /// Codes for common conformance targets (values of key `0`).
    public static let identifierCodes: [String: String] = [
        "6": "public.data", "7": "public.text", "8": "public.plain-text", "9": "public.utf16-plain-text",
        "A": "com.apple.traditional-mac-plain-text", "B": "public.image", "C": "public.video",
        "D": "public.audio", "E": "public.directory", "F": "public.folder",
    ]

    /// A decoded tag specification.
    public struct Specification: Sendable, Hashable {
        /// The types the dynamic type conforms to (codes expanded where known).
        public var conformsTo: [String]
        /// Tag class → tags, in payload order.
        public var tags: [(tagClass: String, tag: String)]

        /// Creates a specification.
        public init(conformsTo: [String], tags: [(tagClass: String, tag: String)]) {
            self.conformsTo = conformsTo
            self.tags = tags
        }

        /// Equal when conformances and tags are equal in order.
        public static func == (a: Self, b: Self) -> Bool {
            a.conformsTo == b.conformsTo && a.tags.map { "\($0.tagClass)\u{0}\($0.tag)" } == b.tags.map { "\($0.tagClass)\u{0}\($0.tag)" }
        }

        /// Hashes what equality compares.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(conformsTo)
            for t in tags { hasher.combine(t.tagClass); hasher.combine(t.tag) }
        }
    }

    /// Why a `dyn.` identifier could not be decoded.
    public struct DecodingError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong.
        public var description: String
    }

    /// The identifier for a raw payload.
    public static func encode(payload: String) -> String {
        var out = Array(prefix.utf8)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in payload.utf8 {
            buffer = buffer << 8 | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(alphabet[Int((buffer >> UInt32(bits)) & 31)])
            }
        }
        if bits > 0 { out.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The payload for a tag of `tagClass`, optionally constrained to conform to `conformingTo`.
    /// Extension tags are lower-cased first, as macOS does.
    public static func payload(tag: String, tagClass: String, conformingTo: String?) -> String {
        var pairs: [String] = []
        if let conformingTo {
            let code = identifierCodes.first { $0.value == conformingTo }?.key ?? escape(conformingTo)
            pairs.append("?0=" + code)
        }
        let classCode = tagClassCodes.first { $0.value == tagClass }?.key ?? escape(tagClass)
        let value = tagClass == "public.filename-extension" ? tag.lowercased() : tag
        pairs.append(classCode + "=" + escape(value))
        return pairs.joined(separator: ":")
    }

    /// The identifier macOS would give a tag no declared type claims.
    public static func identifier(tag: String, tagClass: String, conformingTo: String?) -> String {
        encode(payload: payload(tag: tag, tagClass: tagClass, conformingTo: conformingTo))
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            if c == ":" || c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out
    }

    /// The payload inside a `dyn.a…` identifier.
    /// - Throws: ``DecodingError`` for a wrong prefix, a character outside the alphabet, or bytes that
    ///   are not UTF-8.
    public static func decodePayload(_ identifier: String) throws(DecodingError) -> String {
        let lower = TypeIdentifierSyntax.normalized(identifier)
        guard lower.hasPrefix(prefix) else { throw DecodingError(description: "\(identifier) does not start with \(prefix)") }
        var bytes: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for c in lower.utf8.dropFirst(prefix.utf8.count) {
            guard let index = alphabet.firstIndex(of: c) else {
                throw DecodingError(description: "'\(Character(Unicode.Scalar(c)))' is not in the dynamic-identifier alphabet")
            }
            buffer = buffer << 5 | UInt32(index)
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
            }
        }
        // Left-over bits are the zero padding of the last group.
        guard buffer & ((1 << UInt32(bits)) - 1) == 0 else { throw DecodingError(description: "\(identifier) has non-zero padding bits") }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw DecodingError(description: "\(identifier) does not decode to UTF-8 text")
        }
        return text
    }

    /// The tag specification inside a `dyn.a…` identifier.
    public static func decode(_ identifier: String) throws(DecodingError) -> Specification {
        let payload = try decodePayload(identifier)
        var spec = Specification(conformsTo: [], tags: [])
        var body = Substring(payload)
        if body.hasPrefix("?") { body = body.dropFirst() }
        for pair in splitUnescaped(body) {
            guard let eq = pair.firstIndex(of: "=") else { throw DecodingError(description: "payload pair '\(pair)' has no '='") }
            let key = String(pair[..<eq])
            let value = unescape(pair[pair.index(after: eq)...])
            if key == "0" {
                spec.conformsTo.append(identifierCodes[value] ?? value)
            } else {
                spec.tags.append((tagClassCodes[key] ?? key, value))
            }
        }
        return spec
    }

    static func splitUnescaped(_ s: Substring) -> [Substring] {
        var parts: [Substring] = []
        var start = s.startIndex
        var i = s.startIndex
        var escaped = false
        while i < s.endIndex {
            if escaped { escaped = false }
            else if s[i] == "\\" { escaped = true }
            else if s[i] == ":" { parts.append(s[start..<i]); start = s.index(after: i) }
            i = s.index(after: i)
        }
        if start < s.endIndex || !parts.isEmpty { parts.append(s[start...]) }
        return parts.filter { !$0.isEmpty }
    }

    static func unescape(_ s: Substring) -> String {
        var out = ""
        var escaped = false
        for c in s {
            if escaped { out.append(c); escaped = false }
            else if c == "\\" { escaped = true }
            else { out.append(c) }
        }
        return out
    }
}
