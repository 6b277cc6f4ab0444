import PropertyLists

/// One problem the linter found: a rule, how serious, what is wrong and what to do, where (key
/// path, line and column), and, when one cause shows in several places, every place.
public struct LintFinding: Sendable, Hashable {
    /// Errors make `uti lint` fail; warnings do not.
    public enum Severity: String, Sendable, Hashable, Comparable {
        case warning, error
        /// Warnings before errors.
        public static func < (a: Severity, b: Severity) -> Bool { a == .warning && b == .error }
    }

    /// A place where the cause shows.
    public struct Place: Sendable, Hashable {
        public var keyPath: PropertyListPath
        public var location: SourceLocation?
    }

    /// The rule broken.
    public var rule: LintRule
    /// How serious.
    public var severity: Severity
    /// What is wrong, and what to do.
    public var message: String
    /// Where in the plist (the first place, when there are several).
    public var keyPath: PropertyListPath
    /// The line and column in an XML plist, when known.
    public var location: SourceLocation?
    /// Every place the cause shows (one for most findings).
    public var places: [Place]

    /// Creates a finding.
    public init(_ rule: LintRule, _ severity: Severity, _ message: String, at keyPath: PropertyListPath, location: SourceLocation? = nil) {
        self.rule = rule
        self.severity = severity
        self.message = message
        self.keyPath = keyPath
        self.location = location
        places = [Place(keyPath: keyPath, location: location)]
    }

    /// `FILE:LINE:COLUMN: severity: message [key path] (rule)` (without line and column when unknown).
    public func formatted(file: String) -> String {
        var out = file
        if case .text(let line, let column)? = location { out += ":\(line):\(column)" }
        let more = places.count > 1 ? " and \(places.count - 1) more place\(places.count == 2 ? "" : "s")" : ""
        return out + ": \(severity.rawValue): \(message) [\(keyPath)\(more)] (\(rule.rawValue))"
    }
}
