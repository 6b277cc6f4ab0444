import PropertyLists

/// How Apple's frameworks read loosely typed Info.plist values, in one place, so that the linter
/// warns about exactly what the app model tolerates.
public enum InfoPlistValue {
    /// How a value reads as a boolean.
    public enum BooleanReading: Sendable, Equatable {
        /// A real `<true/>` or `<false/>`.
        case boolean(Bool)
        /// A string or number that macOS reads as a boolean (`"YES"`, `"1"`, `1`): tolerated,
        /// and the linter warns.
        case tolerated(Bool, from: String)
        /// Nothing macOS reads as a boolean (a date, an array…).
        case invalid
    }

    /// Reads `value` as a boolean the way `-[NSString boolValue]` and CFBoolean do: `Y`, `y`,
    /// `T`, `t` or a digit 1–9 at the start of a string (after spaces and leading zeros or
    /// signs) is true, any other string false; a non-zero number is true.
    public static func boolean(_ value: PropertyList) -> BooleanReading {
        switch value {
        case .bool(let b): return .boolean(b)
        case .integer(let n): return .tolerated(n != 0, from: "the integer \(n)")
        case .unsignedInteger(let n): return .tolerated(n != 0, from: "the integer \(n)")
        case .real(let x): return .tolerated(x != 0, from: "the number \(x)")
        case .string(let s):
            var scalars = Substring(s).unicodeScalars.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
            if let sign = scalars.first, sign == "+" || sign == "-" { scalars = scalars.dropFirst() }
            scalars = scalars.drop { $0 == "0" }
            let first = scalars.first
            let truth = first.map { "YyTt123456789".unicodeScalars.contains($0) } ?? false
            return .tolerated(truth, from: "the string \"\(s)\"")
        default: return .invalid
        }
    }

    /// The boolean `value` stands for, as macOS reads it; `nil` for a value that is none.
    public static func bool(_ value: PropertyList?) -> Bool? {
        guard let value else { return nil }
        switch boolean(value) {
        case .boolean(let b), .tolerated(let b, _): return b
        case .invalid: return nil
        }
    }

    /// A string or an array of strings (Info.plists use both for lists); non-strings in an array
    /// are skipped.
    public static func strings(_ value: PropertyList?) -> [String] {
        switch value {
        case .string(let s)?: [s]
        case .array(let elements)?: elements.compactMap(\.stringValue)
        default: []
        }
    }
}
