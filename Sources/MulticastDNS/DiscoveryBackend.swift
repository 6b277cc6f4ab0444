/// Which DNS-SD implementation a ``MulticastResponder`` or ``MulticastBrowser`` works through.
///
/// A machine where avahi-daemon runs already has a responder on udp/5353: publishing and browsing
/// through it (its D-Bus API, libavahi-client) keeps one responder per host, as RFC 6762 §15
/// prefers, and lets the daemon probe names, resolve conflicts and follow address changes. Where
/// none runs, the built-in engine does the work with sockets of its own.
public enum DiscoveryBackend: Sendable, Hashable, CustomStringConvertible {
    /// Avahi when a client reaches a running avahi-daemon, the built-in engine otherwise.
    case automatic
    /// avahi-daemon only: starting throws ``MulticastDNSError/avahiUnavailable(reason:)`` when
    /// none is reachable.
    case avahi
    /// The built-in engine only, whether or not avahi-daemon runs.
    case builtIn

    /// `automatic`, `avahi` or `built-in`.
    public var description: String {
        switch self {
        case .automatic: "automatic"
        case .avahi: "avahi"
        case .builtIn: "built-in"
        }
    }
}

extension DiscoveryBackend {
    /// How long a start waits for avahi-daemon's running state: a daemon that has just started
    /// probes its host name for about a second first, and one whose name collided picks another
    /// and probes again.
    static let avahiStartTimeout = 3.0

    /// The connection to avahi-daemon this backend calls for: `nil` for the built-in engine,
    /// with the reason when Avahi was tried (automatic) and is unavailable. Throws for `.avahi`
    /// when no daemon is reachable.
    func connect() throws(MulticastDNSError) -> (connection: AvahiConnection?, fallbackReason: String?) {
        switch self {
        case .builtIn:
            return (nil, nil)
        case .avahi:
            return (try AvahiConnection.connect(timeout: Self.avahiStartTimeout), nil)
        case .automatic:
            do {
                return (try AvahiConnection.connect(timeout: Self.avahiStartTimeout), nil)
            } catch {
                return (nil, error.description)
            }
        }
    }
}
