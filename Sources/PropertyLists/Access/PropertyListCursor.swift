/// A value together with its key path, with typed accessors whose errors name that path.
///
/// Real Info.plists are loose about types, so the accessors say exactly what was wrong and where:
///
/// ```swift
/// let root = PropertyListCursor(document.value)
/// for declaration in try root.array("UTExportedTypeDeclarations") ?? [] {
///     let identifier = try declaration.string("UTTypeIdentifier")          // required
///     let parents = try declaration.stringOrArray("UTTypeConformsTo") ?? []  // "a" or ["a", "b"]
/// }
/// ```
public struct PropertyListCursor: Sendable {
    /// The value here.
    public let value: PropertyList
    /// Where the value is in its document.
    public let path: PropertyListPath

    /// A cursor at the root of `value`.
    public init(_ value: PropertyList, path: PropertyListPath = .root) {
        self.value = value
        self.path = path
    }

    /// An accessor's complaint: a value of the wrong type, or a required key that is missing.
    public struct AccessError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The path of the value (or of the missing key).
        public var path: PropertyListPath
        /// What was expected and what was found.
        public var message: String
        /// `MESSAGE [PATH]`.
        public var description: String { "\(message) [\(path)]" }
    }

    private func mismatch(_ expected: String, _ found: PropertyList, at path: PropertyListPath) -> AccessError {
        AccessError(path: path, message: "expected \(expected), found \(found.typeNameWithArticle)")
    }

    /// The entry for `key`, or `nil` when this is not a dictionary or has no such key.
    public subscript(key: String) -> PropertyListCursor? {
        value[key].map { PropertyListCursor($0, path: path.appending(key)) }
    }

    /// The string for `key`.
    /// - Throws: ``AccessError`` when the key is missing (with `required`) or holds another type.
    public func string(_ key: String, required: Bool = true) throws(AccessError) -> String? {
        guard let entry = self[key] else {
            if required { throw AccessError(path: path.appending(key), message: "missing required key") }
            return nil
        }
        guard case .string(let s) = entry.value else { throw mismatch("a string", entry.value, at: entry.path) }
        return s
    }

    /// The string for `key`, or `nil` when absent; a wrong type still throws.
    public func optionalString(_ key: String) throws(AccessError) -> String? {
        try string(key, required: false)
    }

    /// The boolean for `key`, or `nil` when absent.
    public func bool(_ key: String) throws(AccessError) -> Bool? {
        guard let entry = self[key] else { return nil }
        guard case .bool(let b) = entry.value else { throw mismatch("a boolean", entry.value, at: entry.path) }
        return b
    }

    /// The elements of the array for `key`, each with its path, or `nil` when absent.
    public func array(_ key: String) throws(AccessError) -> [PropertyListCursor]? {
        guard let entry = self[key] else { return nil }
        guard case .array(let elements) = entry.value else { throw mismatch("an array", entry.value, at: entry.path) }
        return elements.enumerated().map { PropertyListCursor($0.element, path: entry.path.appending($0.offset)) }
    }

    /// The dictionary for `key` as a cursor, or `nil` when absent.
    public func dictionary(_ key: String) throws(AccessError) -> PropertyListCursor? {
        guard let entry = self[key] else { return nil }
        guard case .dictionary = entry.value else { throw mismatch("a dictionary", entry.value, at: entry.path) }
        return entry
    }

    /// Strings for `key` given either as one string or as an array of strings, as real files give
    /// `UTTypeConformsTo` and tag values; `nil` when absent.
    public func stringOrArray(_ key: String) throws(AccessError) -> [String]? {
        guard let entry = self[key] else { return nil }
        switch entry.value {
        case .string(let s): return [s]
        case .array(let elements):
            var strings: [String] = []
            for (i, element) in elements.enumerated() {
                guard case .string(let s) = element else {
                    throw mismatch("a string", element, at: entry.path.appending(i))
                }
                strings.append(s)
            }
            return strings
        default: throw mismatch("a string or an array of strings", entry.value, at: entry.path)
        }
    }
}
