/// Where to send: an address, and the certificate the device there must present.
public struct SendTarget: Sendable, Hashable {
    /// The host (a name, an IPv4 address, or an IPv6 address without brackets).
    public var host: String
    /// The TCP port.
    public var port: Int
    /// The fingerprint the receiver must present; `nil`: that of any paired device.
    public var expected: Fingerprint?
    /// The paired device's name, for messages.
    public var name: String?

    /// A target.
    public init(host: String, port: Int, expected: Fingerprint?, name: String? = nil) {
        self.host = host
        self.port = port
        self.expected = expected
        self.name = name
    }

    /// `HOST:PORT` or `[IPV6]:PORT` read into a host and a port.
    public static func parseAddress(_ text: String) throws(NearbyError) -> (host: String, port: Int) {
        let host: Substring, portText: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw .badAddress(text) }
            portText = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":"), text.firstIndex(of: ":") == colon else { throw .badAddress(text) }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, let port = Int(portText), (1...65535).contains(port) else { throw .badAddress(text) }
        return (String(host), port)
    }

    /// The address as `HOST:PORT` (`[IPV6]:PORT`).
    public var address: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
