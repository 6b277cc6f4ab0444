#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What went wrong while choosing or delivering, with the path or name it concerns.
public enum HandlerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call failed: what we were doing and `errno`.
    case system(String, Int32)
    /// A document, app or activity that does not exist or cannot take the documents.
    case refused(String)

    public var description: String {
        switch self {
        case .system(let what, let code): "\(what): \(String(cString: strerror(code)))"
        case .refused(let why): why
        }
    }
}
