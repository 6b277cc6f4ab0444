import SystemCalls

/// An IPv4 or IPv6 address, as the bytes of an A or AAAA record (network order). Always 4 or 16
/// bytes: the initializers refuse any other length.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// The 4 (IPv4) or 16 (IPv6) bytes.
    public let bytes: [UInt8]

    /// The address of `bytes`, or `nil` unless there are 4 or 16.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// The address written as text (`10.216.0.1`, `fe80::ff:fe00:1`), or `nil` when it is
    /// neither form. The corresponding C function is `inet_pton`.
    public init?(_ text: String) {
        guard let bytes = SocketAddress.bytes(of: text) else { return nil }
        self.bytes = bytes
    }

    /// Whether it is IPv4 (an A record's); IPv6 otherwise.
    public var isIPv4: Bool { bytes.count == 4 }

    /// Whether it is link-local (169.254/16, fe80::/10): usable only with the interface it was
    /// learned on.
    public var isLinkLocal: Bool {
        isIPv4 ? bytes[0] == 169 && bytes[1] == 254 : bytes[0] == 0xfe && bytes[1] & 0xc0 == 0x80
    }

    /// The usual text form (RFC 5952 for IPv6).
    public var description: String { SocketAddress.text(of: bytes) }
}
