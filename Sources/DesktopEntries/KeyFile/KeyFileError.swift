/// Why a key file (a `.desktop` file, a `mimeapps.list`) or one of its values cannot be read:
/// the file, the line and what is wrong there.
public struct KeyFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: Sendable, Hashable {
        /// A line that is neither a group header, a `key=value` pair nor a comment.
        case notKeyValueGroupOrComment
        /// A `key=value` pair before the first group header.
        case keyOutsideGroup
        /// A group name that is empty or holds a control character or a bracket.
        case invalidGroupName(String)
        /// A key that is empty or holds `=`, `[` or `]` outside its locale suffix.
        case invalidKeyName(String)
        /// Bytes that are not UTF-8 where text is required.
        case invalidUTF8
        /// A backslash followed by a character that has no escape meaning (`\q`).
        case invalidEscape(String)
        /// A backslash at the very end of a value.
        case escapeAtEnd
        /// A boolean that is not `true`, `false`, `1` or `0`.
        case invalidBoolean(String)
        /// An `Encoding` key that names anything but UTF-8.
        case unsupportedEncoding(String)
        /// The file is larger than ``KeyFile/maximumSize``.
        case tooLarge(Int)
        /// The file could not be read.
        case unreadable(String)
        /// The file starts with a UTF-8 byte-order mark.
        case byteOrderMark
        /// A list value (of the key named) that holds the record separator U+001E, which the
        /// compiled index uses between list values.
        case recordSeparatorInList(String)
    }

    /// The file, when known.
    public var path: String?
    /// The 1-based line, 0 when the problem is the whole file.
    public var line: Int
    /// What is wrong.
    public var reason: Reason

    /// Creates an error.
    public init(path: String?, line: Int, reason: Reason) {
        self.path = path
        self.line = line
        self.reason = reason
    }

    /// One sentence with the place first ("FILE:LINE: ...").
    public var description: String {
        let place = (path ?? "<data>") + (line > 0 ? ":\(line)" : "")
        let what: String
        switch reason {
        case .notKeyValueGroupOrComment: what = "not a key=value pair, a [group] or a # comment"
        case .keyOutsideGroup: what = "a key before the first [group]"
        case .invalidGroupName(let name): what = "invalid group name [\(name)]"
        case .invalidKeyName(let key): what = "invalid key name \"\(key)\""
        case .invalidUTF8: what = "not UTF-8"
        case .invalidEscape(let sequence): what = "invalid escape sequence \(sequence)"
        case .escapeAtEnd: what = "a backslash at the end of the value"
        case .invalidBoolean(let value): what = "\"\(value)\" is not a boolean (true, false, 1 or 0)"
        case .unsupportedEncoding(let name): what = "Encoding=\(name) is not supported (only UTF-8)"
        case .tooLarge(let size): what = "\(size) bytes is larger than the \(KeyFile.maximumSize)-byte limit for a key file"
        case .unreadable(let why): what = why
        case .byteOrderMark: what = "starts with a byte-order mark (EF BB BF), which desktop entries must not have (GLib refuses it too)"
        case .recordSeparatorInList(let key): what = "a value of the \(key)= list holds the control character U+001E; that value is ignored"
        }
        return "\(place): \(what)"
    }
}
