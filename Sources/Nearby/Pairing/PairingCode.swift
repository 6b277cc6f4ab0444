import PAKE

/// The one-time code `nearby pair --show-code` prints and the other device types: eight decimal
/// digits (26.6 bits), shown as `1234-5678`. It is the SPAKE2 password; the device showing it
/// takes exactly one attempt and then forgets it, so a guesser has one chance in 10⁸.
public struct PairingCode: Sendable, Hashable, CustomStringConvertible {
    /// The eight digits.
    public let digits: String

    /// A random code.
    public static func random() -> PairingCode {
        var generator = SystemRandomNumberGenerator()
        let number = UInt32.random(in: 0..<100_000_000, using: &generator)
        let text = String(number)
        return PairingCode(checked: String(repeating: "0", count: 8 - text.count) + text)
    }

    private init(checked digits: String) { self.digits = digits }

    /// The code typed by a person: eight digits, with spaces or dashes anywhere.
    public init?(typed: String) {
        let digits = typed.filter { $0 != "-" && $0 != " " }
        guard digits.count == 8, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        self.digits = digits
    }

    /// `1234-5678`.
    public var description: String { String(digits.prefix(4)) + "-" + String(digits.suffix(4)) }

    /// The SPAKE2 scalar w.
    var scalar: [UInt8] { SPAKE2.passwordScalar(Array(digits.utf8)) }
}
