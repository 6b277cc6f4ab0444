import SystemCalls

/// A parsed key file in the freedesktop.org format shared by `.desktop` files and `mimeapps.list`:
/// `[Group]` headers, `Key=value` and `Key[locale]=value` pairs, `#` comments.
///
/// Written by hand rather than through GLib's `GKeyFile` because linking GLib would bring its
/// start-up cost (type system, locale set-up) into every short-lived `openin` query, and the
/// format is small. It follows GKeyFile where the specification leaves room, because GIO is what
/// users compare us with: leading whitespace on a line is ignored, whitespace around `=` is
/// dropped on the key side and before the value, a `\r` before the newline is dropped, a group
/// named twice is one group, a key given twice in a group keeps its last value, any line that is
/// not a group, a pair or a comment makes the whole file invalid. Values are kept raw; escapes
/// (`\s \n \t \r \\`, and `\;` in lists) are decoded when a value is read as a string or a list, so
/// that one bad escape spoils only its key. A UTF-8 byte-order mark makes the file invalid, as in
/// GLib (the specification requires plain UTF-8, and an entry GIO cannot see must not be one we
/// offer), with an error that names it.
public struct KeyFile: Sendable {
    /// The largest file read (GLib has no limit; 4 MiB is 400 times the largest desktop entry
    /// seen, and keeps a hostile file from using unbounded memory).
    public static let maximumSize = 4 << 20

    /// One `key=value` line.
    public struct Entry: Sendable, Hashable {
        /// The key without its locale (`Name` for `Name[de_DE@euro]`).
        public var key: String
        /// The locale in brackets, if any (`de_DE@euro`).
        public var locale: String?
        /// The value as written, escapes not decoded, leading whitespace removed.
        public var rawValue: [UInt8]
        /// The 1-based line.
        public var line: Int
    }

    /// One `[Group]` with its entries in file order (later duplicates included).
    public struct Group: Sendable {
        /// The group name.
        public var name: String
        /// The line of its (first) header.
        public var line: Int
        /// Entries in file order.
        public var entries: [Entry]

        /// The last entry for `key` (and `locale`): a repeated key keeps its last value.
        public func entry(_ key: String, locale: String? = nil) -> Entry? {
            entries.last { $0.key == key && $0.locale == locale }
        }

        /// The distinct unlocalized keys, in the order of their first appearance.
        public var keys: [String] {
            var seen = Set<String>(), result: [String] = []
            for entry in entries where entry.locale == nil && seen.insert(entry.key).inserted { result.append(entry.key) }
            return result
        }
    }

    /// The file the data came from, for messages.
    public var path: String?
    /// The groups in the order of their first header.
    public var groups: [Group]

    /// The group named `name`.
    public func group(_ name: String) -> Group? { groups.first { $0.name == name } }

    /// Reads and parses the file at `path`.
    /// - Throws: ``KeyFileError`` with the line of the first line that cannot be parsed.
    public init(contentsOf path: String) throws(KeyFileError) {
        let bytes: [UInt8]
        do {
            let file = try OwnedDescriptor.open(path, .readOnly)
            let size = try file.status().size
            if size > Int64(Self.maximumSize) { throw KeyFileError(path: path, line: 0, reason: .tooLarge(Int(size))) }
            bytes = try file.readAll(sizeHint: Int(size) + 1)
        } catch let error as KeyFileError {
            throw error
        } catch {
            throw KeyFileError(path: path, line: 0, reason: .unreadable("\(error)"))
        }
        try self.init(bytes: bytes, path: path)
    }

    /// Parses `bytes`.
    /// - Throws: ``KeyFileError`` with the line of the first line that cannot be parsed.
    public init(bytes: [UInt8], path: String? = nil) throws(KeyFileError) {
        if bytes.count > Self.maximumSize { throw KeyFileError(path: path, line: 0, reason: .tooLarge(bytes.count)) }
        self.path = path
        groups = []
        var groupIndex: [String: Int] = [:]
        var current: Int?
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { throw KeyFileError(path: path, line: 1, reason: .byteOrderMark) }
        var start = 0
        var lineNumber = 0
        while start < bytes.count {
            lineNumber += 1
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            let next = end + 1
            if end > start && bytes[end - 1] == 0x0D { end -= 1 }
            var first = start
            while first < end && Self.isSpace(bytes[first]) { first += 1 }
            defer { start = next }
            if first == end || bytes[first] == 0x23 { continue }
            if bytes[first] == 0x5B, let name = Self.groupName(bytes[first..<end]) {
                guard let text = String(validating: name, as: UTF8.self) else {
                    throw KeyFileError(path: path, line: lineNumber, reason: .invalidUTF8)
                }
                guard !name.isEmpty, !name.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0x5B || $0 == 0x5D }) else {
                    throw KeyFileError(path: path, line: lineNumber, reason: .invalidGroupName(text))
                }
                if let existing = groupIndex[text] {
                    current = existing
                } else {
                    groupIndex[text] = groups.count
                    current = groups.count
                    groups.append(Group(name: text, line: lineNumber, entries: []))
                }
                continue
            }
            guard let equals = bytes[first..<end].firstIndex(of: 0x3D) else {
                throw KeyFileError(path: path, line: lineNumber, reason: .notKeyValueGroupOrComment)
            }
            var keyEnd = equals
            while keyEnd > first && Self.isSpace(bytes[keyEnd - 1]) { keyEnd -= 1 }
            var valueStart = equals + 1
            while valueStart < end && Self.isSpace(bytes[valueStart]) { valueStart += 1 }
            let keyBytes = bytes[first..<keyEnd]
            guard let (key, locale) = Self.splitKey(keyBytes) else {
                throw KeyFileError(path: path, line: lineNumber, reason: .invalidKeyName(String(decoding: keyBytes, as: UTF8.self)))
            }
            guard let group = current else { throw KeyFileError(path: path, line: lineNumber, reason: .keyOutsideGroup) }
            let value = Array(bytes[valueStart..<end])
            if key == "Encoding", locale == nil, value != Array("UTF-8".utf8) {
                throw KeyFileError(path: path, line: lineNumber, reason: .unsupportedEncoding(String(decoding: value, as: UTF8.self)))
            }
            groups[group].entries.append(Entry(key: key, locale: locale, rawValue: value, line: lineNumber))
        }
    }

    /// GLib's `g_ascii_isspace`.
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }

    /// The name of a `[name]` line (spaces and tabs may follow the `]`), or `nil` when the line is
    /// not a group header.
    static func groupName(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard let close = line.firstIndex(of: 0x5D) else { return nil }
        var after = close + 1
        while after < line.endIndex && (line[after] == 0x20 || line[after] == 0x09) { after += 1 }
        return after == line.endIndex ? line[(line.startIndex + 1)..<close] : nil
    }

    /// A key and its locale suffix; `nil` for an invalid key name.
    static func splitKey(_ bytes: ArraySlice<UInt8>) -> (String, String?)? {
        guard !bytes.isEmpty, let text = String(validating: bytes, as: UTF8.self) else { return nil }
        if let open = bytes.firstIndex(of: 0x5B) {
            guard bytes.last == 0x5D, open > bytes.startIndex else { return nil }
            let locale = bytes[(open + 1)..<(bytes.endIndex - 1)]
            guard !locale.isEmpty, !locale.contains(0x5B), !locale.contains(0x5D), !locale.contains(0x3D),
                  !bytes[..<open].contains(0x5D) else { return nil }
            return (String(decoding: bytes[..<open], as: UTF8.self), String(decoding: locale, as: UTF8.self))
        }
        guard !bytes.contains(0x5D) else { return nil }
        return (text, nil)
    }
}

