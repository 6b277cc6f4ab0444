/// A desktop notification as the Desktop Notifications Specification 1.2 describes it: what the
/// user reads, the buttons they may answer with, and how long it stays.
///
/// ```swift
/// let question = DesktopNotification(appName: "Nearby", summary: "Accept 3 files from Ada's laptop?",
///                                    body: "Ada's laptop is not paired with this computer.",
///                                    actions: [.init(key: "accept", label: "Accept"), .init(key: "decline", label: "Decline")],
///                                    urgency: .critical, iconName: "document-send")
/// ```
public struct DesktopNotification: Sendable, Hashable {
    /// One button: `key` comes back in the answer, `label` is what the user reads.
    ///
    /// The key `default` is special in the specification: servers invoke it when the user clicks
    /// the notification itself, and many draw no button for it. A question should not give it to
    /// an answer that grants something, since a click meant to get rid of the notification would
    /// then grant it.
    public struct Action: Sendable, Hashable {
        /// What ``NotificationAnswer/action(_:)`` carries when the user chooses this action.
        public var key: String
        /// The button's text.
        public var label: String

        /// An action with `key` shown as `label`.
        public init(key: String, label: String) {
            self.key = key
            self.label = label
        }
    }

    /// How urgent a notification is (the `urgency` hint, a byte).
    public enum Urgency: UInt8, Sendable, Hashable {
        /// Shown quietly; may never be shown at all.
        case low = 0
        /// The server's usual presentation.
        case normal = 1
        /// Stays on screen until the user answers: servers do not let it expire by themselves.
        case critical = 2
    }

    /// The application's name, as the user knows it.
    public var appName: String
    /// One line that says what this is about. Plain text.
    public var summary: String
    /// More detail. Plain text: ``NotificationServer`` escapes it for servers that read markup,
    /// so that a name with `<` or `&` in it (a peer's device name) is shown as it is.
    public var body: String
    /// The buttons, in the order the server should show them.
    public var actions: [Action]
    /// Seconds until the server removes the notification by itself; `nil` lets the server decide,
    /// 0 means never.
    public var expiry: Double?
    /// How urgent it is; `nil` sends no hint, which servers take as ``Urgency/normal``.
    public var urgency: Urgency?
    /// An icon name from the freedesktop icon theme (`dialog-question`), a `file://` URI, or "".
    public var iconName: String

    /// A notification; see the properties for what each argument means.
    public init(appName: String, summary: String, body: String = "", actions: [Action] = [], expiry: Double? = nil,
                urgency: Urgency? = nil, iconName: String = "") {
        self.appName = appName
        self.summary = summary
        self.body = body
        self.actions = actions
        self.expiry = expiry
        self.urgency = urgency
        self.iconName = iconName
    }

    /// The arguments of `Notify` (`susssasa{sv}i`) for a server that reads markup in the body or not.
    func notifyArguments(bodyMarkup: Bool) -> [BusValue] {
        var hints: [String: BusValue] = [:]
        if let urgency { hints["urgency"] = .byte(urgency.rawValue) }
        let timeout: Int32 = expiry.map { $0 <= 0 ? 0 : SessionBus.milliseconds($0) } ?? -1
        return [.string(appName), .uint32(0), .string(iconName), .string(summary),
                .string(bodyMarkup ? Self.escapingMarkup(body) : body),
                .strings(actions.flatMap { [$0.key, $0.label] }), .dictionary(hints), .int32(timeout)]
    }

    /// `text` with the three characters the specification's markup gives a meaning (`&`, `<`, `>`)
    /// written as entities.
    static func escapingMarkup(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
