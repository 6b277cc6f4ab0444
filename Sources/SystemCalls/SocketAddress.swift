#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An IPv4 or IPv6 address with a UDP or TCP port: what `sockaddr_in` and `sockaddr_in6` hold,
/// as a value. The address is kept as its bytes in network order (4 or 16), so it can be compared,
/// hashed and written into a DNS record without a conversion.
package struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address family.
    package enum Family: Sendable, Hashable {
        /// IPv4 (`AF_INET`).
        case v4
        /// IPv6 (`AF_INET6`).
        case v6
    }

    /// The family, which decides how many bytes ``address`` has.
    package let family: Family
    /// The address in network order: 4 bytes for IPv4, 16 for IPv6.
    package let address: [UInt8]
    /// The port.
    package var port: UInt16
    /// The interface a link-local IPv6 address belongs to (`sin6_scope_id`); 0 otherwise.
    package var scope: UInt32

    /// An IPv4 address from its 4 bytes, or `nil` when there are not 4.
    package init?(v4 address: [UInt8], port: UInt16) {
        guard address.count == 4 else { return nil }
        (family, self.address, self.port, scope) = (.v4, address, port, 0)
    }

    /// An IPv6 address from its 16 bytes, or `nil` when there are not 16.
    package init?(v6 address: [UInt8], port: UInt16, scope: UInt32 = 0) {
        guard address.count == 16 else { return nil }
        (family, self.address, self.port, self.scope) = (.v6, address, port, scope)
    }

    /// The address a `sockaddr_storage` holds (`length` bytes of it), or `nil` for a family other
    /// than IPv4 and IPv6.
    package init?(_ storage: sockaddr_storage, length: socklen_t) {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET where Int(length) >= MemoryLayout<sockaddr_in>.size:
            let value = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self) }
            let bytes = withUnsafeBytes(of: value.sin_addr) { Array($0) }
            self.init(v4: bytes, port: UInt16(bigEndian: value.sin_port))
        case AF_INET6 where Int(length) >= MemoryLayout<sockaddr_in6>.size:
            let value = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self) }
            let bytes = withUnsafeBytes(of: value.sin6_addr) { Array($0) }
            self.init(v6: bytes, port: UInt16(bigEndian: value.sin6_port), scope: value.sin6_scope_id)
        default:
            return nil
        }
    }

    /// Whether this is an IPv6 link-local address (fe80::/10), which needs its interface.
    package var isLinkLocal: Bool {
        switch family {
        case .v4: address[0] == 169 && address[1] == 254
        case .v6: address[0] == 0xfe && address[1] & 0xc0 == 0x80
        }
    }

    /// Calls `body` with this address as a `sockaddr` and its length.
    package func withSocketAddress<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        switch family {
        case .v4:
            var value = sockaddr_in()
            value.sin_family = sa_family_t(AF_INET)
            value.sin_port = port.bigEndian
            withUnsafeMutableBytes(of: &value.sin_addr) { $0.copyBytes(from: address) }
            return withUnsafePointer(to: &value) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case .v6:
            var value = sockaddr_in6()
            value.sin6_family = sa_family_t(AF_INET6)
            value.sin6_port = port.bigEndian
            value.sin6_scope_id = scope
            withUnsafeMutableBytes(of: &value.sin6_addr) { $0.copyBytes(from: address) }
            return withUnsafePointer(to: &value) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
    }

    /// The address as text (`10.0.0.1:5353`, `[fe80::1%2]:5353`). The corresponding C function is
    /// `inet_ntop`.
    package var description: String {
        let text = Self.text(of: address)
        switch family {
        case .v4: return "\(text):\(port)"
        case .v6: return "[\(text)\(scope != 0 ? "%\(scope)" : "")]:\(port)"
        }
    }

    /// An address of 4 or 16 bytes as text, without a port ("10.0.0.1", "fe80::1"); the bytes in
    /// hexadecimal for any other length. The corresponding C function is `inet_ntop`.
    package static func text(of address: [UInt8]) -> String {
        let family = address.count == 4 ? AF_INET : address.count == 16 ? AF_INET6 : -1
        guard family != -1 else { return address.map { String($0, radix: 16) }.joined(separator: ":") }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let written = address.withUnsafeBytes { bytes in
            text.withUnsafeMutableBufferPointer { inet_ntop(family, bytes.baseAddress, $0.baseAddress, socklen_t($0.count)) }
        }
        guard written != nil else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The 4 or 16 bytes of an address written as text (`10.0.0.1`, `fe80::1`), or `nil` when it is
    /// neither form. The corresponding C function is `inet_pton`.
    package static func bytes(of text: String) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET, text, &buffer) == 1 { return Array(buffer.prefix(4)) }
        if inet_pton(AF_INET6, text, &buffer) == 1 { return buffer }
        return nil
    }
}
