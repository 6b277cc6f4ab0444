/// How a question asked with a desktop notification ended.
public enum NotificationAnswer: Sendable, Hashable, CustomStringConvertible {
    /// The user chose the action with this key (``DesktopNotification/Action/key``).
    case action(String)
    /// The user closed the notification without choosing (or something other than the user or
    /// its expiry closed it): no answer.
    case dismissed
    /// Nobody answered in time: the notification expired on the server, or the caller's timeout
    /// passed and the notification was withdrawn.
    case expired
    /// The question could not be asked, and why: no session bus, no notification server, a server
    /// that cannot show actions, or the server or bus went away before an answer.
    case unavailable(String)

    /// "action accept", "dismissed", "expired", "unavailable: why".
    public var description: String {
        switch self {
        case .action(let key): "action \(key)"
        case .dismissed: "dismissed"
        case .expired: "expired"
        case .unavailable(let reason): "unavailable: \(reason)"
        }
    }
}
