/// Why a registry file cannot be used (and must be rebuilt).
public enum RegistryFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be opened or mapped.
    case unreadable(String)
    /// Shorter than its header says, or than any registry.
    case truncated(Int)
    /// Not a registry file at all.
    case notARegistry
    /// A registry of another format version.
    case otherVersion(UInt32)
    /// The checksum or an internal reference is wrong.
    case damaged(String)

    /// A sentence for logs.
    public var description: String {
        switch self {
        case .unreadable(let why): "registry file unreadable: \(why)"
        case .truncated(let size): "registry file truncated (\(size) bytes)"
        case .notARegistry: "not a registry file"
        case .otherVersion(let v): "registry file of format version \(v), expected \(RegistryImageLayout.formatVersion)"
        case .damaged(let why): "registry file damaged: \(why)"
        }
    }
}
