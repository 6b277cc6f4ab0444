import Crypto
import NearbyDevices

extension Fingerprint {
    /// The fingerprint of a certificate given as DER: its SHA-256.
    public init(certificate der: [UInt8]) { self.init(bytes: Array(SHA256.hash(data: der)))! }
}
