/// Command-line words read one at a time, `--option=value` split into the option and its value.
/// (The tools parse by hand: swift-argument-parser's start-up cost is most of a query process.)
public struct ArgumentWords {
    var rest: ArraySlice<String>

    /// Reads `arguments` (without the program name).
    public init(_ arguments: ArraySlice<String>) { rest = arguments }

    /// The next word; `--name=value` comes back as `--name`, and `value` next.
    public mutating func next() -> String? {
        guard let word = rest.popFirst() else { return nil }
        if word.hasPrefix("--"), let eq = word.firstIndex(of: "=") {
            rest.insert(String(word[word.index(after: eq)...]), at: rest.startIndex)
            return String(word[..<eq])
        }
        return word
    }

    /// The next word, left in place.
    public func peek() -> String? { rest.first }

    /// The value of an option just read; `nil` when the words ran out.
    public mutating func value() -> String? { rest.popFirst() }

    /// Every word left (after `--`), taken as they are.
    public mutating func remaining() -> [String] {
        defer { rest = [] }
        return Array(rest)
    }
}
