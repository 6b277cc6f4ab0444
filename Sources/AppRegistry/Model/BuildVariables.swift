import PropertyLists

/// Xcode's build variables in an Info.plist (`$(PRODUCT_BUNDLE_IDENTIFIER)`, `${PRODUCT_NAME}`,
/// `${PRODUCT_NAME:rfc1034identifier}`), substituted from given values: the linter checks the
/// built value with them, and a registration keeps them so the registry sees the app as built.
public struct BuildVariables: Sendable, Hashable {
    /// Name → value.
    public var values: [String: String]

    /// Values for substitution.
    public init(_ values: [String: String] = [:]) { self.values = values }

    /// Whether `text` still holds a variable (`$(…)` or `${…}`).
    public static func isUnresolved(_ text: String) -> Bool { text.contains("$(") || text.contains("${") }

    /// A variable left unresolved: where, and as written.
    public struct Unresolved: Sendable, Hashable {
        public var keyPath: PropertyListPath
        public var variables: [String]
    }

    /// `value` with every defined variable substituted; the variables left unresolved.
    public func substitute(_ value: PropertyList, at path: PropertyListPath = .root) -> (PropertyList, [Unresolved]) {
        var unresolved: [Unresolved] = []
        let result = substitute(value, path: path, into: &unresolved)
        return (result, unresolved)
    }

    private func substitute(_ value: PropertyList, path: PropertyListPath, into unresolved: inout [Unresolved]) -> PropertyList {
        switch value {
        case .string(let s):
            guard s.contains("$(") || s.contains("${") else { return value }
            let (text, missing) = substitute(s)
            if !missing.isEmpty { unresolved.append(Unresolved(keyPath: path, variables: missing)) }
            return .string(text)
        case .array(let elements):
            return .array(elements.enumerated().map { substitute($0.element, path: path.appending($0.offset), into: &unresolved) })
        case .dictionary(let entries):
            var copy = entries
            for (key, child) in entries { copy[key] = substitute(child, path: path.appending(key), into: &unresolved) }
            return .dictionary(copy)
        default:
            return value
        }
    }

    /// One string: `$(NAME)`, `${NAME}` and `${NAME:modifier}` replaced when defined (the
    /// `rfc1034identifier` modifier turns characters other than letters, digits and periods into
    /// hyphens, as Xcode does); the variables left, as written.
    public func substitute(_ text: String) -> (String, [String]) {
        var out = ""
        var rest = Substring(text)
        var missing: [String] = []
        while let start = rest.firstIndex(of: "$") {
            out += rest[..<start]
            let after = rest.index(after: start)
            guard after < rest.endIndex, rest[after] == "(" || rest[after] == "{",
                  let end = rest[after...].firstIndex(of: rest[after] == "(" ? ")" : "}") else {
                out.append("$")
                rest = rest[after...]
                continue
            }
            let inner = rest[rest.index(after: after)..<end]
            let parts = inner.split(separator: ":", maxSplits: 1)
            let name = String(parts.first ?? inner)
            if let defined = values[name] {
                out += parts.count > 1 && parts[1] == "rfc1034identifier"
                    ? String(defined.map { $0.isLetter || $0.isNumber || $0 == "." ? $0 : "-" }) : defined
            } else {
                missing.append(String(rest[start...end]))
                out += rest[start...end]
            }
            rest = rest[rest.index(after: end)...]
        }
        out += rest
        return (out, missing)
    }
}
