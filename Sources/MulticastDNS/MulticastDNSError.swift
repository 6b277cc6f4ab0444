import SystemCalls

/// What went wrong building names and records, or starting a responder or browser: each case
/// names the offending value, and prints as one sentence.
public enum MulticastDNSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A name has an empty label (`a..b`).
    case emptyLabel(name: String)
    /// A label is longer than 63 bytes (RFC 1035 §2.3.4).
    case labelTooLong(label: String, bytes: Int)
    /// A name is longer than 255 bytes in wire form.
    case nameTooLong(name: String, bytes: Int)
    /// A service type is not `_name._tcp` or `_name._udp` (RFC 6763 §7), with its name part
    /// 1–15 letters, digits and hyphens.
    case invalidServiceType(String)
    /// A TXT key is empty, holds `=` or a byte outside printable ASCII (RFC 6763 §6.4).
    case invalidTXTKey(String)
    /// A TXT string (`key=value`) is longer than 255 bytes (RFC 6763 §6.1).
    case txtStringTooLong(key: String, bytes: Int)
    /// No network interface has this name.
    case noSuchInterface(String)
    /// No interface was given, and the host has none that is up and multicast-capable.
    case noInterfaces
    /// A system call failed (a socket, a group membership, the interface list).
    case system(SystemCallError)
    /// The Avahi path was asked for (``DiscoveryBackend/avahi``) and no avahi-daemon is reachable
    /// over D-Bus, or it did not reach its running state in time: Avahi's reason.
    case avahiUnavailable(reason: String)
    /// avahi-daemon refused a request (`operation`, such as `add service "Alice's Mac"`): Avahi's
    /// reason.
    case avahiFailed(operation: String, reason: String)

    /// One sentence.
    public var description: String {
        switch self {
        case .emptyLabel(let name): "the name \"\(name)\" has an empty label"
        case .labelTooLong(let label, let bytes): "the label \"\(label)\" is \(bytes) bytes long; at most 63 are allowed"
        case .nameTooLong(let name, let bytes): "the name \"\(name)\" is \(bytes) bytes long; at most 255 are allowed"
        case .invalidServiceType(let type): "\"\(type)\" is not a service type such as _di-nearby._tcp (RFC 6763 §7)"
        case .invalidTXTKey(let key): "\"\(key)\" is not a TXT key: 1 or more printable ASCII characters other than \"=\""
        case .txtStringTooLong(let key, let bytes): "the TXT entry \"\(key)\" is \(bytes) bytes long; at most 255 are allowed"
        case .noSuchInterface(let name): "there is no network interface \"\(name)\""
        case .noInterfaces: "no network interface is up and multicast-capable"
        case .system(let error): error.description
        case .avahiUnavailable(let reason): "no avahi-daemon is reachable over D-Bus: \(reason)"
        case .avahiFailed(let operation, let reason): "avahi-daemon refused to \(operation): \(reason)"
        }
    }
}
