/// An ask as the receiving user sees it: who sends what, to which app.
public struct IncomingAsk: Sendable {
    /// The name the sender gives itself (display text).
    public var senderName: String
    /// The sending app's bundle identifier, as the sender states it.
    public var senderApp: String
    /// The sender's certificate.
    public var fingerprint: Fingerprint
    /// The paired device it is, if any.
    public var pairedName: String?
    /// The items: safe name, type, size (`nil`: not known, as in AirDrop's ask), and where each
    /// would go.
    public var items: [(name: String, type: String, size: Int64?, destination: String)]
}

/// What the receiver reports as it works (for a progress line, `--json` events, logs).
public enum ReceiverEvent: Sendable {
    /// Listening on a port.
    case listening(port: Int)
    /// Also speaking LocalSend, on this port (HTTPS or plain HTTP).
    case listeningLocalSend(port: Int, secure: Bool)
    /// Also speaking AirDrop's protocol, announced on this interface, served on this port.
    case listeningAirDrop(port: Int, interface: String)
    /// A connection was refused in the handshake (its certificate is not paired).
    case refusedPeer(Fingerprint?)
    /// An ask arrived and was answered.
    case asked(IncomingAsk, accepted: Bool, reason: String?)
    /// An item was delivered (to an app's Inbox, or to the download folder).
    case delivered(name: String, destination: String, path: String, bytes: Int64, resumedFrom: Int64)
    /// A session ended with an error.
    case failed(String)
    /// Something failed that the receiver goes on without (an announcement not sent, discovery
    /// started again).
    case warning(String)
    /// Everyone-mode's time ran out; the receiver stops.
    case expired
}
