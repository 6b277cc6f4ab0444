import CDBus
import CDBusShims
import SystemCalls

/// Why a D-Bus call failed: the bus could not be reached, or the call returned an error.
public struct BusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The D-Bus error name (`org.freedesktop.DBus.Error.ServiceUnknown`), or ours.
    public var name: String
    /// The message.
    public var message: String

    /// "NAME: message".
    public var description: String { "\(name): \(message)" }
}

/// A value passed to or returned from a D-Bus method (only the signatures the launcher, the
/// document portal and the notification server need).
public enum BusValue: Sendable, Hashable {
    /// `s`
    case string(String)
    /// `b`
    case boolean(Bool)
    /// `y`
    case byte(UInt8)
    /// `i`
    case int32(Int32)
    /// `u`
    case uint32(UInt32)
    /// `as`
    case strings([String])
    /// `ay`
    case bytes([UInt8])
    /// `h`: a descriptor passed to the other side (duplicated by the library).
    case fileDescriptor(Int32)
    /// `ah`
    case fileDescriptors([Int32])
    /// `a{sv}`: each value goes in a variant of its own signature.
    case dictionary([String: BusValue])

    /// The value's D-Bus type signature, which a variant holding it declares.
    var signature: String {
        switch self {
        case .string: "s"
        case .boolean: "b"
        case .byte: "y"
        case .int32: "i"
        case .uint32: "u"
        case .strings: "as"
        case .bytes: "ay"
        case .fileDescriptor: "h"
        case .fileDescriptors: "ah"
        case .dictionary: "a{sv}"
        }
    }
}

/// A private connection to the session bus through libdbus-1, closed when released.
///
/// The address is `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus` when that socket exists;
/// libdbus's X11 autolaunch is never tried (it would start a bus nobody else uses).
public final class SessionBus: @unchecked Sendable {
    // @unchecked: the connection is used from one thread at a time (every call blocks), and
    // libdbus connections are themselves thread-safe once dbus_threads_init_default has run.
    let connection: OpaquePointer

    /// The session bus's address from the environment, if any.
    public static func address() -> String? {
        if let address = Environment.value("DBUS_SESSION_BUS_ADDRESS"), !address.isEmpty { return address }
        if let runtime = Environment.value("XDG_RUNTIME_DIR"), runtime.hasPrefix("/"),
           FileSystem.linkStatus(runtime + "/bus")?.kind == .socket {
            return "unix:path=" + runtime + "/bus"
        }
        return nil
    }

    /// Connects and registers on the bus at `address` (default ``address()``).
    /// - Throws: ``BusError`` when there is no session bus or it refuses us.
    public init(address: String? = SessionBus.address()) throws(BusError) {
        _ = di_dbus_shims_linked()
        guard let address else { throw BusError(name: "org.document-interchange.NoSessionBus", message: "no session bus (DBUS_SESSION_BUS_ADDRESS is not set and $XDG_RUNTIME_DIR/bus does not exist)") }
        dbus_threads_init_default()
        var error = DBusError()
        dbus_error_init(&error)
        guard let connection = dbus_connection_open_private(address, &error) else { throw Self.take(&error) }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        guard dbus_bus_register(connection, &error) != 0 else {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw Self.take(&error)
        }
        self.connection = connection
    }

    deinit {
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
    }

    static func take(_ error: inout DBusError) -> BusError {
        let result = BusError(name: error.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed",
                              message: error.message.map { String(cString: $0) } ?? "unknown error")
        dbus_error_free(&error)
        return result
    }

    /// Whether descriptors can be passed (a Unix socket with fd passing negotiated).
    public var canPassFileDescriptors: Bool { dbus_connection_can_send_type(connection, Int32(UInt8(ascii: "h"))) != 0 }

