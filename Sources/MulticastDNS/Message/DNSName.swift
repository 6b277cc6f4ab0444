/// A domain name: a sequence of labels, each 1–63 bytes, at most 255 bytes in wire form (RFC 1035
/// §2.3.4). A label is bytes, not text: DNS-SD instance names are UTF-8 and may hold dots and
/// spaces ("Alice's Mac.2"), which a dotted string could not tell from separators.
///
/// Two names are equal when their labels are equal without regard to ASCII case, as DNS compares
/// names (RFC 1035 §2.3.3; RFC 6762 §16: bytes above 0x7F are compared as they are).
public struct DNSName: Sendable, Hashable, CustomStringConvertible {
    /// The labels, most specific first (`["_di-nearby", "_tcp", "local"]`); none for the root.
    public let labels: [[UInt8]]

    /// The root name (no labels).
    public static let root = DNSName(unchecked: [])

    /// `local.`, the domain of every Multicast DNS name (RFC 6762 §3).
    public static let local = DNSName(unchecked: [Array("local".utf8)])

    /// A name of `labels`. Throws when a label is empty or longer than 63 bytes, or when the name
    /// would be longer than 255 bytes.
    public init(labels: [[UInt8]]) throws(MulticastDNSError) {
        let shown = DNSName(unchecked: labels).description
        for label in labels {
            if label.isEmpty { throw .emptyLabel(name: shown) }
            if label.count > 63 { throw .labelTooLong(label: String(decoding: label, as: UTF8.self), bytes: label.count) }
        }
        let length = Self.wireLength(of: labels)
        if length > 255 { throw .nameTooLong(name: shown, bytes: length) }
        self.labels = labels
    }

    /// A name of `labels`, each given as text (its UTF-8 bytes).
    public init(labels: [String]) throws(MulticastDNSError) {
        try self.init(labels: labels.map { Array($0.utf8) })
    }

    /// A name written with dots between labels (`"_di-nearby._tcp.local"`, a final dot allowed);
    /// `\.` is a dot inside a label and `\\` a backslash, as ``description`` writes them.
    public init(_ text: String) throws(MulticastDNSError) {
        if text == "." || text.isEmpty {
            self.init(unchecked: [])
            return
        }
        var labels: [[UInt8]] = []
        var current: [UInt8] = []
        var escaped = false
        for byte in text.utf8 {
            if escaped {
                current.append(byte)
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: ".") {
                if current.isEmpty { throw .emptyLabel(name: text) }
                labels.append(current)
                current = []
            } else {
                current.append(byte)
            }
        }
        if !current.isEmpty || escaped { labels.append(current + (escaped ? [UInt8(ascii: "\\")] : [])) }
        try self.init(labels: labels)
    }

    /// A name whose labels were checked already (by the parser, or built from checked names).
    init(unchecked labels: [[UInt8]]) {
        self.labels = labels
    }

    /// The length of the name in uncompressed wire form: each label with its length byte, and the
    /// root's zero byte.
    public var wireLength: Int { Self.wireLength(of: labels) }

    static func wireLength(of labels: [[UInt8]]) -> Int {
        labels.reduce(1) { $0 + 1 + $1.count }
    }

    /// This name with `label` in front (an instance name in front of its service type). Throws
    /// when the label or the result is too long.
    public func prepending(_ label: [UInt8]) throws(MulticastDNSError) -> DNSName {
        try DNSName(labels: [label] + labels)
    }

    /// This name with `suffix`'s labels after its own (`di-h1` + `local`).
    public func appending(_ suffix: DNSName) throws(MulticastDNSError) -> DNSName {
        try DNSName(labels: labels + suffix.labels)
    }

    /// Whether the last labels of this name are `suffix`'s (compared as names are).
    public func hasSuffix(_ suffix: DNSName) -> Bool {
        guard suffix.labels.count <= labels.count else { return false }
        return zip(labels.suffix(suffix.labels.count), suffix.labels).allSatisfy { Self.equal($0, $1) }
    }

    /// The name without its first label (the parent domain); the root for the root.
    public var parent: DNSName { DNSName(unchecked: Array(labels.dropFirst())) }

    /// The labels with ASCII letters lowered: what equality and hashing use, and the key of
    /// compression.
    var canonicalLabels: [[UInt8]] { labels.map(Self.lowered) }

    static func lowered(_ label: [UInt8]) -> [UInt8] {
        label.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }

    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { x, y in x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A) }
    }

    /// Equal without regard to ASCII case.
    public static func == (a: DNSName, b: DNSName) -> Bool {
        a.labels.count == b.labels.count && zip(a.labels, b.labels).allSatisfy { equal($0, $1) }
    }

    /// Hashes the labels with ASCII letters lowered, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(labels.count)
        for label in labels { hasher.combine(Self.lowered(label)) }
    }

    /// The name with a dot after each label (`_di-nearby._tcp.local.`; `.` for the root); dots
    /// and backslashes inside a label are escaped with a backslash, bytes that are not UTF-8 show
    /// as U+FFFD.
    public var description: String {
        if labels.isEmpty { return "." }
        return labels.map { label in
            String(decoding: label, as: UTF8.self).replacingEscapes()
        }.joined(separator: ".") + "."
    }

    /// The first label as text (an instance name such as `Alice's Mac`), as UTF-8.
    public var firstLabel: String { labels.first.map { String(decoding: $0, as: UTF8.self) } ?? "" }
}

extension String {
    fileprivate func replacingEscapes() -> String {
        var out = ""
        for character in self {
            if character == "." || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
