import AppRegistry
import SystemCalls

/// Where a device keeps its nearby state, under its device root (mode 0700: the private key and
/// the pins are the device's trust):
///
/// ```
/// ROOT/Nearby/identity-key.pem    the device's P-256 private key (0600)
/// ROOT/Nearby/identity-cert.der   its self-signed certificate (0600); its SHA-256 is the fingerprint
/// ROOT/Nearby/Paired.plist        the paired devices: name and pinned fingerprint (0600)
/// ROOT/Nearby/Spool/              items being received, kept for resume until delivered
/// ROOT/Nearby/InReach.plist       the paired devices a running receiver sees in reach (0600)
/// ```
public struct NearbyFolder: Sendable, Hashable {
    /// The device root it belongs to.
    public let root: DeviceRoot
    /// `ROOT/Nearby`.
    public var path: String { root.path + "/Nearby" }
    /// The private key (PEM).
    public var privateKey: String { path + "/identity-key.pem" }
    /// The certificate (DER).
    public var certificate: String { path + "/identity-cert.der" }
    /// The paired devices.
    public var paired: String { path + "/Paired.plist" }
    /// Items being received.
    public var spool: String { path + "/Spool" }
    /// The paired devices in reach, as a running receiver sees them (``DevicesInReach``).
    public var inReach: String { path + "/InReach.plist" }

    /// The nearby folder of `root`.
    public init(root: DeviceRoot) { self.root = root }

    /// Creates the folder (0700) and the spool if missing.
    public func create() throws(NearbyError) {
        do {
            try FileSystem.makeDirectories(path, permissions: 0o700)
            try FileSystem.makeDirectories(spool, permissions: 0o700)
        } catch { throw .system(error) }
    }
}
