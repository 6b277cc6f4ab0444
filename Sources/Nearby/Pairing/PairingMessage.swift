import NIOCore
import OrderedCollections
import PropertyLists

/// The messages of pairing, binary property lists like the session's. A (the device typing the
/// code) says hello; B (the one showing it), which now knows A's certificate, sends its SPAKE2
/// share; A, which now knows B's, sends its share and confirmation; B checks it, pins A and
/// sends its own confirmation, which A checks before pinning B. Both certificates' fingerprints
/// are the SPAKE2 identities, so a device in the middle (two TLS connections, other
/// certificates) makes the confirmations fail.
enum PairingMessage: Sendable, Equatable {
    /// A's name and the port it receives on.
    case hello(name: String, receivePort: Int)
    /// B's name, its share pB, and the port it receives on.
    case reply(name: String, share: [UInt8], receivePort: Int)
    /// A's share pA and confirmation.
    case confirm(share: [UInt8], confirmation: [UInt8])
    /// B's verdict: paired (with its confirmation), or why not.
    case done(paired: Bool, confirmation: [UInt8], reason: String?)
    /// Numeric comparison (``ComparisonDigits``): A's name, port and commitment to its nonce.
    case compareHello(name: String, receivePort: Int, commitment: [UInt8])
    /// B's name, port and nonce.
    case compareReply(name: String, nonce: [UInt8], receivePort: Int)
    /// A's nonce, which B checks against the commitment.
    case compareReveal(nonce: [UInt8])
    /// What the person on this side said about the digits (either side sends one).
    case compareVerdict(confirmed: Bool, reason: String?)

    func encoded() -> [UInt8] {
        var d: OrderedDictionary<String, PropertyList> = [:]
        switch self {
        case .hello(let name, let port):
            d = ["Type": .string("PairHello"), "Name": .string(name), "ReceivePort": .integer(Int64(port))]
        case .reply(let name, let share, let port):
            d = ["Type": .string("PairReply"), "Name": .string(name), "Share": .data(share), "ReceivePort": .integer(Int64(port))]
        case .confirm(let share, let confirmation):
            d = ["Type": .string("PairConfirm"), "Share": .data(share), "Confirmation": .data(confirmation)]
        case .done(let paired, let confirmation, let reason):
            d = ["Type": .string("PairDone"), "Paired": .bool(paired), "Confirmation": .data(confirmation)]
            if let reason { d["Reason"] = .string(reason) }
        case .compareHello(let name, let port, let commitment):
            d = ["Type": .string("CompareHello"), "Name": .string(name), "ReceivePort": .integer(Int64(port)), "Commitment": .data(commitment)]
        case .compareReply(let name, let nonce, let port):
            d = ["Type": .string("CompareReply"), "Name": .string(name), "Nonce": .data(nonce), "ReceivePort": .integer(Int64(port))]
        case .compareReveal(let nonce):
            d = ["Type": .string("CompareReveal"), "Nonce": .data(nonce)]
        case .compareVerdict(let confirmed, let reason):
            d = ["Type": .string("CompareVerdict"), "Confirmed": .bool(confirmed)]
            if let reason { d["Reason"] = .string(reason) }
        }
        return BinaryPropertyListWriter().write(.dictionary(d))
    }

    static func decode(_ frame: Frame) throws(NearbyError) -> PairingMessage {
        guard frame.kind == .message else { throw .pairing("data where a pairing message belongs") }
        var options = PropertyListReadOptions()
        options.maximumDepth = 4
        let value: PropertyList
        do { value = try PropertyListReader.value(ofBinary: Array(frame.payload.readableBytesView), options: options) } catch {
            throw .pairing("a message that is not a binary property list")
        }
        guard case .dictionary(let d) = value, case .string(let type)? = d["Type"] else { throw .pairing("a message without a Type") }
        func data(_ key: String) throws(NearbyError) -> [UInt8] {
            guard case .data(let bytes)? = d[key], bytes.count <= 256 else { throw .pairing("\(type).\(key) is missing or not data") }
            return bytes
        }
        func name() throws(NearbyError) -> String {
            guard case .string(let s)? = d["Name"] else { throw .pairing("\(type).Name is missing") }
            // Shown beside the comparison digits: a name that drew fake digits hid the real ones.
            return NetworkText.name(s)
        }
        func port() throws(NearbyError) -> Int {
            guard case .integer(let n)? = d["ReceivePort"], (1...65535).contains(n) else { throw .pairing("\(type).ReceivePort is not a port") }
            return Int(n)
        }
        switch type {
        case "PairHello": return .hello(name: try name(), receivePort: try port())
        case "PairReply": return .reply(name: try name(), share: try data("Share"), receivePort: try port())
        case "PairConfirm": return .confirm(share: try data("Share"), confirmation: try data("Confirmation"))
        case "PairDone":
            guard case .bool(let paired)? = d["Paired"] else { throw .pairing("PairDone.Paired is missing") }
            var reason: String?
            if case .string(let r)? = d["Reason"] { reason = NetworkText.text(r) }
            return .done(paired: paired, confirmation: try data("Confirmation"), reason: reason)
        case "CompareHello": return .compareHello(name: try name(), receivePort: try port(), commitment: try data("Commitment"))
        case "CompareReply": return .compareReply(name: try name(), nonce: try data("Nonce"), receivePort: try port())
        case "CompareReveal": return .compareReveal(nonce: try data("Nonce"))
        case "CompareVerdict":
            guard case .bool(let confirmed)? = d["Confirmed"] else { throw .pairing("CompareVerdict.Confirmed is missing") }
            var reason: String?
            if case .string(let r)? = d["Reason"] { reason = NetworkText.text(r) }
            return .compareVerdict(confirmed: confirmed, reason: reason)
        default: throw .pairing("unknown message '\(type)'")
        }
    }

    var frame: Frame { Frame(kind: .message, payload: ByteBuffer(bytes: encoded())) }
}