    /// Calls `method` and waits for the reply (at most `timeout` milliseconds).
    /// - Returns: the reply's arguments.
    public func call(destination: String, path: String, interface: String, method: String, arguments: [BusValue],
                     timeout: Int32 = 25_000) throws(BusError) -> [BusValue] {
        let message = try Self.methodCall(destination: destination, path: path, interface: interface, method: method, arguments: arguments)
        defer { dbus_message_unref(message) }
        var error = DBusError()
        dbus_error_init(&error)
        guard let reply = dbus_connection_send_with_reply_and_block(connection, message, timeout, &error) else { throw Self.take(&error) }
        defer { dbus_message_unref(reply) }
        return Self.arguments(of: reply)
    }

    /// Sends a call without waiting for a reply, and flushes it to the bus: for clean-up calls
    /// (closing a notification, removing a match rule) that must not hold a caller past its
    /// deadline, and whose failure changes nothing for it.
    func send(destination: String, path: String, interface: String, method: String, arguments: [BusValue]) {
        guard let message = try? Self.methodCall(destination: destination, path: path, interface: interface, method: method, arguments: arguments) else { return }
        defer { dbus_message_unref(message) }
        dbus_message_set_no_reply(message, 1)
        _ = dbus_connection_send(connection, message, nil)
        dbus_connection_flush(connection)
    }

    /// A method call message with `arguments` appended (the caller releases it).
    static func methodCall(destination: String, path: String, interface: String, method: String,
                           arguments: [BusValue]) throws(BusError) -> OpaquePointer {
        guard let message = dbus_message_new_method_call(destination, path, interface, method) else {
            throw BusError(name: "org.document-interchange.InvalidCall", message: "cannot call \(interface).\(method) on \(destination) \(path)")
        }
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(message, &iterator)
        for argument in arguments { append(argument, to: &iterator) }
        return message
    }

    /// The arguments of `message` (those of a signature BusValue has).
    static func arguments(of message: OpaquePointer) -> [BusValue] {
        var values: [BusValue] = []
        var read = DBusMessageIter()
        if dbus_message_iter_init(message, &read) != 0 {
            repeat {
                if let value = value(from: &read) { values.append(value) }
            } while dbus_message_iter_next(&read) != 0
        }
        return values
    }

    static let typeString = Int32(UInt8(ascii: "s")), typeBoolean = Int32(UInt8(ascii: "b")), typeUInt32 = Int32(UInt8(ascii: "u"))
    static let typeInt32 = Int32(UInt8(ascii: "i"))
    static let typeArray = Int32(UInt8(ascii: "a")), typeByte = Int32(UInt8(ascii: "y")), typeDescriptor = Int32(UInt8(ascii: "h"))
    static let typeVariant = Int32(UInt8(ascii: "v")), typeDictEntry = Int32(UInt8(ascii: "e"))

    static func appendString(_ string: String, type: Int32 = typeString, to iterator: inout DBusMessageIter) {
        string.withCString { pointer in
            var p: UnsafePointer<CChar>? = pointer
            _ = dbus_message_iter_append_basic(&iterator, type, &p)
        }
    }

