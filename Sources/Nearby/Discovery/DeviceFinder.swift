import Foundation
import MulticastDNS

/// Finds devices in reach over DNS-SD: a paired device by its tag, everyone-mode devices by name.
public enum DeviceFinder {
    /// A device found.
    public struct Found: Sendable, Hashable {
        /// The paired device it is, if any.
        public var paired: PairedDevice?
        /// The name an everyone-mode device gives itself (`nil` in paired mode: it gives none).
        public var name: String?
        /// The fingerprint an everyone-mode device shows.
        public var fingerprint: Fingerprint?
        /// Where to reach it.
        public var host: String
        /// Its port.
        public var port: Int
        /// Whom it takes items from, as its announcement says.
        public var accepts = Accepts.pairedDevices
        /// Whether it waits to pair (`nearby pair --show-code` or `--wait`): `port` is its pairing port.
        public var waitingToPair: Bool { accepts == .pairing }
    }

    /// Whom a device found takes items from (AirDrop's "Contacts Only" or "Everyone"), as its
    /// announcement says.
    public enum Accepts: String, Sendable, Hashable {
        /// Its paired devices only (paired mode: found by its tag).
        case pairedDevices = "paired"
        /// Anyone, who is then asked about (everyone-mode).
        case everyone
        /// Nothing yet: it waits to pair (`nearby pair --wait` or `--show-code`).
        case pairing
    }

    /// What `service` is: a paired device whose tag it shows, an everyone-mode device, or nothing of ours.
    static func identify(_ service: ResolvedService, paired: [PairedDevice], now: Double) -> Found? {
        guard let host = address(of: service) else { return nil }
        if let tags = DiscoveryTag.tags(in: service.txt) {
            guard let device = paired.first(where: { device in
                device.discoveryKey.map { DiscoveryTag.matches(tags, key: $0, publisher: device.fingerprint, now: now) } ?? false
            }) else { return nil }
            return Found(paired: device, host: host, port: Int(service.port))
        }
        if service.txt["m"] == "pairing" {
            return Found(name: service.name, host: host, port: Int(service.port), accepts: .pairing)
        }
        if service.txt["m"] == "everyone", let fingerprint = service.txt["fp"].flatMap(Fingerprint.init(hex:)) {
            return Found(paired: paired.first { $0.fingerprint == fingerprint }, name: service.name, fingerprint: fingerprint, host: host,
                         port: Int(service.port), accepts: .everyone)
        }
        return nil
    }

    /// An address to connect to: IPv4 first, else IPv6 (link-local with its interface).
    static func address(of service: ResolvedService) -> String? {
        if let v4 = service.addresses.first(where: \.isIPv4) { return v4.description }
        guard let v6 = service.addresses.first else { return nil }
        return v6.isLinkLocal ? "\(v6)%\(service.interface)" : v6.description
    }

    /// The devices in reach on `interfaces` (every multicast interface when `nil`): what was seen
    /// when every paired device that can be recognised (one with a discovery key) has been seen,
    /// else after `timeout` seconds. With no such device it browses the whole `timeout`, since
    /// everyone-mode devices are open-ended: there is no "all of them" to wait for.
    public static func inReach(paired: [PairedDevice], interfaces: [String]? = nil, timeout: Double = 1.5) throws -> [Found] {
        let awaited = Set(paired.filter { $0.discoveryKey != nil }.map(\.fingerprint))
        let done = DispatchSemaphore(value: 0)
        let seen = SeenSet(awaiting: awaited)
        let browser = try MulticastBrowser(type: Announcement.serviceType, interfaces: interfaces) { event in
            switch event {
            case .added(let service), .updated(let service):
                if let fingerprint = identify(service, paired: paired, now: Date().timeIntervalSince1970)?.paired?.fingerprint,
                   seen.insert(fingerprint) { done.signal() }
            case .removed: break
            }
        }
        _ = done.wait(timeout: .now() + max(0, timeout))
        // The browser's list already holds the service whose event signalled (it is updated first).
        let services = browser.services
        browser.stop()
        let now = Date().timeIntervalSince1970
        var unique = Set<Found>()
        return services.compactMap { identify($0, paired: paired, now: now) }.filter { unique.insert($0).inserted }
    }

