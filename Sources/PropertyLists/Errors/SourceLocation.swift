/// Where in its input something was found: a line and column in text, or a byte offset in binary.
public enum SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// A 1-based line and column in a text (XML or OpenStep) property list.
    case text(line: Int, column: Int)
    /// A 0-based byte offset in a binary property list.
    case byteOffset(Int)

    /// `line 4, column 20` or `byte offset 1234`.
    public var description: String {
        switch self {
        case .text(let line, let column): "line \(line), column \(column)"
        case .byteOffset(let offset): "byte offset \(offset)"
        }
    }

    /// The line, for text locations.
    public var line: Int? {
        if case .text(let line, _) = self { return line }
        return nil
    }
}
