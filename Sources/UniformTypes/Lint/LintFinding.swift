import PropertyLists

/// One problem `InfoPlistLinter` found.
public struct LintFinding: Sendable, Hashable {
    /// Errors make `uti lint` fail; warnings do not.
    public enum Severity: String, Sendable, Hashable, Comparable {
        case warning, error
        /// Warnings before errors.
        public static func < (a: Severity, b: Severity) -> Bool { a == .warning && b == .error }
    }

    /// How serious.
    public var severity: Severity
    /// What is wrong, and what to do.
    public var message: String
    /// Where in the plist.
    public var keyPath: PropertyListPath
    /// The line and column in an XML plist, when known.
    public var location: SourceLocation?

    /// Creates a finding.
    public init(_ severity: Severity, _ message: String, at keyPath: PropertyListPath, location: SourceLocation? = nil) {
        self.severity = severity
        self.message = message
        self.keyPath = keyPath
        self.location = location
    }

    /// `FILE:LINE:COLUMN: severity: message [key path]` (without line and column when unknown).
    public func formatted(file: String) -> String {
        var out = file
        if case .text(let line, let column)? = location { out += ":\(line):\(column)" }
        return out + ": \(severity.rawValue): \(message) [\(keyPath)]"
    }
}
