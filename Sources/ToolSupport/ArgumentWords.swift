/// Command-line words read one at a time, `--option=value` split into the option and its value.
/// (The tools parse by hand: swift-argument-parser's start-up cost is most of a query process.)
package struct ArgumentWords {
    var rest: ArraySlice<String>

    /// Reads `arguments` (without the program name).
    package init(_ arguments: ArraySlice<String>) { rest = arguments }

    /// The next word; `--name=value` comes back as `--name`, and `value` next.
    package mutating func next() -> String? {
        guard let word = rest.popFirst() else { return nil }
        if word.hasPrefix("--"), let eq = word.firstIndex(of: "=") {
            rest.insert(String(word[word.index(after: eq)...]), at: rest.startIndex)
            return String(word[..<eq])
        }
        return word
    }

    /// The next word, left in place.
    package func peek() -> String? { rest.first }

    /// The value of an option just read; `nil` when the words ran out.
    package mutating func value() -> String? { rest.popFirst() }

    /// Every word left (after `--`), taken as they are.
    package mutating func remaining() -> [String] {
        defer { rest = [] }
        return Array(rest)
    }
}
