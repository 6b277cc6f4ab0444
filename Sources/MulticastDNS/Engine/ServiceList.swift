import Synchronization

/// The resolved instances as the browser's thread last reported them, for other threads to read.
final class ServiceList: Sendable {
    private let list = Mutex<[ResolvedService]>([])

    /// The instances, by name.
    var services: [ResolvedService] { list.withLock { $0 } }

    /// Applies an addition, change or removal.
    func apply(_ event: BrowseEvent) {
        list.withLock { services in
            services.removeAll { $0.instanceName == event.service.instanceName && $0.interfaceIndex == event.service.interfaceIndex }
            if case .removed = event { return }
            services.append(event.service)
            services.sort { ($0.name, $0.interfaceIndex) < ($1.name, $1.interfaceIndex) }
        }
    }
}
