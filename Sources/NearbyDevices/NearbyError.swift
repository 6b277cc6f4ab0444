import SystemCalls

/// Why a nearby operation failed, with what and where, as one sentence.
public enum NearbyError: Error, Sendable, CustomStringConvertible {
    /// A file of the device's nearby state could not be read or written.
    case system(SystemCallError)
    /// A stored file is not what this tool writes (the path and what is wrong).
    case corruptState(path: String, detail: String)
    /// The identity could not be made or loaded (swift-crypto or swift-certificates said why).
    case identity(String)
    /// No paired device has that name.
    case unknownDevice(String, known: [String])
    /// An address given as `HOST:PORT` could not be read.
    case badAddress(String)
    /// The connection could not be made or was lost.
    case connection(String)
    /// The other device's certificate is not the one pinned for it (or it is not paired).
    case pinMismatch(expected: Fingerprint?, got: Fingerprint)
    /// The device at an address given without a pin (`--to HOST:PORT`) shows a certificate no
    /// paired device has.
    case unpairedAt(address: String, got: Fingerprint)
    /// No device of a protocol that is found by name (an AirDrop receiver, a LocalSend app, an
    /// everyone-mode device) answered to that name: the protocol, the name, the names heard.
    case notFound(kind: String, name: String, heard: [String])
    /// The other side broke the protocol (what it sent, or failed to).
    case protocolViolation(String)
    /// The receiver declined the items.
    case declined(String)
    /// A received item could not be handed to its app or folder (where, and the local reason:
    /// neither is told to the sender, see ``publicReason``).
    case delivery(destination: String, detail: String)
    /// A file to send is not a readable regular file.
    case notAFile(String)
    /// Pairing failed (wrong code, code used, timeout).
    case pairing(String)
    /// A session ran past its total time (the sender is told why).
    case timedOut(String)
    /// A LocalSend device presents another certificate than the one remembered for it (its
    /// name, where it was, the remembered fingerprint and the one it showed).
    case certificateChanged(device: String, remembered: Fingerprint, got: Fingerprint)
    /// A later connection of one send showed another certificate than the send's first: a device
    /// in the middle, given nothing (the handshake ended before any request).
    case certificateChangedDuringSend(device: String, first: Fingerprint, got: Fingerprint)

    /// One sentence.
    public var description: String {
        switch self {
        case .system(let error): "\(error)"
        case .corruptState(let path, let detail): "\(path): \(detail)"
        case .identity(let detail): "the device identity: \(detail)"
        case .unknownDevice(let name, let known):
            "no paired device is called '\(name)'" + (known.isEmpty ? " (none is paired: nearby pair)" : " (paired: \(known.joined(separator: ", ")))")
        case .badAddress(let text): "'\(text)' is not HOST:PORT (a port from 1 to 65535)"
        case .connection(let detail): "connection: \(detail)"
        case .pinMismatch(let expected, let got):
            expected.map { "the device's certificate \(got.hex.prefix(16))… is not the one paired (\($0.hex.prefix(16))…): refused before any request" }
                ?? "the device's certificate \(got.hex.prefix(16))… belongs to no paired device: refused before any request"
        case .unpairedAt(let address, let got):
            "the device at \(address) is not paired with this one (its certificate \(got.hex.prefix(16))… is no paired device's): "
                + "refused before any request; pair with it first (nearby pair)"
                + (address.hasSuffix(":53317") ? ". Port 53317 is LocalSend's: to send to a LocalSend app, add --localsend" : "")
        case .notFound(let kind, let name, let heard):
            "no \(kind) called '\(name)' answered" + (heard.isEmpty ? " (none answered)" : " (heard: \(heard.joined(separator: ", ")))")
        case .protocolViolation(let detail): "protocol: \(detail)"
        case .declined(let reason): "declined: \(reason)"
        case .delivery(let destination, let detail): "delivery to \(destination): \(detail)"
        case .notAFile(let path): "\(path): not a readable regular file"
        case .pairing(let detail): "pairing: \(detail)"
        case .timedOut(let detail): "timed out: \(detail)"
        case .certificateChanged(let device, let remembered, let got):
            "\(device) presents another certificate (\(got.hex.prefix(16))…) than before (\(remembered.hex.prefix(16))…): refused; "
                + "if it was reinstalled, send with --new-certificate"
        case .certificateChangedDuringSend(let device, let first, let got):
            "\(device) showed the certificate \(first.hex.prefix(16))… first, then \(got.hex.prefix(16))…: "
                + "another device may be in the middle; the send stopped before any request to it"
        }
    }

    /// What a peer may be told about this error, which may be a device nobody vouched for: the
    /// peer's own mistakes and the policy's reasons in full, the receiver's own failures as a
    /// kind only, never a local path, an app's or a system's words.
    public var publicReason: String {
        switch self {
        case .declined(let reason): reason
        case .protocolViolation, .timedOut, .pairing: description
        case .delivery: "the receiving device could not deliver the item"
        case .connection: "the connection failed"
        default: "the receiving device failed"
        }
    }
}
