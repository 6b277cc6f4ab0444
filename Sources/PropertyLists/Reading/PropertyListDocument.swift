/// A parsed property list together with what the reader noticed on the way.
public struct PropertyListDocument: Sendable {
    /// The root value.
    public var value: PropertyList
    /// The format it was read from.
    public var format: PropertyListFormat
    /// Keys that appeared twice in one dictionary; the last value was kept, as CoreFoundation does.
    public var duplicateKeys: [DuplicateKey] = []
    /// Where each key path starts in the source, when ``PropertyListReadOptions/recordsLocations``
    /// was set and the format is textual: for a dictionary entry, its `<key>`.
    public var locations: [PropertyListPath: SourceLocation] = [:]

    /// A key repeated inside one dictionary.
    public struct DuplicateKey: Sendable, Hashable {
        /// The path of the repeated entry.
        public var keyPath: PropertyListPath
        /// Where the later occurrence is.
        public var location: SourceLocation?
    }

    /// Creates a document.
    public init(value: PropertyList, format: PropertyListFormat) {
        self.value = value
        self.format = format
    }

    /// The recorded location of `path`, or of its nearest recorded ancestor.
    public func location(of path: PropertyListPath) -> SourceLocation? {
        var components = path.components
        while true {
            if let found = locations[PropertyListPath(components)] { return found }
            if components.isEmpty { return nil }
            components.removeLast()
        }
    }
}
