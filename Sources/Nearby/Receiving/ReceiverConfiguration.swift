import AppRegistry

/// How a receiver runs: who it accepts, where it listens, what it takes, where items go.
public struct ReceiverConfiguration: Sendable {
    /// The device root whose apps receive the items.
    public var root: DeviceRoot
    /// Who may send.
    public var mode: ReceiveMode
    /// Minutes after which everyone-mode ends (the receiver stops); AirDrop's is 10.
    public var everyoneMinutes: Double = 10
    /// Accept every ask that the mode lets in without asking anyone (unattended machines).
    public var autoAccept = false
    /// The address to listen on (`::` is every address, IPv4 too).
    public var host = "::"
    /// The TCP port (0: any free one, reported by ``NearbyReceiver/port``).
    public var port = 0
    /// Where items go when no app takes them (the user's download folder by default).
    public var downloads: String
    /// Whether an app that declares a launch command is started after its item is delivered.
    public var launchApps = true
    /// The largest item accepted.
    public var maximumItemSize: Int64 = 64 << 30
    /// Unpaired senders' sessions served at once (everyone-mode); a further one is closed once its
    /// certificate shows it is unpaired. Paired devices are not counted: a stranger holding
    /// connections open must not lock them out.
    public var maximumSessions = 8
    /// Seconds a session may stay silent before it is closed.
    public var idleTimeout: Double = 30
    /// Seconds between the heartbeats that keep a quiet continuation stream open (the protocol's
    /// 10 s, the same on both devices; other values are for tests).
    public var streamHeartbeat: Double = StreamRelay.heartbeat
    /// The slowest average a session may keep, in bytes per second: an accepted session has
    /// ``sessionGrace`` seconds plus its remaining bytes at this rate, then it is closed (a sender
    /// that trickles a byte now and then holds a session slot for no longer than that).
    public var minimumRate: Int64 = 64 << 10
    /// Seconds every accepted session gets beyond its bytes at ``minimumRate``.
    public var sessionGrace: Double = 120
    /// Seconds an unpaired sender's ask may wait for the user.
    public var askTimeout: Double = 60
    /// Seconds between the ``SessionMessage/asking`` messages sent while the user decides: well
    /// under both sides' idle timeouts, so a person taking their time ends nothing.
    public var askingInterval: Double = 10
    /// Asks an unpaired sender (one certificate, or one network address) may put to the person
    /// per ``askWindow``, one at a time. Further asks are refused without asking anyone.
    public var asksPerPeer = 5
    /// The window of ``asksPerPeer``, in seconds.
    public var askWindow: Double = 60
    /// Whether the receiver announces itself over DNS-SD (``Announcement``), and the name it gives
    /// in everyone-mode (paired mode gives none).
    public var announces = false
    /// The name shown in everyone-mode's announcement.
    public var deviceName = "Linux device"
    /// The interfaces announced on (`nil`: every multicast interface).
    public var interfaces: [String]?
    /// Whether (and how) LocalSend is spoken too, in everyone-mode only (`nil`: not at all).
    public var localSend: LocalSendSettings?
    /// Whether (and on which interface) AirDrop's protocol is spoken too, in everyone-mode only.
    public var airDrop: AirDropSettings?
    /// Bytes of free space kept beyond what the items need.
    public var spaceMargin: Int64 = 64 << 20
    /// How many connections each of the receiver's listeners serves at once, in all and from one
    /// address (``ConnectionLimits``).
    public var connectionLimits = ConnectionLimits()

    /// A configuration for `root` in `mode`; items no app takes go to `downloads`.
    public init(root: DeviceRoot, mode: ReceiveMode, downloads: String) {
        self.root = root
        self.mode = mode
        self.downloads = downloads
    }
}
