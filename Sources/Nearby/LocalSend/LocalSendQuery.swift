/// A request target split into its path and query parameters, percent-decoded, with the limits a
/// server needs (few and short parameters; bytes that do not decode refuse the whole target).
struct LocalSendQuery: Sendable, Equatable {
    /// The path, without the query.
    var path: String
    /// The parameters in order; a repeated name keeps its first value in ``subscript(_:)``.
    var parameters: [(name: String, value: String)]

    static func == (a: LocalSendQuery, b: LocalSendQuery) -> Bool {
        a.path == b.path && a.parameters.map(\.name) == b.parameters.map(\.name) && a.parameters.map(\.value) == b.parameters.map(\.value)
    }

    /// The first value of `name`.
    subscript(_ name: String) -> String? { parameters.first { $0.name == name }?.value }

    /// The most parameters read.
    static let maximumParameters = 16

    /// The target `uri` (`/path?a=1&b=2`); `nil` when it is malformed (bad percent escapes, text
    /// that is not UTF-8, too many parameters).
    init?(_ uri: String) {
        let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard let path = parts.first.flatMap({ Self.unescape(Substring($0)) }) else { return nil }
        self.path = path
        parameters = []
        guard parts.count == 2 else { return }
        let pairs = parts[1].split(separator: "&", omittingEmptySubsequences: true)
        guard pairs.count <= Self.maximumParameters else { return nil }
        for pair in pairs {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.unescape(kv[0]), let value = kv.count == 2 ? Self.unescape(kv[1]) : "" else { return nil }
            parameters.append((name, value))
        }
    }

    /// Percent-decodes `text` (`+` is a space, as forms write it); `nil` for a bad escape or
    /// bytes that are not UTF-8.
    static func unescape(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var i = text.utf8.startIndex
        let utf8 = text.utf8
        while i < utf8.endIndex {
            let c = utf8[i]
            if c == UInt8(ascii: "%") {
                let h = utf8.index(after: i)
                guard h < utf8.endIndex, utf8.index(after: h) < utf8.endIndex,
                      let high = hex(utf8[h]), let low = hex(utf8[utf8.index(after: h)]) else { return nil }
                bytes.append(high << 4 | low)
                i = utf8.index(h, offsetBy: 2)
                continue
            }
            bytes.append(c == UInt8(ascii: "+") ? UInt8(ascii: " ") : c)
            i = utf8.index(after: i)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// `text` with everything but unreserved characters (RFC 3986) percent-encoded.
    static func escape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return out
    }

    static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
