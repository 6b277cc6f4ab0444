import CDBus
import SystemCalls

/// A signal read from the session bus: who sent it, which interface and member, its arguments.
struct BusSignal: Sendable, Hashable {
    /// The sender's unique connection name (`:1.42`), which the bus sets and nobody can forge.
    var sender: String
    /// The interface and the member (`org.freedesktop.Notifications`, `ActionInvoked`).
    var interface: String
    var member: String
    /// The arguments (those of a signature ``BusValue`` has).
    var arguments: [BusValue]
}

extension SessionBus {
    /// What waiting for a signal ended with.
    enum SignalWait: Sendable, Hashable {
        /// A signal arrived.
        case signal(BusSignal)
        /// The deadline passed first.
        case timedOut
        /// The connection to the bus was lost.
        case disconnected
    }

    static let busName = "org.freedesktop.DBus", busPath = "/org/freedesktop/DBus"

    /// Asks the bus to route the signals `rule` matches to this connection, and waits until it has
    /// (so that a call sent afterwards cannot be answered by a signal the bus has not routed yet).
    /// - Parameter timeout: at most this many milliseconds for the bus's reply.
    /// - Throws: ``BusError`` when the bus refuses the rule or does not answer in time.
    func addMatch(_ rule: String, timeout: Int32) throws(BusError) {
        // Through `call` rather than dbus_bus_add_match, which waits up to libdbus's default
        // 25 seconds: a question asked with a deadline must not be held past it.
        _ = try call(destination: Self.busName, path: Self.busPath, interface: Self.busName, method: "AddMatch",
                     arguments: [.string(rule)], timeout: timeout)
    }

    /// Removes a rule ``addMatch(_:timeout:)`` added, without waiting for the bus's reply.
    func removeMatch(_ rule: String) {
        send(destination: Self.busName, path: Self.busPath, interface: Self.busName, method: "RemoveMatch", arguments: [.string(rule)])
    }

    /// The unique connection name that owns the well-known `name` now.
    /// - Throws: ``BusError`` (`org.freedesktop.DBus.Error.NameHasNoOwner`) when nobody owns it.
    func owner(of name: String, timeout: Int32) throws(BusError) -> String {
        let reply = try call(destination: Self.busName, path: Self.busPath, interface: Self.busName, method: "GetNameOwner",
                             arguments: [.string(name)], timeout: timeout)
        guard case .string(let owner)? = reply.first else {
            throw BusError(name: "org.document-interchange.UnexpectedReply", message: "GetNameOwner(\(name)) answered \(reply)")
        }
        return owner
    }

    /// Reads the connection until a signal arrives or `deadline` (``Clock/monotonic()`` seconds)
    /// passes. Other messages are consumed: a method call addressed to us is answered with
    /// `UnknownMethod`, so that its caller need not wait for its timeout.
    func nextSignal(before deadline: Double) -> SignalWait {
        while true {
            // Messages already queued first: a blocking call may have read them while it waited.
            while let message = dbus_connection_pop_message(connection) {
                defer { dbus_message_unref(message) }
                switch dbus_message_get_type(message) {
                case DBUS_MESSAGE_TYPE_SIGNAL:
                    let interface = dbus_message_get_interface(message).map { String(cString: $0) } ?? ""
                    let member = dbus_message_get_member(message).map { String(cString: $0) } ?? ""
                    if interface == "org.freedesktop.DBus.Local" && member == "Disconnected" { return .disconnected }
                    let sender = dbus_message_get_sender(message).map { String(cString: $0) } ?? ""
                    return .signal(BusSignal(sender: sender, interface: interface, member: member, arguments: Self.arguments(of: message)))
                case DBUS_MESSAGE_TYPE_METHOD_CALL where dbus_message_get_no_reply(message) == 0:
                    if let reply = dbus_message_new_error(message, "org.freedesktop.DBus.Error.UnknownMethod", "this connection serves no objects") {
                        _ = dbus_connection_send(connection, reply, nil)
                        dbus_message_unref(reply)
                    }
                default:
                    break  // late replies and errors of calls nobody waits for any more
                }
            }
            let remaining = deadline - Clock.monotonic()
            guard remaining > 0 else { return .timedOut }
            // Blocks in poll(2) until bytes arrive or the time is up: no busy loop. At least 1 ms,
            // since 0 would return at once and spin through the last fraction of a millisecond.
            guard dbus_connection_read_write(connection, Self.milliseconds(remaining)) != 0 else { return .disconnected }
        }
    }

    /// `seconds` as a libdbus timeout: whole milliseconds rounded up, from 1 to `Int32.max`.
    static func milliseconds(_ seconds: Double) -> Int32 {
        guard seconds.isFinite else { return seconds > 0 ? Int32.max : 1 }
        return Int32(max(1, min(Double(Int32.max), (seconds * 1000).rounded(.up))))
    }
}
