import Foundation

/// One test vector of RFC 9382 Appendix B, read from Fixtures/rfc9382-vectors.txt.
struct RFC9382Vector: Sendable, CustomStringConvertible {
    /// The vector's heading as the RFC prints it, e.g. "A='server', B='client'".
    var description: String
    var identityA: [UInt8]
    var identityB: [UInt8]
    /// Every value by the RFC's name for it: w, x, pA, y, pB, K, TT, Hash(TT), Ke, Ka, KcA, KcB,
    /// A conf, B conf.
    var values: [String: [UInt8]]

    /// The names each vector of the appendix gives a value for.
    static let names = ["w", "x", "pA", "y", "pB", "K", "TT", "Hash(TT)", "Ke", "Ka", "KcA", "KcB", "A conf", "B conf"]

    /// The value named `name`, or no bytes (which no expectation accepts) if the vector lacks it.
    subscript(_ name: String) -> [UInt8] { values[name] ?? [] }

    /// The vectors in the fixture, in the RFC's order; none if the file cannot be read (which
    /// `RFC9382VectorTests.theFixtureHoldsTheAppendix` reports).
    static let all: [RFC9382Vector] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/rfc9382-vectors.txt")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return parse(text)
    }()

    /// Parses the appendix's layout: "spake2: A='…', B='…'" starts a vector, "name = 0x…"
    /// starts a value, and a line of hex digits alone continues the value before it (the RFC
    /// breaks long values over lines, not always after a whole byte, so a value's digits are
    /// joined before they are decoded).
    static func parse(_ text: String) -> [RFC9382Vector] {
        var headings: [(description: String, identityA: [UInt8], identityB: [UInt8], digits: [(String, String)])] = []
        for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("spake2: "), let match = line.firstMatch(of: /A='([^']*)', B='([^']*)'/) {
                headings.append((String(line.dropFirst("spake2: ".count)), Array(match.1.utf8), Array(match.2.utf8), []))
            } else if let range = line.range(of: " = 0x"), !headings.isEmpty {
                headings[headings.count - 1].digits.append((String(line[..<range.lowerBound]), String(line[range.upperBound...])))
            } else if !headings.isEmpty, !headings[headings.count - 1].digits.isEmpty {
                let last = headings[headings.count - 1].digits.count - 1
                headings[headings.count - 1].digits[last].1 += line
            }
        }
        return headings.map { heading in
            RFC9382Vector(description: heading.description, identityA: heading.identityA, identityB: heading.identityB,
                          values: Dictionary(heading.digits.map { ($0.0, bytes(hex: $0.1[...])) }, uniquingKeysWith: { first, _ in first }))
        }
    }
}

/// `hex` as bytes; a malformed digit pair becomes no bytes, so the value cannot match.
func bytes(hex: Substring) -> [UInt8] {
    let digits = Array(hex)
    guard digits.count.isMultiple(of: 2) else { return [] }
    var result: [UInt8] = []
    for index in stride(from: 0, to: digits.count, by: 2) {
        guard let byte = UInt8(String(digits[index ... index + 1]), radix: 16) else { return [] }
        result.append(byte)
    }
    return result
}

/// `bytes` as lowercase hex, so that a failed expectation shows both values as the RFC prints them.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}
