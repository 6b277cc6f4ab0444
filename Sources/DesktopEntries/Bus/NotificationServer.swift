import SystemCalls

/// The desktop's notification server (`org.freedesktop.Notifications`, the Desktop Notifications
/// Specification 1.2, served by GNOME Shell, KDE Plasma, dunst, mako, xfce4-notifyd): how a
/// process without a window asks the desktop user a question and waits for the answer.
public enum NotificationServer {
    /// The server's bus name, object path and interface.
    public static let busName = "org.freedesktop.Notifications"
    public static let objectPath = "/org/freedesktop/Notifications"
    public static let interface = "org.freedesktop.Notifications"

    /// Shows `notification` and waits until the user answers it or `timeout` seconds pass;
    /// blocks the calling thread for at most `timeout` seconds (plus writing one last message).
    ///
    /// The server must exist and list `actions` among its capabilities. Only signals sent by the
    /// connection that owns the server's name, for this notification's id, count: any other
    /// client on the session bus can send an `ActionInvoked` signal, and must not answer for the
    /// user. When the user chooses an action the notification is withdrawn (servers keep critical
    /// ones otherwise), and when `timeout` passes first it is withdrawn with `CloseNotification`.
    ///
    /// - Parameters:
    ///   - notification: what to show; its body is escaped when the server reads markup.
    ///   - bus: the session bus, or `nil` when there is none (the answer is then ``NotificationAnswer/unavailable(_:)``).
    ///   - timeout: seconds to wait, from the call, for everything: reaching the server, showing
    ///     the notification and the user's answer.
    ///   - withdrawn: asked every ``withdrawalCheck`` seconds while the user has not answered;
    ///     `true` withdraws the notification (`CloseNotification`) and answers
    ///     ``NotificationAnswer/expired`` at once (the asker stopped waiting: the sender went
    ///     away, the receiver stopped).
    /// - Returns: ``NotificationAnswer/action(_:)`` with the chosen action's key;
    ///   ``NotificationAnswer/dismissed`` when the user closed it; ``NotificationAnswer/expired``
    ///   when it expired on the server or `timeout` passed; ``NotificationAnswer/unavailable(_:)``
    ///   with the reason when it could not be asked or the server or bus went away meanwhile.
    public static func ask(_ notification: DesktopNotification, on bus: SessionBus?, timeout: Double,
                           withdrawn: @Sendable () -> Bool = { false }) -> NotificationAnswer {
        let deadline = Clock.monotonic() + max(0, timeout)
        guard let bus else { return .unavailable("no session bus to show the notification on") }
        func remaining() -> Int32 { SessionBus.milliseconds(deadline - Clock.monotonic()) }

        // GetCapabilities first: it also starts a server that is D-Bus activated (dunst, mako).
        let capabilities: [String]
        do {
            let reply = try bus.call(destination: busName, path: objectPath, interface: interface, method: "GetCapabilities",
                                     arguments: [], timeout: remaining())
            guard case .strings(let list)? = reply.first else { return .unavailable("\(interface).GetCapabilities answered \(reply)") }
            capabilities = list
        } catch {
            return .unavailable("no notification server answered \(interface).GetCapabilities on the session bus: \(error)")
        }
        guard capabilities.contains("actions") else {
            return .unavailable("the notification server cannot show actions (its capabilities: \(capabilities.joined(separator: ", ")))")
        }
        let server: String
        do { server = try bus.owner(of: busName, timeout: remaining()) } catch {
            return .unavailable("the notification server left the session bus: \(error)")
        }

        // The rules are in place before Notify is sent: an answer signalled before them would be lost.
        let answers = "type='signal',sender='\(server)',interface='\(interface)'"
        let departure = "type='signal',sender='\(SessionBus.busName)',interface='\(SessionBus.busName)',member='NameOwnerChanged',arg0='\(busName)'"
        var added: [String] = []
        defer { for rule in added { bus.removeMatch(rule) } }
        for rule in [answers, departure] {
            do { try bus.addMatch(rule, timeout: remaining()) } catch {
                return .unavailable("the session bus refused the match rule \(rule): \(error)")
            }
            added.append(rule)
        }

        let id: UInt32
        do {
            let reply = try bus.call(destination: busName, path: objectPath, interface: interface, method: "Notify",
                                     arguments: notification.notifyArguments(bodyMarkup: capabilities.contains("body-markup")),
                                     timeout: remaining())
            guard case .uint32(let value)? = reply.first else { return .unavailable("\(interface).Notify answered \(reply)") }
            id = value
        } catch {
            return .unavailable("the notification server refused \(interface).Notify: \(error)")
        }

        while true {
            if withdrawn() {
                close(id, on: bus)
                return .expired
            }
            switch bus.nextSignal(before: min(deadline, Clock.monotonic() + withdrawalCheck)) {
            case .timedOut:
                guard Clock.monotonic() >= deadline else { continue }
                close(id, on: bus)
                return .expired
            case .disconnected:
                return .unavailable("the session bus connection was lost before the user answered")
            case .signal(let signal) where signal.sender == server && signal.interface == interface:
                switch (signal.member, signal.arguments.first, signal.arguments.dropFirst().first) {
                case ("ActionInvoked", .uint32(id)?, .string(let key)?):
                    close(id, on: bus)
                    return .action(key)
                // Reasons: 1 expired, 2 dismissed by the user, 3 closed by CloseNotification
                // (another client's, not ours: we have not sent it yet), 4 undefined. Only the
                // first says that nobody was there; the others all mean "closed, no answer".
                case ("NotificationClosed", .uint32(id)?, .uint32(let reason)?):
                    return reason == 1 ? .expired : .dismissed
                default:
                    continue  // another notification's signal, or another signal
                }
            case .signal(let signal) where signal.sender == SessionBus.busName && signal.member == "NameOwnerChanged":
                if signal.arguments.count == 3, signal.arguments[0] == .string(busName), signal.arguments[1] == .string(server) {
                    return .unavailable("the notification server left the session bus before the user answered")
                }
            case .signal:
                continue  // NameAcquired, and signals of other rules this connection may have
            }
        }
    }

    /// Seconds between two looks at whether the question was withdrawn.
    public static let withdrawalCheck = 0.2

    /// Withdraws notification `id` without waiting for the reply: the question is settled.
    static func close(_ id: UInt32, on bus: SessionBus) {
        bus.send(destination: busName, path: objectPath, interface: interface, method: "CloseNotification", arguments: [.uint32(id)])
    }
}
