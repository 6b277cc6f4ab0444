/// The status codes of Darwin's notify(3) (`NOTIFY_STATUS_*`), with Apple's numbers, so that a
/// caller ported from C can compare them and a tool can print them as `notifyutil` does.
public enum NotifyStatus: UInt32, Sendable, Hashable, CustomStringConvertible {
    /// `NOTIFY_STATUS_OK`.
    case ok = 0
    /// `NOTIFY_STATUS_INVALID_NAME`: empty, too long, or holding a NUL byte.
    case invalidName = 1
    /// `NOTIFY_STATUS_INVALID_TOKEN`: not a registration of this process, or cancelled.
    case invalidToken = 2
    /// `NOTIFY_STATUS_INVALID_PORT`.
    case invalidPort = 3
    /// `NOTIFY_STATUS_INVALID_FILE`: a descriptor to reuse that no registration made.
    case invalidFile = 4
    /// `NOTIFY_STATUS_INVALID_SIGNAL`: not a signal number.
    case invalidSignal = 5
    /// `NOTIFY_STATUS_INVALID_REQUEST`.
    case invalidRequest = 6
    /// `NOTIFY_STATUS_NOT_AUTHORIZED`: a `user.uid.N.` name of another user.
    case notAuthorized = 7
    /// `NOTIFY_STATUS_OPT_DISABLE`.
    case optionDisabled = 8
    /// `NOTIFY_STATUS_SERVER_NOT_FOUND`.
    case serverNotFound = 9
    /// `NOTIFY_STATUS_NULL_INPUT`.
    case nullInput = 10
    /// `NOTIFY_STATUS_FAILED`: the shared table could not be used (full, locked, unreadable).
    case failed = 1_000_000

    /// Apple's wording, as `notifyutil` prints it ("Invalid Name").
    public var description: String {
        switch self {
        case .ok: "OK"
        case .invalidName: "Invalid Name"
        case .invalidToken: "Invalid Token"
        case .invalidPort: "Invalid Port"
        case .invalidFile: "Invalid File"
        case .invalidSignal: "Invalid Signal"
        case .invalidRequest: "Invalid Request"
        case .notAuthorized: "Not Authorized"
        default: "Failed"
        }
    }
}
