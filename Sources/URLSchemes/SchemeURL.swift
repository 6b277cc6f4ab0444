import AppRegistry

/// A URL as RFC 3986 defines it, parsed without Foundation: scheme, authority (user information,
/// host, port), path, query and fragment, each kept as written, with percent-decoded views.
///
/// ```swift
/// let url = try SchemeURL("appA://localhost/exportedData/data?SlNPTiBTdHJpbmc")
/// url.normalizedScheme   // "appa": schemes compare ignoring case
/// url.host               // "localhost"
/// url.pathComponents     // ["exportedData", "data"]
/// url.queryItems         // [QueryItem(name: "SlNPTiBTdHJpbmc", value: nil)]
/// ```
///
/// Parsing is strict where a lenient reading would change what a handler sees: every byte must be
/// one RFC 3986 allows in its component (a space, a quote, `<`, `>`, a control character or a
/// non-ASCII byte must be percent-encoded), and every `%` must start a `%XX` escape. An error says
/// what is wrong and at which byte. The URL is never given to a shell, so `$(…)` and `;` in it are
/// just characters.
public struct SchemeURL: Sendable, Hashable, CustomStringConvertible {
    /// The URL as given.
    public let text: String
    /// The scheme as written (`appA`).
    public let scheme: String
    /// The authority after `//`, as written; `nil` when the URL has none (`mailto:a@b`).
    public let authority: String?
    /// The path as written (may be empty).
    public let path: String
    /// The query after `?`, as written, without the `?`.
    public let query: String?
    /// The fragment after `#`, as written, without the `#`.
    public let fragment: String?

    /// Parses `text`.
    /// - Throws: ``URLSchemeError/invalidURL(_:reason:offset:)``.
    public init(_ text: String) throws(URLSchemeError) {
        self.text = text
        let bytes = Array(text.utf8)
        func fail(_ reason: String, _ offset: Int) -> URLSchemeError { .invalidURL(text, reason: reason, offset: offset) }
        guard let colon = bytes.firstIndex(of: 0x3A) else { throw fail("no scheme (a URL starts with SCHEME:)", 0) }
        let schemeText = String(decoding: bytes[..<colon], as: UTF8.self)
        if let problem = URLType.problem(withScheme: schemeText) {
            // Point at the offending byte of the scheme.
            let bad = bytes[..<colon].firstIndex { !(Self.isAlpha($0) || Self.isDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E) } ?? 0
            throw fail("the scheme \"\(schemeText)\" is not valid: \(problem)", colon == 0 ? 0 : bad)
        }
        scheme = schemeText
        // Every byte after the scheme must be allowed somewhere in a URL; component rules follow.
        var index = colon + 1
        let end = bytes.count
        let fragmentStart = bytes[index...].firstIndex(of: 0x23)
        let queryStart = bytes[index..<(fragmentStart ?? end)].firstIndex(of: 0x3F)
        let hierEnd = queryStart ?? fragmentStart ?? end
        if hierEnd - index >= 2 && bytes[index] == 0x2F && bytes[index + 1] == 0x2F {
            let authorityStart = index + 2
            let authorityEnd = bytes[authorityStart..<hierEnd].firstIndex(of: 0x2F) ?? hierEnd
            try Self.check(bytes, authorityStart..<authorityEnd, allowing: Self.authorityExtra, in: "the authority", text: text)
            authority = String(decoding: bytes[authorityStart..<authorityEnd], as: UTF8.self)
            index = authorityEnd
        } else {
            authority = nil
        }
        try Self.check(bytes, index..<hierEnd, allowing: Self.pathExtra, in: "the path", text: text)
        path = String(decoding: bytes[index..<hierEnd], as: UTF8.self)
        if let queryStart {
            let queryEnd = fragmentStart ?? end
            try Self.check(bytes, (queryStart + 1)..<queryEnd, allowing: Self.queryExtra, in: "the query", text: text)
            query = String(decoding: bytes[(queryStart + 1)..<queryEnd], as: UTF8.self)
        } else {
            query = nil
        }
        if let fragmentStart {
            try Self.check(bytes, (fragmentStart + 1)..<end, allowing: Self.queryExtra, in: "the fragment", text: text)
            fragment = String(decoding: bytes[(fragmentStart + 1)...], as: UTF8.self)
        } else {
            fragment = nil
        }
    }

    /// A URL from parts, each encoded as needed: the path's segments and the query items are
    /// percent-encoded (a `/` inside a segment too), so any text can travel as a value.
    public init(scheme: String, host: String? = nil, pathSegments: [String] = [], queryItems: [QueryItem]? = nil,
                fragment: String? = nil) throws(URLSchemeError) {
        var text = scheme + ":"
        if let host { text += "//" + PercentEncoding.encoded(host.utf8, keeping: "!$&'()*+,;=:") }
        for segment in pathSegments { text += "/" + PercentEncoding.encoded(segment.utf8, keeping: "!$&'()*+,;=:@") }
        if let queryItems { text += "?" + queryItems.map(\.encoded).joined(separator: "&") }
        if let fragment { text += "#" + PercentEncoding.encoded(fragment.utf8, keeping: "/?:@") }
        try self.init(text)
    }

