import AppRegistry
import Synchronization

/// Finds LocalSend devices as LocalSend's own apps do: announces on the multicast group and takes
/// the `register` each device posts back (and any announcement or multicast reply heard), for a
/// sender that runs no receiver. Its short-lived server takes no files. When multicast has found
/// nothing wanted within ``sweepAfter`` seconds (a network that drops it), the interfaces' /24s
/// are swept as LocalSend sweeps them (``LocalSendSweep``), beside it.
public enum LocalSendDiscovery {
    /// A device found: what it says of itself, and where it posted from.
    public struct Found: Sendable, Equatable {
        /// Its description.
        public var device: LocalSendDevice
        /// The address it was heard from.
        public var host: String

        /// Where its server is.
        public var target: LocalSendTarget {
            LocalSendTarget(host: host, port: device.port ?? 53317, secure: device.protocol != "http")
        }
    }

    /// Seconds of multicast before the sweep starts: LocalSend devices answer an announcement
    /// within tens of milliseconds (16-19 ms in the lab).
    public static let sweepAfter: Double = 1

    /// The devices heard within `timeout` seconds, or sooner the first whose alias is `alias`.
    /// - Parameters:
    ///   - interfaces: the interfaces to announce on and sweep (`nil`: every IPv4 interface).
    ///   - multicastPort: LocalSend's port, unless told otherwise (announced to, and swept).
    ///   - sweep: whether to sweep the /24s when multicast has not found `alias` (or anything) in time.
    public static func find(root: DeviceRoot, deviceName: String, alias: String? = nil, timeout: Double = 5, interfaces: [String]? = nil,
                            multicastPort: Int = 53317, sweep: Bool = true) async throws -> [Found] {
        let identity = try DeviceIdentity.loadOrCreate(in: NearbyFolder(root: root))
        var configuration = ReceiverConfiguration(root: root, mode: .everyone, downloads: "/nonexistent")
        configuration.host = "0.0.0.0"
        configuration.deviceName = deviceName
        configuration.interfaces = interfaces
        var settings = LocalSendSettings()
        settings.port = 0
        settings.multicastPort = multicastPort
        settings.receivesFiles = false
        let found = Mutex<[Found]>([])
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        // Every device heard, by multicast or by the sweep; whether it is the one wanted.
        let take: @Sendable (LocalSendDevice, String) -> Bool = { device, host in
            let done = found.withLock { list in
                if !list.contains(where: { $0.device.fingerprint == device.fingerprint && $0.host == host }) {
                    list.append(Found(device: device, host: host))
                }
                return alias.map { device.alias == $0 } ?? false
            }
            if done { continuation.finish() }
            return done
        }
        let heardWanted: @Sendable () -> Bool = {
            found.withLock { list in alias.map { a in list.contains { $0.device.alias == a } } ?? !list.isEmpty }
        }
        let receiver = try await LocalSendReceiver(configuration: configuration, settings: settings, identity: identity,
                                                   policy: AskPolicy(configuration: configuration, prompt: nil, askLimits: AskLimits(limit: 0, window: 1)),
                                                   events: { _ in }) { device, host in _ = take(device, host) }
        // Not a child of the group below: the connections it has open when the wanted device is
        // found end within their own timeout, and the answer need not wait for them.
        let sweeping: Task<Void, Never>? = sweep ? Task {
            guard (try? await Task.sleep(for: .seconds(sweepAfter))) != nil, !heardWanted() else { return }
            let hosts = LocalSendSweep.hosts(of: LocalSendSweep.interfaceAddresses(), named: interfaces)
            await LocalSendSweep.sweep(hosts: hosts, port: multicastPort, me: receiver.device(), identity: identity,
                                       timeout: min(2, max(0.5, timeout - sweepAfter) / 2), found: take)
        } : nil
        defer { sweeping?.cancel() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await receiver.run() }
            group.addTask {
                try? await Task.sleep(for: .seconds(timeout))
                continuation.finish()
            }
            for await _ in stream {}
            group.cancelAll()
        }
        try? await receiver.server.channel.close()
        return found.withLock { $0 }
    }
}
