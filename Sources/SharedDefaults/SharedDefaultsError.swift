import AppGroups
import SystemCalls

/// What went wrong with a suite's defaults, as a value.
public enum SharedDefaultsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A system call failed.
    case system(SystemCallError)
    /// The suite's property list cannot be read: its path and why. Nothing is written over it.
    case unreadableStore(path: String, reason: String)
    /// The suite's property list holds something other than a dictionary.
    case notADictionary(path: String, found: String)
    /// The shared change counter file is of another layout (a newer version of this library).
    case incompatibleSharedFile(path: String, version: UInt32)
    /// A suite name that cannot name a file.
    case invalidSuiteName(String, reason: String)
    /// A value too large for one journal record (16 MiB).
    case valueTooLarge(key: String, bytes: Int)
    /// The group container was refused (not a member, invalid identifier…).
    case group(AppGroupError)

    /// One sentence.
    public var description: String {
        switch self {
        case .system(let error): error.description
        case .unreadableStore(let path, let reason): "\(path) cannot be read as a defaults property list: \(reason); it is left as it is"
        case .notADictionary(let path, let found): "\(path) holds \(found), not a dictionary of defaults; it is left as it is"
        case .incompatibleSharedFile(let path, let version): "\(path) is of layout \(version), which this version does not know"
        case .invalidSuiteName(let name, let reason): "\"\(name)\" cannot name a defaults suite: \(reason)"
        case .valueTooLarge(let key, let bytes): "the value for \(key) takes \(bytes) bytes; a default holds at most 16 MiB"
        case .group(let error): error.description
        }
    }
}