    /// The scheme lowercased: schemes compare ignoring case (RFC 3986 3.1).
    public var normalizedScheme: String { URLType.normalized(scheme) }

    /// The user information before `@` in the authority, percent-decoded.
    public var user: String? {
        guard let authority, let at = authority.lastIndex(of: "@") else { return nil }
        return PercentEncoding.decoded(authority[..<at])
    }

    /// The host, percent-decoded (an IP literal keeps its brackets); `nil` without an authority.
    public var host: String? {
        guard let hostAndPort = hostAndPort else { return nil }
        return PercentEncoding.decoded(hostAndPort.host)
    }

    /// The port, when the authority names one.
    public var port: Int? { hostAndPort?.port.flatMap { Int($0) } }

    private var hostAndPort: (host: Substring, port: Substring?)? {
        guard let authority else { return nil }
        var rest = Substring(authority)
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        // A colon after an IP literal's closing bracket, or the last colon of a name, starts the port.
        let searchFrom = rest.lastIndex(of: "]") ?? rest.startIndex
        if let colon = rest[searchFrom...].lastIndex(of: ":") {
            return (rest[..<colon], rest[rest.index(after: colon)...])
        }
        return (rest, nil)
    }

    /// The path's segments, percent-decoded, without the empty one before a leading `/`.
    public var pathComponents: [String] {
        var segments = path.split(separator: "/", omittingEmptySubsequences: false)
        if path.hasPrefix("/") { segments.removeFirst() }
        if segments.count == 1 && segments[0].isEmpty { return [] }
        return segments.map(PercentEncoding.decoded)
    }

    /// The query's items (``QueryItem/items(inQuery:)``); empty without a query.
    public var queryItems: [QueryItem] { query.map(QueryItem.items(inQuery:)) ?? [] }

    /// The decoded value of the first query item named `name`.
    public func queryValue(_ name: String) -> String? { queryItems.first { $0.name == name }?.value }

    /// This URL with `items` added at the end of its query (before any fragment).
    public func appending(queryItems items: [QueryItem]) -> SchemeURL {
        guard !items.isEmpty else { return self }
        var text = scheme + ":" + (authority.map { "//" + $0 } ?? "") + path
        let added = items.map(\.encoded).joined(separator: "&")
        text += "?" + (query.map { $0.isEmpty ? added : $0 + "&" + added } ?? added)
        if let fragment { text += "#" + fragment }
        // Every part was valid before and the additions are encoded: this cannot fail.
        return try! SchemeURL(text)
    }

    /// The URL as given.
    public var description: String { text }

    // MARK: Characters (RFC 3986 appendix A)

    static func isAlpha(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    /// unreserved and sub-delims: `A-Z a-z 0-9 - . _ ~ ! $ & ' ( ) * + , ; =`.
    static func isBasic(_ b: UInt8) -> Bool {
        isAlpha(b) || isDigit(b) || Array("-._~!$&'()*+,;=".utf8).contains(b)
    }
    static let authorityExtra = Array(":@[]".utf8)
    static let pathExtra = Array(":@/".utf8)
    static let queryExtra = Array(":@/?".utf8)

    /// Checks that `range` holds only basic characters, `extra` and `%XX` escapes.
    static func check(_ bytes: [UInt8], _ range: Range<Int>, allowing extra: [UInt8], in component: String, text: String) throws(URLSchemeError) {
        var i = range.lowerBound
        while i < range.upperBound {
            let b = bytes[i]
            if b == 0x25 {
                guard i + 2 < range.upperBound,
                      PercentEncoding.hexValue(bytes[i + 1]) != nil, PercentEncoding.hexValue(bytes[i + 2]) != nil else {
                    throw .invalidURL(text, reason: "'%' in \(component) does not start a %XX escape", offset: i)
                }
                i += 3
                continue
            }
            guard isBasic(b) || extra.contains(b) else {
                let shown: String
                switch b {
                case 0x20: shown = "a space"
                case 0..<0x20, 0x7F: shown = "the control character 0x" + String(b, radix: 16, uppercase: true)
                case 0x80...: shown = "the non-ASCII byte 0x" + String(b, radix: 16, uppercase: true)
                default: shown = "'\(Unicode.Scalar(b))'"
                }
                throw .invalidURL(text, reason: "\(shown) in \(component) must be percent-encoded", offset: i)
            }
            i += 1
        }
    }
}
