import SystemCalls

/// The rules for a notification name, in one place (Darwin's notify(3) and notifyd):
/// - 1 to 512 bytes of UTF-8, no NUL byte;
/// - `self.` names are private to the process: they never reach the shared table, and other
///   processes neither see nor send them;
/// - `user.uid.N.` names (and `user.uid.N` itself) belong to user N: only that user, or root,
///   may post or register them.
public enum NotificationName {
    /// The longest name, in bytes.
    public static let maximumLength = 512
    /// The prefix of process-local names.
    public static let processLocalPrefix = "self."
    /// The prefix of names owned by one user.
    public static let userPrefix = "user.uid."

    /// Where a name is delivered.
    public enum Scope: Sendable, Hashable {
        /// Within this process only (`self.`).
        case process
        /// To every process that shares the table.
        case shared
    }

    /// Checks `name` for this process's user; its scope.
    public static func validate(_ name: String) throws(NotificationError) -> Scope {
        try validate(name, user: ProcessSignals.userID)
    }

    /// Checks `name` for a caller running as `user`; its scope.
    public static func validate(_ name: String, user: UInt32) throws(NotificationError) -> Scope {
        let bytes = name.utf8
        if bytes.isEmpty { throw .invalidName(name, reason: "it is empty") }
        if bytes.count > maximumLength { throw .invalidName(String(name.prefix(40)) + "…", reason: "it is \(bytes.count) bytes long, more than \(maximumLength)") }
        if bytes.contains(0) { throw .invalidName(name, reason: "it holds a NUL byte") }
        if name.hasPrefix(processLocalPrefix) { return .process }
        if name.hasPrefix(userPrefix), let owner = owner(of: name), owner != user, user != 0 {
            throw .notAuthorized(name, owner: owner)
        }
        return .shared
    }

    /// The user a `user.uid.N.…` name belongs to.
    public static func owner(of name: String) -> UInt32? {
        guard name.hasPrefix(userPrefix) else { return nil }
        let digits = name.dropFirst(userPrefix.count).prefix { $0.isASCII && $0.isNumber }
        return UInt32(digits)
    }
}
