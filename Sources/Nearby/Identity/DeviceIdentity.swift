import Crypto
import Foundation
import SwiftASN1
import SystemCalls
import X509

/// This device's key and self-signed certificate: what it proves itself with in every TLS
/// handshake, and what paired devices pin (by ``fingerprint``).
///
/// Made on first use and kept in ``NearbyFolder`` (0600). The certificate names no host or user:
/// a certificate travels in every handshake, and its subject would be a stable identifier.
/// ``rotate(in:)`` makes a new one; devices paired with the old one then refuse this device until
/// they are paired again (nothing re-pairs silently).
public struct DeviceIdentity: Sendable {
    /// The certificate, DER.
    public let certificateDER: [UInt8]
    /// The private key, PEM (PKCS#8).
    let privateKeyPEM: String
    /// SHA-256 of ``certificateDER``.
    public var fingerprint: Fingerprint { Fingerprint(certificate: certificateDER) }

    /// The identity stored in `folder`, made (and stored) if there is none.
    public static func loadOrCreate(in folder: NearbyFolder) throws(NearbyError) -> DeviceIdentity {
        if FileSystem.exists(folder.privateKey) || FileSystem.exists(folder.certificate) { return try load(from: folder) }
        return try rotate(in: folder)
    }

    /// The identity stored in `folder`; an error if it is missing or damaged.
    public static func load(from folder: NearbyFolder) throws(NearbyError) -> DeviceIdentity {
        let keyBytes: [UInt8], der: [UInt8]
        do {
            keyBytes = try FileSystem.read(folder.privateKey)
            der = try FileSystem.read(folder.certificate)
        } catch { throw .system(error) }
        let pem = String(decoding: keyBytes, as: UTF8.self)
        let key: P256.Signing.PrivateKey
        do { key = try P256.Signing.PrivateKey(pemRepresentation: pem) } catch {
            throw .corruptState(path: folder.privateKey, detail: "not a P-256 private key in PEM (\(error))")
        }
        let certificate: Certificate
        do { certificate = try Certificate(derEncoded: der) } catch {
            throw .corruptState(path: folder.certificate, detail: "not a DER certificate (\(error))")
        }
        guard certificate.publicKey == Certificate.PublicKey(key.publicKey) else {
            throw .corruptState(path: folder.certificate, detail: "the certificate is not the key's (\(folder.privateKey))")
        }
        return DeviceIdentity(certificateDER: der, privateKeyPEM: pem)
    }

    /// Makes a new key and certificate and stores them in `folder`, replacing any old ones.
    @discardableResult
    public static func rotate(in folder: NearbyFolder) throws(NearbyError) -> DeviceIdentity {
        try folder.create()
        let key = P256.Signing.PrivateKey()
        let der: [UInt8]
        do {
            // No host or user name: see the type's comment.
            let name = try DistinguishedName { CommonName("document-interchange nearby device") }
            let now = Date()
            let certificate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(),
                publicKey: Certificate.PublicKey(key.publicKey),
                notValidBefore: now.addingTimeInterval(-86_400), notValidAfter: now.addingTimeInterval(20 * 365 * 86_400),
                issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions { Critical(BasicConstraints.notCertificateAuthority) },
                issuerPrivateKey: Certificate.PrivateKey(key))
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            der = serializer.serializedBytes
        } catch { throw .identity("\(error)") }
        do {
            try AtomicFile.write(Array(key.pemRepresentation.utf8), to: folder.privateKey, permissions: 0o600)
            try AtomicFile.write(der, to: folder.certificate, permissions: 0o600)
        } catch { throw .system(error) }
        return DeviceIdentity(certificateDER: der, privateKeyPEM: key.pemRepresentation)
    }
}
