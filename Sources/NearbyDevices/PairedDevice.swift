/// A device this one has paired with: the name it is known by here and its pinned certificate.
public struct PairedDevice: Sendable, Hashable {
    /// The name given at pairing (the other device's name, or what the user chose): unique among
    /// the paired devices, and what `nearby send --to` takes.
    public var name: String
    /// The SHA-256 of its certificate: a connection presenting any other certificate is refused.
    public var fingerprint: Fingerprint
    /// When it was paired (seconds since 1970).
    public var pairedAt: Double
    /// Where it was last reached (`HOST:PORT`), tried when discovery does not find it.
    public var lastAddress: String?
    /// The key both devices kept from pairing (SPAKE2's shared key): the tags that let only these
    /// two recognise each other in discovery (`DiscoveryTag`). `nil` for a device pinned otherwise.
    public var discoveryKey: [UInt8]?

    /// A paired device.
    public init(name: String, fingerprint: Fingerprint, pairedAt: Double, lastAddress: String? = nil, discoveryKey: [UInt8]? = nil) {
        self.name = name
        self.fingerprint = fingerprint
        self.pairedAt = pairedAt
        self.lastAddress = lastAddress
        self.discoveryKey = discoveryKey
    }
}
