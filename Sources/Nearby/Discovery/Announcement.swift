import MulticastDNS

/// What a receiver announces over DNS-SD (`_di-nearby._tcp`), per mode. In paired mode nothing in
/// it is stable or identifying: the instance and host names are random per epoch, and the TXT
/// record holds only ``DiscoveryTag``s that the paired devices alone recognise, among decoys that
/// hide how many devices are paired. In everyone-mode the device is meant to be found by anyone,
/// as AirDrop's "Everyone" is: its name and fingerprint are shown.
enum Announcement {
    /// The service type.
    static let serviceType = "_di-nearby._tcp"

    /// The instance to announce now.
    static func instance(mode: ReceiveMode, deviceName: String, identity: Fingerprint, port: Int, paired: [PairedDevice],
                         now: Double) throws -> ServiceInstance {
        let host = DiscoveryTag.randomLabel()
        switch mode {
        case .everyone:
            return try ServiceInstance(name: String(deviceName.prefix(63)), type: serviceType, port: UInt16(port),
                                       txt: TXTRecord([("v", "1"), ("m", "everyone"), ("fp", identity.hex)]), hostLabel: host)
        case .paired, .off:
            let epoch = DiscoveryTag.epoch(at: now)
            let tags = paired.compactMap { device in device.discoveryKey.map { DiscoveryTag.tag(key: $0, publisher: identity, epoch: epoch) } }
            return try ServiceInstance(name: DiscoveryTag.randomLabel(), type: serviceType, port: UInt16(port),
                                       txt: TXTRecord([("v", "1")] + zip(DiscoveryTag.keys, DiscoveryTag.padded(tags)).map { ($0, $1.joined(separator: ",")) }),
                                       hostLabel: host)
        }
    }

    /// What a device waiting to pair announces (`nearby pair --show-code` or `--wait`): its name,
    /// so the other finds it by name, and the pairing port. Only while it waits: a stable name is
    /// what paired mode never shows.
    static func pairing(deviceName: String, port: Int) throws -> ServiceInstance {
        try ServiceInstance(name: String(deviceName.prefix(63)), type: serviceType, port: UInt16(port),
                            txt: TXTRecord([("v", "1"), ("m", "pairing")]), hostLabel: DiscoveryTag.randomLabel())
    }
}
