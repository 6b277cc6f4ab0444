/// Why a property list could not be read, and where.
///
/// ```
/// line 4, column 20: </dict> closes <string> (opened on line 4) [CFBundleName]
/// ```
public struct PropertyListError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, in a sentence without the location.
    public var message: String
    /// Where in the input, when known.
    public var location: SourceLocation?
    /// The key path of the value being read, when known.
    public var keyPath: PropertyListPath?
    /// The format being read.
    public var format: PropertyListFormat?

    /// Creates an error.
    public init(_ message: String, at location: SourceLocation? = nil, keyPath: PropertyListPath? = nil,
                format: PropertyListFormat? = nil) {
        self.message = message
        self.location = location
        self.keyPath = keyPath
        self.format = format
    }

    /// `LOCATION: MESSAGE [KEY PATH]`, leaving out what is unknown.
    public var description: String {
        var out = ""
        if let location { out += "\(location): " }
        out += message
        if let keyPath, !keyPath.components.isEmpty { out += " [\(keyPath)]" }
        return out
    }
}