    static func append(_ value: BusValue, to iterator: inout DBusMessageIter) {
        switch value {
        case .string(let s):
            appendString(s, to: &iterator)
        case .boolean(let b):
            var v: dbus_bool_t = b ? 1 : 0
            _ = dbus_message_iter_append_basic(&iterator, typeBoolean, &v)
        case .byte(let byte):
            var v = byte
            _ = dbus_message_iter_append_basic(&iterator, typeByte, &v)
        case .int32(let i):
            var v = i
            _ = dbus_message_iter_append_basic(&iterator, typeInt32, &v)
        case .uint32(let u):
            var v = u
            _ = dbus_message_iter_append_basic(&iterator, typeUInt32, &v)
        case .strings(let list):
            var sub = DBusMessageIter()
            _ = dbus_message_iter_open_container(&iterator, typeArray, "s", &sub)
            for s in list { appendString(s, to: &sub) }
            _ = dbus_message_iter_close_container(&iterator, &sub)
        case .bytes(let bytes):
            var sub = DBusMessageIter()
            _ = dbus_message_iter_open_container(&iterator, typeArray, "y", &sub)
            for byte in bytes {
                var b = byte
                _ = dbus_message_iter_append_basic(&sub, typeByte, &b)
            }
            _ = dbus_message_iter_close_container(&iterator, &sub)
        case .fileDescriptor(let fd):
            var v = fd
            _ = dbus_message_iter_append_basic(&iterator, typeDescriptor, &v)
        case .fileDescriptors(let fds):
            var sub = DBusMessageIter()
            _ = dbus_message_iter_open_container(&iterator, typeArray, "h", &sub)
            for fd in fds {
                var v = fd
                _ = dbus_message_iter_append_basic(&sub, typeDescriptor, &v)
            }
            _ = dbus_message_iter_close_container(&iterator, &sub)
        case .dictionary(let entries):
            var sub = DBusMessageIter()
            _ = dbus_message_iter_open_container(&iterator, typeArray, "{sv}", &sub)
            for key in entries.keys.sorted() {
                var entry = DBusMessageIter()
                _ = dbus_message_iter_open_container(&sub, typeDictEntry, nil, &entry)
                appendString(key, to: &entry)
                var variant = DBusMessageIter()
                let value = entries[key]!
                _ = dbus_message_iter_open_container(&entry, typeVariant, value.signature, &variant)
                append(value, to: &variant)
                _ = dbus_message_iter_close_container(&entry, &variant)
                _ = dbus_message_iter_close_container(&sub, &entry)
            }
            _ = dbus_message_iter_close_container(&iterator, &sub)
        }
    }

    static func value(from iterator: inout DBusMessageIter) -> BusValue? {
        switch dbus_message_iter_get_arg_type(&iterator) {
        case typeString:
            var p: UnsafePointer<CChar>?
            dbus_message_iter_get_basic(&iterator, &p)
            return .string(p.map { String(cString: $0) } ?? "")
        case typeBoolean:
            var v: dbus_bool_t = 0
            dbus_message_iter_get_basic(&iterator, &v)
            return .boolean(v != 0)
        case typeByte:
            var v: UInt8 = 0
            dbus_message_iter_get_basic(&iterator, &v)
            return .byte(v)
        case typeInt32:
            var v: Int32 = 0
            dbus_message_iter_get_basic(&iterator, &v)
            return .int32(v)
        case typeUInt32:
            var v: UInt32 = 0
            dbus_message_iter_get_basic(&iterator, &v)
            return .uint32(v)
        case typeVariant:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &sub)
            return value(from: &sub)
        case typeArray:
            var sub = DBusMessageIter()
            let element = dbus_message_iter_get_element_type(&iterator)
            dbus_message_iter_recurse(&iterator, &sub)
            var strings: [String] = [], bytes: [UInt8] = [], entries: [String: BusValue] = [:]
            while dbus_message_iter_get_arg_type(&sub) != 0 {
                switch element {
                case typeString:
                    if case .string(let s)? = value(from: &sub) { strings.append(s) }
                case typeByte:
                    var b: UInt8 = 0
                    dbus_message_iter_get_basic(&sub, &b)
                    bytes.append(b)
                case typeDictEntry:
                    var entry = DBusMessageIter()
                    dbus_message_iter_recurse(&sub, &entry)
                    if case .string(let key)? = value(from: &entry), dbus_message_iter_next(&entry) != 0, let item = value(from: &entry) { entries[key] = item }
                default:
                    break
                }
                _ = dbus_message_iter_next(&sub)
            }
            switch element {
            case typeString: return .strings(strings)
            case typeByte: return .bytes(bytes)
            case typeDictEntry: return .dictionary(entries)
            default: return nil
            }
        default:
            return nil
        }
    }
}