    /// Where `device` is, as soon as its announcement is seen; `nil` after `timeout` seconds, or
    /// at once when the calling task is cancelled (the browse stops then).
    public static func find(_ device: PairedDevice, interfaces: [String]? = nil, timeout: Double = 3) async throws -> Found? {
        guard device.discoveryKey != nil else { return nil }
        let answer = OnceAnswer()
        let browser = try MulticastBrowser(type: Announcement.serviceType, interfaces: interfaces) { event in
            switch event {
            case .added(let service), .updated(let service):
                if let found = matching(service, device: device, now: Date().timeIntervalSince1970) { answer.give(found) }
            case .removed: break
            }
        }
        defer { browser.stop() }
        let timer = Task {
            try? await Task.sleep(for: .seconds(timeout))
            answer.give(nil)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { answer.wait(with: $0) }
        } onCancel: {
            answer.give(nil)
        }
    }

    /// `service` when it is `device`'s own announcement. Only the device itself: an everyone-mode
    /// stranger is identified too (with no paired device), and taking it sent to the stranger and
    /// noted the stranger's address as the device's (lab-privacy.sh's capture showed it).
    static func matching(_ service: ResolvedService, device: PairedDevice, now: Double) -> Found? {
        identify(service, paired: [device], now: now).flatMap { $0.paired?.fingerprint == device.fingerprint ? $0 : nil }
    }

    /// The device called `name` that waits to pair, as soon as it is seen; `nil` after `timeout` seconds.
    public static func waitingToPair(named name: String, interfaces: [String]? = nil, timeout: Double = 5) throws -> Found? {
        try first(interfaces: interfaces, timeout: timeout) { service in
            identify(service, paired: [], now: 0).flatMap { $0.waitingToPair && $0.name == name ? $0 : nil }
        }
    }

    /// The first service `match` accepts, browsing for at most `timeout` seconds.
    static func first(interfaces: [String]?, timeout: Double, match: @escaping @Sendable (ResolvedService) -> Found?) throws -> Found? {
        let done = DispatchSemaphore(value: 0)
        let result = FoundBox()
        let browser = try MulticastBrowser(type: Announcement.serviceType, interfaces: interfaces) { event in
            switch event {
            case .added(let service), .updated(let service):
                if let found = match(service), result.set(found) { done.signal() }
            case .removed: break
            }
        }
        defer { browser.stop() }
        _ = done.wait(timeout: .now() + timeout)
        return result.value
    }
}

/// The first answer of an async browse, given once from whichever comes first (the browser's
/// thread, the timer, cancellation), whether or not the waiting continuation is there yet.
private final class OnceAnswer: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var answer: DeviceFinder.Found??
    private var waiting: CheckedContinuation<DeviceFinder.Found?, Never>?

    func give(_ value: DeviceFinder.Found?) {
        let resume: CheckedContinuation<DeviceFinder.Found?, Never>? = lock.withLock {
            guard answer == nil else { return nil }
            answer = .some(value)
            defer { waiting = nil }
            return waiting
        }
        resume?.resume(returning: value)
    }

    func wait(with continuation: CheckedContinuation<DeviceFinder.Found?, Never>) {
        let given: DeviceFinder.Found?? = lock.withLock {
            if let answer { return answer }
            waiting = continuation
            return nil
        }
        if let given { continuation.resume(returning: given) }
    }
}

/// The first device found, set once from the browser's thread.
private final class FoundBox: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var found: DeviceFinder.Found?
    func set(_ value: DeviceFinder.Found) -> Bool {
        lock.withLock { if found == nil { found = value; return true } else { return false } }
    }
    var value: DeviceFinder.Found? { lock.withLock { found } }
}

/// The paired devices seen so far while listing, filled from the browser's thread.
private final class SeenSet: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var missing: Set<Fingerprint>
    private var complete = false
    init(awaiting: Set<Fingerprint>) { missing = awaiting }
    /// Notes `fingerprint` as seen; `true` exactly once, when the last awaited device is seen.
    func insert(_ fingerprint: Fingerprint) -> Bool {
        lock.withLock {
            guard !complete, missing.remove(fingerprint) != nil, missing.isEmpty else { return false }
            complete = true
            return true
        }
    }
}
