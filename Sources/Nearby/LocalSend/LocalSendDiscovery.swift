import AppRegistry
import Synchronization

/// Finds LocalSend devices as LocalSend's own apps do: announces on the multicast group and takes
/// the `register` each device posts back (and any announcement or multicast reply heard), for a
/// sender that runs no receiver. Its short-lived server takes no files.
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

    /// The devices heard within `timeout` seconds, or sooner the first whose alias is `alias`.
    /// - Parameters:
    ///   - interfaces: the interfaces to announce on (`nil`: every IPv4 multicast interface).
    ///   - multicastPort: LocalSend's port, unless told otherwise.
    public static func find(root: DeviceRoot, deviceName: String, alias: String? = nil, timeout: Double = 5, interfaces: [String]? = nil,
                            multicastPort: Int = 53317) async throws -> [Found] {
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
        let receiver = try await LocalSendReceiver(configuration: configuration, settings: settings, identity: identity,
                                                   policy: AskPolicy(configuration: configuration, prompt: nil, askLimits: AskLimits(limit: 0, window: 1)),
                                                   events: { _ in }) { device, host in
            let done = found.withLock { list in
                if !list.contains(where: { $0.device.fingerprint == device.fingerprint && $0.host == host }) {
                    list.append(Found(device: device, host: host))
                }
                return alias.map { device.alias == $0 } ?? false
            }
            if done { continuation.finish() }
        }
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
