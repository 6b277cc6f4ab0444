/// Why a value cannot be written in the requested format, and which value.
public struct PropertyListWriteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What cannot be written.
    public var message: String
    /// The path of the offending value.
    public var keyPath: PropertyListPath

    /// Creates an error.
    public init(_ message: String, at keyPath: PropertyListPath) {
        self.message = message
        self.keyPath = keyPath
    }

    /// `MESSAGE [KEY PATH]`.
    public var description: String { "\(message) [\(keyPath)]" }
}
