import SystemCalls

/// Why an open request could not be written or read: the call and errno, or the file and why.
public enum OpenRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Writing or replacing the request file failed.
    case system(SystemCallError)
    /// The file is not a request: not a property list, or without `DocumentPath` or `URL`.
    case unreadableFile(path: String, reason: String)

    /// One sentence.
    public var description: String {
        switch self {
        case .system(let error): error.description
        case .unreadableFile(let path, let reason): "\(path): \(reason)"
        }
    }
}
