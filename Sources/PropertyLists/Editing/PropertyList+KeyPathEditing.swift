/// Reading and editing values by key path, with `plutil`'s rules: a component that is a number
/// indexes an array; as the last component of an insert, it inserts at that index (or appends,
/// when it equals the count).
extension PropertyList {
    /// The value at `path`, or `nil` when some component does not resolve.
    public func value(at path: PropertyListPath) -> PropertyList? {
        var current = self
        for component in path.components {
            switch (component, current) {
            case (.key(let k), .dictionary(let d)):
                guard let next = d[k] else { return nil }
                current = next
            case (.key(let k), .array(let a)):
                guard let i = Int(k), a.indices.contains(i) else { return nil }
                current = a[i]
            case (.index(let i), .array(let a)):
                guard a.indices.contains(i) else { return nil }
                current = a[i]
            default: return nil
            }
        }
        return current
    }

    /// How an edit treats the value at the end of its path.
    public enum EditMode: Sendable {
        /// Add a value; fail if the key exists (`plutil -insert`).
        case insert
        /// Add a value to the end of the array at the path (`plutil -insert -append`).
        case append
        /// Set a value whether or not it exists (`plutil -replace`).
        case replace
        /// Remove the value (`plutil -remove`).
        case remove
    }

    /// A reason an edit failed.
    public struct EditError: Error, Sendable, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// Applies an edit at `path`.
    /// - Parameters:
    ///   - mode: insert, append, replace or remove.
    ///   - path: where; must have at least one component.
    ///   - newValue: the value to put there (ignored for `remove`).
    /// - Throws: ``EditError`` when the path does not lead to a container, an insert would
    ///   overwrite, or a remove finds nothing.
    public mutating func edit(_ mode: EditMode, at path: PropertyListPath, value newValue: PropertyList? = nil) throws(EditError) {
        if mode == .append {
            try modify(path.components[...], mode: mode, newValue: newValue)
            return
        }
        guard !path.components.isEmpty else { throw EditError(description: "the key path is empty") }
        try modify(path.components[...], mode: mode, newValue: newValue)
    }

    private mutating func modify(_ components: ArraySlice<PropertyListPath.Component>, mode: EditMode,
                                 newValue: PropertyList?) throws(EditError) {
        guard let first = components.first else {
            // Only `append` gets here: the path named the array itself.
            guard case .array(var elements) = self, let newValue else {
                throw EditError(description: "-append needs an array at the key path, found \(typeName)")
            }
            elements.append(newValue)
            self = .array(elements)
            return
        }
        let rest = components.dropFirst()
        let isLast = rest.isEmpty && mode != .append
        let name: String
        switch first {
        case .key(let k): name = k
        case .index(let i): name = String(i)
        }
        switch self {
        case .dictionary(var entries):
            if isLast {
                switch mode {
                case .insert:
                    guard entries[name] == nil else { throw EditError(description: "a value already exists at key \"\(name)\"") }
                    entries[name] = newValue
                case .replace, .append: entries[name] = newValue
                case .remove:
                    guard entries.removeValue(forKey: name) != nil else { throw EditError(description: "no value at key \"\(name)\"") }
                }
            } else {
                guard var child = entries[name] else { throw EditError(description: "no value at key \"\(name)\"") }
                try child.modify(rest, mode: mode, newValue: newValue)
                entries[name] = child
            }
            self = .dictionary(entries)
        case .array(var elements):
            guard let index = Int(name), index >= 0 else {
                throw EditError(description: "\"\(name)\" is not an index into an array")
            }
            if isLast {
                switch mode {
                case .insert, .append:
                    guard index <= elements.count else { throw EditError(description: "index \(index) is past the end of an array of \(elements.count)") }
                    elements.insert(newValue!, at: index)
                case .replace:
                    guard index <= elements.count else { throw EditError(description: "index \(index) is past the end of an array of \(elements.count)") }
                    if index == elements.count { elements.append(newValue!) } else { elements[index] = newValue! }
                case .remove:
                    guard index < elements.count else { throw EditError(description: "no value at index \(index)") }
                    elements.remove(at: index)
                }
            } else {
                guard index < elements.count else { throw EditError(description: "no value at index \(index)") }
                try elements[index].modify(rest, mode: mode, newValue: newValue)
            }
            self = .array(elements)
        default:
            throw EditError(description: "cannot descend into a \(typeName) with \"\(name)\"")
        }
    }
}
