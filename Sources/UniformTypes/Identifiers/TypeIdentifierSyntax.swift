/// The syntax rules for type identifiers (reverse-DNS strings such as `com.example.person`).
///
/// Valid characters are ASCII letters and digits, `-`, `.`, and any character above U+007F;
/// labels between dots are non-empty. Comparison ignores ASCII case, as Apple's does.
public enum TypeIdentifierSyntax {
    /// Why an identifier is not valid.
    public enum Problem: Sendable, Hashable, CustomStringConvertible {
        /// The identifier is the empty string.
        case empty
        /// A character outside letters, digits, `-`, `.` and non-ASCII.
        case invalidCharacter(Character, offset: Int)
        /// Two dots in a row, or a dot at the start or end.
        case emptyLabel

        /// A sentence for lint output.
        public var description: String {
            switch self {
            case .empty: "the identifier is empty"
            case .invalidCharacter(let c, let offset): "'\(c)' at offset \(offset) is not allowed in a type identifier (letters, digits, '-', '.')"
            case .emptyLabel: "the identifier has an empty label (a leading, trailing or doubled '.')"
            }
        }
    }

    /// The first problem with `identifier`, or `nil` when it is valid.
    public static func problem(with identifier: String) -> Problem? {
        guard !identifier.isEmpty else { return .empty }
        for (offset, scalar) in identifier.unicodeScalars.enumerated() {
            switch scalar.value {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E: continue
            case 0x80...: continue
            default: return .invalidCharacter(Character(scalar), offset: offset)
            }
        }
        // Byte checks: `String.contains(_:)` pulls in string processing and costs a query process
        // more than the whole lookup.
        var previous: UInt8 = 0x2E
        for byte in identifier.utf8 {
            if byte == 0x2E && previous == 0x2E { return .emptyLabel }
            previous = byte
        }
        if previous == 0x2E { return .emptyLabel }
        return nil
    }

    /// Whether `identifier` is valid.
    public static func isValid(_ identifier: String) -> Bool { problem(with: identifier) == nil }

    /// The form used for comparison and hashing: ASCII letters lower-cased, everything else kept.
    public static func normalized(_ identifier: String) -> String {
        guard identifier.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return identifier }
        return String(decoding: identifier.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// Domains a third party must not declare types in: Apple's and the dynamic namespace.
    public static let reservedPrefixes = ["public.", "com.apple.", "dyn."]
}
