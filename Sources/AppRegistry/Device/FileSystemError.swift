import SystemCalls
import SystemPackage

/// A failed file-system call.
public struct FileSystemError: Error, Sendable, CustomStringConvertible {
    /// The path involved.
    public var path: String
    /// What the system said.
    public var reason: String

    /// From a C `errno`.
    public init(path: String, errno: Int32) {
        self.path = path
        self.reason = Errno(rawValue: errno).description
    }

    /// From a failed system call.
    public init(_ error: SystemCallError) {
        self.path = error.path ?? ""
        self.reason = error.errno.description
    }

    /// From a message that already names the path.
    public init(_ message: String) {
        self.path = ""
        self.reason = message
    }

    /// `PATH: reason`.
    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}
