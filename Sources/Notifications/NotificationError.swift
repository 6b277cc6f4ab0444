import SystemCalls

/// Why a notification call failed: the Darwin status it stands for, and the particulars.
public enum NotificationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name breaks a rule (``NotificationName``): which rule, in a phrase.
    case invalidName(String, reason: String)
    /// A `user.uid.N.` name of another user.
    case notAuthorized(String, owner: UInt32)
    /// Not a live registration of this center.
    case invalidToken(NotificationToken)
    /// A descriptor to reuse that no file-descriptor registration of this center returned.
    case invalidFile(Int32)
    /// Not a signal number (1...64).
    case invalidSignal(Int32)
    /// The shared table is full: too many names registered at once, or too many processes
    /// registered for one name.
    case tableFull(path: String, limit: String)
    /// Another process held the table's lock longer than the timeout (stopped, or in a debugger).
    case tableBusy(path: String, holder: Int32, stopped: Bool, seconds: Double)
    /// A system call failed.
    case system(SystemCallError)

    /// The Darwin status code this error stands for.
    public var status: NotifyStatus {
        switch self {
        case .invalidName: .invalidName
        case .notAuthorized: .notAuthorized
        case .invalidToken: .invalidToken
        case .invalidFile: .invalidFile
        case .invalidSignal: .invalidSignal
        case .tableFull, .tableBusy, .system: .failed
        }
    }

    /// One sentence.
    public var description: String {
        switch self {
        case .invalidName(let name, let reason): "invalid notification name '\(name)': \(reason)"
        case .notAuthorized(let name, let owner): "'\(name)' belongs to user \(owner): only that user (or root) may post or register it"
        case .invalidToken(let token): "\(token.rawValue) is not a registration of this process"
        case .invalidFile(let descriptor): "descriptor \(descriptor) was not returned by a file-descriptor registration"
        case .invalidSignal(let signal): "\(signal) is not a signal number"
        case .tableFull(let path, let limit): "the notification table \(path) is full (\(limit))"
        case .tableBusy(let path, let holder, let stopped, let seconds):
            "the notification table \(path) stayed locked for \(seconds) s by process \(holder)" + (stopped ? " (stopped)" : "")
        case .system(let error): error.description
        }
    }
}