extension KeyFile.Entry {
    /// The value as a string: escapes decoded (`\s` space, `\n`, `\t`, `\r`, `\\`), UTF-8 required.
    /// As in GLib, an unknown escape (`\$`) is kept as written and a trailing backslash is
    /// dropped (``problems(in:)`` reports both).
    /// - Throws: ``KeyFileError`` for invalid UTF-8 (GLib then treats the key as unreadable).
    public func string(in path: String?) throws(KeyFileError) -> String {
        try Self.decode(rawValue[...], separator: nil, path: path, line: line)[0]
    }

    /// The value as a list separated by `;` (a `\;` is a literal semicolon); a trailing `;` ends
    /// the last element and does not start an empty one.
    /// - Throws: ``KeyFileError`` for an unknown escape, a trailing backslash or invalid UTF-8
    ///   (GLib then treats the whole list as unreadable, and so do we).
    public func list(in path: String?) throws(KeyFileError) -> [String] {
        try Self.decode(rawValue[...], separator: 0x3B, path: path, line: line)
    }

    /// The value as a boolean: `true` or `1`, `false` or `0`, trailing whitespace allowed.
    public func boolean(in path: String?) throws(KeyFileError) -> Bool {
        var end = rawValue.endIndex
        while end > 0 && KeyFile.isSpace(rawValue[end - 1]) { end -= 1 }
        switch rawValue[..<end] {
        case [0x74, 0x72, 0x75, 0x65], [0x31]: return true
        case [0x66, 0x61, 0x6C, 0x73, 0x65], [0x30]: return false
        default: throw KeyFileError(path: path, line: line, reason: .invalidBoolean(String(decoding: rawValue, as: UTF8.self)))
        }
    }

    /// What is wrong with the value's escapes even though ``string(in:)`` reads it (an unknown
    /// escape, a trailing backslash): for explanations.
    public func problems(in path: String?) -> [KeyFileError] {
        do { _ = try Self.decode(rawValue[...], separator: 0x00, path: path, line: line); return [] } catch { return [error] }
    }

    static func decode(_ raw: ArraySlice<UInt8>, separator: UInt8?, path: String?, line: Int) throws(KeyFileError) -> [String] {
        var pieces: [String] = []
        var current: [UInt8] = []
        current.reserveCapacity(raw.count)
        var i = raw.startIndex
        func finish() throws(KeyFileError) {
            guard let text = String(validating: current, as: UTF8.self) else {
                throw KeyFileError(path: path, line: line, reason: .invalidUTF8)
            }
            pieces.append(text)
            current.removeAll(keepingCapacity: true)
        }
        while i < raw.endIndex {
            let byte = raw[i]
            if byte == 0x5C {
                i += 1
                guard i < raw.endIndex else {
                    if separator != nil { throw KeyFileError(path: path, line: line, reason: .escapeAtEnd) }
                    break
                }
                switch raw[i] {
                case 0x73: current.append(0x20)
                case 0x6E: current.append(0x0A)
                case 0x74: current.append(0x09)
                case 0x72: current.append(0x0D)
                case 0x5C: current.append(0x5C)
                case let other where other == separator: current.append(other)
                case let other:
                    if separator != nil {
                        throw KeyFileError(path: path, line: line, reason: .invalidEscape("\\" + String(decoding: [other], as: UTF8.self)))
                    }
                    current += [0x5C, other]
                }
            } else if let separator, byte == separator {
                try finish()
            } else {
                current.append(byte)
            }
            i += 1
        }
        if separator == nil || !current.isEmpty { try finish() }
        return pieces
    }
}
