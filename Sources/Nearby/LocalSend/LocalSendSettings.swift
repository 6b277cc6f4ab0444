/// How the receiver speaks LocalSend (protocol v2) beside its own protocol, in everyone-mode only:
/// LocalSend announces a stable fingerprint and alias, which paired mode never shows.
public struct LocalSendSettings: Sendable {
    /// The HTTP(S) port, and the multicast port (LocalSend's default: 53317; 0 for the server
    /// picks a free port, for tests).
    public var port = 53317
    /// The multicast port, LocalSend's 53317 unless told otherwise.
    public var multicastPort = 53317
    /// HTTPS (LocalSend's default), or plain HTTP only when asked for.
    public var secure = true
    /// The multicast group announcements go to and are heard on.
    public var group = "224.0.0.167"
    /// Whether to announce and answer announcements (off: reachable by address only).
    public var multicast = true
    /// A PIN senders must give (`?pin=`), else 401.
    public var pin: String?
    /// Wrong PINs an address may give before it is refused (``PINAttempts``).
    public var pinAttempts = 3
    /// Seconds an address that gave too many wrong PINs is refused (429), the right PIN included.
    public var pinLockout: Double = 300
    /// The device type shown to LocalSend (`desktop`, `headless`, …).
    public var deviceType = "desktop"
    /// Whether files are taken (off: a sender looking for devices, which answers `register` and
    /// `info` only and refuses every `prepare-upload`).
    public var receivesFiles = true

    /// LocalSend's defaults: HTTPS on 53317, announced on 224.0.0.167.
    public init() {}

    /// The bundle identifier given as the sending app of LocalSend deliveries (LocalSend names no
    /// app; this is LocalSend's own).
    public static let senderApp = "org.localsend.localsend_app"
}
