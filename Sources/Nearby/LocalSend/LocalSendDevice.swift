import Foundation

/// A LocalSend device as protocol v2 describes one: in multicast announcements, `register`
/// bodies and replies, `info` replies, and the `info` of a `prepare-upload`.
///
/// Every field is display text or a hint: the alias names the sender (never a path), the
/// fingerprint is only what the device claims (LocalSend senders present no certificate), and the
/// port and protocol say where its own server is.
public struct LocalSendDevice: Codable, Sendable, Equatable {
    /// The name the device shows.
    public var alias: String
    /// The protocol version, `major.minor`.
    public var version: String
    /// A model name, if any.
    public var deviceModel: String?
    /// `mobile`, `desktop`, `web`, `headless` or `server` (unknown values are kept as given).
    public var deviceType: String?
    /// With HTTPS, the SHA-256 of the device's certificate in hex; otherwise a random string.
    public var fingerprint: String
    /// The device's server port (absent in `info` replies).
    public var port: Int?
    /// `https` or `http` (absent in `info` replies).
    public var `protocol`: String?
    /// Whether the device serves the download API (we never do).
    public var download: Bool?
    /// In a multicast message: whether it asks the others to answer.
    public var announce: Bool?

    /// A description of a device.
    public init(alias: String, version: String = LocalSendDevice.protocolVersion, deviceModel: String? = nil, deviceType: String? = nil,
                fingerprint: String, port: Int? = nil, protocol: String? = nil, download: Bool? = nil, announce: Bool? = nil) {
        self.alias = alias
        self.version = version
        self.deviceModel = deviceModel
        self.deviceType = deviceType
        self.fingerprint = fingerprint
        self.port = port
        self.protocol = `protocol`
        self.download = download
        self.announce = announce
    }

    /// The version we speak.
    public static let protocolVersion = "2.1"

    enum CodingKeys: String, CodingKey {
        case alias, version, deviceModel, deviceType, fingerprint, port, `protocol`, download, announce
    }

    /// Read with the alias, model and type made display-safe (``NetworkText``), once, here.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        alias = NetworkText.name(try c.decode(String.self, forKey: .alias))
        version = try c.decode(String.self, forKey: .version)
        deviceModel = try c.decodeIfPresent(String.self, forKey: .deviceModel).map(NetworkText.name)
        deviceType = try c.decodeIfPresent(String.self, forKey: .deviceType).map(NetworkText.identifier)
        fingerprint = try c.decode(String.self, forKey: .fingerprint)
        port = try c.decodeIfPresent(Int.self, forKey: .port)
        `protocol` = try c.decodeIfPresent(String.self, forKey: .protocol)
        download = try c.decodeIfPresent(Bool.self, forKey: .download)
        announce = try c.decodeIfPresent(Bool.self, forKey: .announce)
    }

    /// Written with `deviceModel` and `deviceType` present even when null: some peers (the PyPI
    /// `localsend` package) refuse a reply without them.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(alias, forKey: .alias)
        try c.encode(version, forKey: .version)
        try c.encode(deviceModel, forKey: .deviceModel)
        try c.encode(deviceType, forKey: .deviceType)
        try c.encode(fingerprint, forKey: .fingerprint)
        try c.encodeIfPresent(port, forKey: .port)
        try c.encodeIfPresent(`protocol`, forKey: .protocol)
        try c.encodeIfPresent(download, forKey: .download)
        try c.encodeIfPresent(announce, forKey: .announce)
    }

    /// The device in a JSON body; an error naming what is wrong.
    public static func decode(_ bytes: some Collection<UInt8>) throws(NearbyError) -> LocalSendDevice {
        try LocalSendJSON.decode(LocalSendDevice.self, from: bytes, what: "a LocalSend device")
    }

    /// The device as JSON.
    public var json: [UInt8] { LocalSendJSON.encode(self) }
}
