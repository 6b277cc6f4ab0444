import SystemCalls

/// Paths as users type them.
package enum PathText {
    /// `~` and `~/…` with the home folder (`HOME`); anything else as it is (`~user` is left alone).
    package static func expandingTilde(_ path: String) -> String {
        if path == "~" { return Environment.home }
        if path.hasPrefix("~/") { return Environment.home + String(path.dropFirst(1)) }
        return path
    }
}

extension String {
    /// Without spaces, tabs and newlines at either end.
    package func trimmingSpaces() -> String {
        var s = Substring(self)
        while let first = s.first, first == " " || first == "\t" || first == "\n" || first == "\r" { s.removeFirst() }
        while let last = s.last, last == " " || last == "\t" || last == "\n" || last == "\r" { s.removeLast() }
        return String(s)
    }
}
