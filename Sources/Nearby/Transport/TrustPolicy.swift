import NearbyDevices

/// Which peer certificates one TLS connection accepts: the one trust decision, as a value, made
/// where the connection is set up and carried into the handshake by ``PeerCheck``. A refused
/// certificate ends the handshake, so the peer gets no byte of what follows.
enum TrustPolicy: Sendable {
    /// Only the certificate with this fingerprint: a paired device's pin, or the certificate a
    /// first connection to a LocalSend or AirDrop device showed (every later connection of the
    /// same send must show it again, or a device in the middle could take them).
    case pinned(Fingerprint)
    /// Any device paired in `folder`, read at each handshake (a pairing made while a receiver or
    /// a sender runs counts at once).
    case paired(NearbyFolder)
    /// A receiver's rule: paired devices only, or anyone in everyone-mode (``ReceiveMode``).
    case receiving(ReceiveMode, NearbyFolder)
    /// Anyone, the certificate recorded for a decision after the handshake: a first contact
    /// (pairing's comparison or code, LocalSend's `info` against the devices remembered, AirDrop's
    /// `Discover`, whose protocol pins nothing).
    case anyoneRecorded

    /// Whether a certificate with `fingerprint` may complete the handshake.
    func accepts(_ fingerprint: Fingerprint) -> Bool {
        switch self {
        case .pinned(let pin): fingerprint == pin
        case .paired(let folder): Self.isPaired(fingerprint, in: folder)
        case .receiving(let mode, let folder): mode == .everyone || Self.isPaired(fingerprint, in: folder)
        case .anyoneRecorded: true
        }
    }

    /// The one fingerprint this policy accepts, if it accepts one only.
    var pin: Fingerprint? {
        if case .pinned(let pin) = self { pin } else { nil }
    }

    static func isPaired(_ fingerprint: Fingerprint, in folder: NearbyFolder) -> Bool {
        (try? PairedDevices.load(from: folder).device(with: fingerprint)) != nil
    }
}
