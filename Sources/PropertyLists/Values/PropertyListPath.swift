/// A path from the root of a property list to one value, such as
/// `UTExportedTypeDeclarations[3].UTTypeConformsTo`.
///
/// Used in error messages and by `plutil`'s key-path verbs, whose dotted spelling
/// (`UTExportedTypeDeclarations.3.UTTypeConformsTo`) it also parses.
public struct PropertyListPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// One step of a path.
    public enum Component: Sendable, Hashable {
        /// A dictionary key.
        case key(String)
        /// An array index.
        case index(Int)
    }

    /// The steps from the root.
    public var components: [Component]

    /// Creates a path from its steps; the empty path is the root.
    public init(_ components: [Component] = []) { self.components = components }

    /// Creates a path from its steps.
    public init(arrayLiteral elements: Component...) { self.components = elements }

    /// The root path.
    public static let root = PropertyListPath()

    /// This path extended by a key.
    public func appending(_ key: String) -> PropertyListPath { PropertyListPath(components + [.key(key)]) }

    /// This path extended by an index.
    public func appending(_ index: Int) -> PropertyListPath { PropertyListPath(components + [.index(index)]) }

    /// Parses `plutil`'s dotted key path: components separated by `.`; a component made only of
    /// digits is an array index when applied to an array (see ``PropertyList/value(at:)``).
    /// A backslash escapes a dot inside a key (`CFBundleURLTypes.0.com\.example`).
    public init(dotted text: String) {
        var parts: [Component] = []
        var current = ""
        var escaping = false
        for ch in text {
            if escaping { current.append(ch); escaping = false }
            else if ch == "\\" { escaping = true }
            else if ch == "." { parts.append(.key(current)); current = "" }
            else { current.append(ch) }
        }
        if escaping { current.append("\\") }
        if !text.isEmpty { parts.append(.key(current)) }
        self.components = parts
    }

    /// The path as `Key[3].Other`; the root is shown as `(root)`.
    public var description: String {
        if components.isEmpty { return "(root)" }
        // Hostile input can nest hundreds of levels; show the ends of such a path.
        if components.count > 24 {
            let head = PropertyListPath(Array(components.prefix(8))).description
            let tail = PropertyListPath(Array(components.suffix(8))).description
            return "\(head)…(\(components.count - 16) more)…\(tail.first == "[" ? "" : ".")\(tail)"
        }
        var out = ""
        for c in components {
            switch c {
            case .key(let k):
                if !out.isEmpty { out += "." }
                out += k
            case .index(let i): out += "[\(i)]"
            }
        }
        return out
    }
}
