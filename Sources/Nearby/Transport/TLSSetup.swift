import NIOCore
import NIOSSL
import Synchronization

/// The TLS every nearby connection uses: TLS 1.3 only, both sides present their device
/// certificate, and the peer's certificate is judged by its fingerprint alone (``PeerCheck``),
/// in the handshake, so a refused peer gets no byte of the session.
enum TLSSetup {
    /// The protocol name offered in ALPN.
    static let applicationProtocol = "di-nearby/1"

    /// A context for this device's side of a connection.
    static func context(_ identity: DeviceIdentity, server: Bool) throws(NearbyError) -> NIOSSLContext {
        do {
            let certificate = try NIOSSLCertificate(bytes: identity.certificateDER, format: .der)
            let key = try NIOSSLPrivateKey(bytes: Array(identity.privateKeyPEM.utf8), format: .pem)
            var configuration = server
                ? TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
                : TLSConfiguration.makeClientConfiguration()
            configuration.certificateChain = [.certificate(certificate)]
            configuration.privateKey = .privateKey(key)
            configuration.minimumTLSVersion = .tlsv13
            configuration.maximumTLSVersion = .tlsv13
            // Verification is the pin check, done by the custom callback; this setting makes the
            // server demand a client certificate.
            configuration.certificateVerification = .noHostnameVerification
            configuration.applicationProtocols = [applicationProtocol]
            return try NIOSSLContext(configuration: configuration)
        } catch { throw .identity("TLS: \(error)") }
    }

    /// The verification callback for `check`: the leaf's fingerprint decides, and is recorded.
    static func verifier(_ check: PeerCheck) -> NIOSSLCustomVerificationCallback {
        { certificates, promise in
            guard let leaf = certificates.first, let der = try? leaf.toDERBytes() else { promise.succeed(.failed); return }
            let fingerprint = Fingerprint(certificate: der)
            check.seen.withLock { $0 = fingerprint }
            promise.succeed(check.accepts(fingerprint) ? .certificateVerified : .failed)
        }
    }
}

/// One connection's ``TrustPolicy`` and the certificate it saw.
final class PeerCheck: Sendable {
    /// Which certificates the connection accepts.
    let policy: TrustPolicy
    /// The fingerprint the peer presented (set during the handshake).
    let seen = Mutex<Fingerprint?>(nil)

    init(_ policy: TrustPolicy) { self.policy = policy }

    /// Whether `fingerprint` may complete the handshake.
    func accepts(_ fingerprint: Fingerprint) -> Bool { policy.accepts(fingerprint) }

    /// The fingerprint seen.
    var fingerprint: Fingerprint? { seen.withLock { $0 } }
}

extension TLSSetup {
    /// A context for LocalSend, whose devices present self-signed certificates and whose
    /// senders present none: the server asks for no client certificate, the client records the
    /// server's fingerprint and judges it with `check` (LocalSend itself checks nothing). TLS 1.2
    /// and up, as LocalSend's apps speak.
    static func localSendContext(_ identity: DeviceIdentity, server: Bool) throws(NearbyError) -> NIOSSLContext {
        do {
            let certificate = try NIOSSLCertificate(bytes: identity.certificateDER, format: .der)
            let key = try NIOSSLPrivateKey(bytes: Array(identity.privateKeyPEM.utf8), format: .pem)
            var configuration = server
                ? TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
                : TLSConfiguration.makeClientConfiguration()
            configuration.minimumTLSVersion = .tlsv12
            // A server does not ask for a client certificate; a client judges the server's by
            // the custom callback only.
            configuration.certificateVerification = server ? .none : .noHostnameVerification
            return try NIOSSLContext(configuration: configuration)
        } catch { throw .identity("TLS: \(error)") }
    }
}
