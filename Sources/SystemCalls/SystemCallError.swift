import SystemPackage

/// A system call that failed: which call, on what path (when there is one), and the `errno` it
/// returned. Printed as one sentence: "cannot flush /a/Documents: Input/output error".
public struct SystemCallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call.
    public var call: SystemCall
    /// The file or folder it concerned, when there is one.
    public var path: String?
    /// What the system said.
    public var errno: Errno

    /// An error of `call` on `path` with `errno`.
    public init(_ call: SystemCall, path: String? = nil, errno: Errno) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    /// "cannot ACTION PATH: REASON".
    public var description: String {
        "cannot \(call.action)\(path.map { " " + $0 } ?? ""): \(errno)"
    }
}
