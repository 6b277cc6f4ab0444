/// A change a ``MulticastBrowser`` reports.
public enum BrowseEvent: Sendable, Hashable {
    /// An instance was found and resolved.
    case added(ResolvedService)
    /// A resolved instance changed: its TXT record, port, host or addresses.
    case updated(ResolvedService)
    /// An instance said goodbye, or its records expired: it is gone (as last seen).
    case removed(ResolvedService)

    /// The service the event is about.
    public var service: ResolvedService {
        switch self {
        case .added(let service), .updated(let service), .removed(let service): service
        }
    }
}
