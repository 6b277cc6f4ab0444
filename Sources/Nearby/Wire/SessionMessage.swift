import Handoff
import NIOCore
import OrderedCollections
import PropertyLists

/// An item the sender offers: what it is called (display text only), its type and its size. Its
/// SHA-256 follows its bytes (``SessionMessage/uploaded(item:sha256:)``): the sender hashes while
/// it sends instead of reading every file once more before asking.
public struct ItemOffer: Sendable, Hashable {
    /// The file's name as the sender shows it; the receiver makes it safe (``ItemName``) and picks
    /// every path itself.
    public var name: String
    /// Its uniform type identifier.
    public var type: String
    /// Its size in bytes.
    public var size: Int64

    /// An offer.
    public init(name: String, type: String, size: Int64) {
        self.name = name
        self.type = type
        self.size = size
    }
}

/// The messages of a session (discover is the TLS handshake itself: the receiver learns the
/// sender's certificate, the sender checks the receiver's pin). Ask, answer; then per item an
/// upload followed by its bytes in data frames, and the receiver's word that it was delivered.
/// Each is a binary property list dictionary whose `Type` names it, as AirDrop's bodies are.
public enum SessionMessage: Sendable, Equatable {
    /// The sender asks to send items.
    case ask(senderName: String, senderApp: String, targetApp: String?, transfer: [UInt8], items: [ItemOffer])
    /// The receiver's answer: accepted or not (and why), the token uploads must carry, and per
    /// item how many bytes it already holds durably (resume; the size when already delivered).
    case answer(accepted: Bool, reason: String?, token: [UInt8], held: [Int64])
    /// The sender sends item `item` from `offset`; data frames with exactly the rest follow, then
    /// ``uploaded(item:sha256:)``.
    case upload(token: [UInt8], item: Int, offset: Int64)
    /// The SHA-256 of all of item `item`'s bytes (those held from before a resume too): checked
    /// by the receiver before it delivers.
    case uploaded(item: Int, sha256: [UInt8])
    /// The receiver delivered item `item` (to an app, or to the download folder).
    case delivered(item: Int, destination: String)
    /// The receiver refuses and ends the session (why).
    case refused(String)
    /// The receiver is still asking its user about the ask: sent every few seconds while a person
    /// decides, so that neither side's idle timeout ends a session a person is answering.
    case asking
    /// A paired device asks for the activities this device offers for Handoff, now and as they
    /// change, for as long as the connection stays open (instead of an ask).
    case watchActivities
    /// The activities offered now, newest first: each an ``Handoff/ActivityOffer`` as its binary
    /// property list (at most ``maximumOffers``); sent when they change, and every few seconds.
    case activities([[UInt8]])
    /// A paired device continued the activity the offer `identity` names: the app is told
    /// (`userActivityWasContinued`); answered with ``acknowledged``.
    case continued(ActivityOffer.Identity)
    /// A paired device's app that continued that activity opens continuation streams to it:
    /// answered with ``acknowledged``, after which data frames carry the streams both ways, each
    /// direction ending with a finished frame (a connection that ends before both did ended
    /// them with an error).
    case openStreams(ActivityOffer.Identity)
    /// The app was told (``continued(_:)``) or the streams are open (``openStreams(_:)``).
    case acknowledged

    /// The largest number of items one ask may offer.
    public static let maximumItems = 1000
    /// The most offers one ``activities(_:)`` carries (the newest): one per app, and a message
    /// of that many offers of the largest `userInfo` still fits a frame.
    public static let maximumOffers = 8

    /// The message as a binary property list.
    public func encoded() -> [UInt8] {
        var d: OrderedDictionary<String, PropertyList> = [:]
        switch self {
        case .ask(let senderName, let senderApp, let targetApp, let transfer, let items):
            d["Type"] = .string("Ask")
            d["SenderName"] = .string(senderName)
            d["SenderApp"] = .string(senderApp)
            if let targetApp { d["TargetApp"] = .string(targetApp) }
            d["Transfer"] = .data(transfer)
            d["Items"] = .array(items.map { item in
                .dictionary(["Name": .string(item.name), "Type": .string(item.type), "Size": .integer(item.size)])
            })
        case .answer(let accepted, let reason, let token, let held):
            d["Type"] = .string("Answer")
            d["Accepted"] = .bool(accepted)
            if let reason { d["Reason"] = .string(reason) }
            d["Token"] = .data(token)
            d["Held"] = .array(held.map { .integer($0) })
        case .upload(let token, let item, let offset):
            d["Type"] = .string("Upload")
            d["Token"] = .data(token)
            d["Item"] = .integer(Int64(item))
            d["Offset"] = .integer(offset)
        case .uploaded(let item, let digest):
            d["Type"] = .string("Uploaded")
            d["Item"] = .integer(Int64(item))
            d["SHA256"] = .data(digest)
        case .delivered(let item, let destination):
            d["Type"] = .string("Delivered")
            d["Item"] = .integer(Int64(item))
            d["Destination"] = .string(destination)
        case .refused(let reason):
            d["Type"] = .string("Refused")
            d["Reason"] = .string(reason)
        case .asking:
            d["Type"] = .string("Asking")
        case .watchActivities:
            d["Type"] = .string("WatchActivities")
        case .activities(let offers):
            d["Type"] = .string("Activities")
            d["Offers"] = .array(offers.map { .data($0) })
        case .continued(let offer), .openStreams(let offer):
            if case .continued = self { d["Type"] = .string("Continued") } else { d["Type"] = .string("OpenStreams") }
            d["Bundle"] = .string(offer.bundleIdentifier)
            d["Process"] = .integer(Int64(offer.processIdentifier))
            d["MadeCurrent"] = .real(offer.madeCurrent)
        case .acknowledged:
            d["Type"] = .string("Acknowledged")
        }
        return BinaryPropertyListWriter().write(.dictionary(d))
    }

    /// The message in `bytes`; an error naming the first thing wrong.
    public static func decode(_ bytes: [UInt8]) throws(NearbyError) -> SessionMessage {
        var options = PropertyListReadOptions()
        options.maximumDepth = 8
        options.maximumExpandedNodes = 16 * maximumItems
        let value: PropertyList
        do { value = try PropertyListReader.value(ofBinary: bytes, options: options) } catch {
            throw .protocolViolation("a message that is not a binary property list (\(error))")
        }
        guard case .dictionary(let d) = value else { throw .protocolViolation("a message that is not a dictionary") }
        let fields = Fields(d)
        switch try fields.string("Type") {
        case "Ask":
            guard case .array(let list)? = d["Items"] else { throw .protocolViolation("Ask without Items") }
            guard !list.isEmpty, list.count <= maximumItems else {
                throw .protocolViolation("Ask with \(list.count) items (1 to \(maximumItems))")
            }
            var items: [ItemOffer] = []
            for (index, entry) in list.enumerated() {
                guard case .dictionary(let e) = entry else { throw .protocolViolation("Items[\(index)] is not a dictionary") }
                let f = Fields(e, context: "Items[\(index)]")
                let size = try f.integer("Size")
                guard size >= 0 else { throw .protocolViolation("Items[\(index)].Size is negative") }
                items.append(ItemOffer(name: try f.string("Name"), type: NetworkText.identifier(try f.string("Type")), size: size))
            }
            let transfer = try fields.data("Transfer")
            guard transfer.count == 16 else { throw .protocolViolation("Transfer is not 16 bytes") }
            return .ask(senderName: NetworkText.name(try fields.string("SenderName")), senderApp: NetworkText.identifier(try fields.string("SenderApp")),
                        targetApp: try fields.optionalString("TargetApp").map(NetworkText.identifier), transfer: transfer, items: items)
        case "Answer":
            guard case .array(let list)? = d["Held"] else { throw .protocolViolation("Answer without Held") }
            let held = try list.map { (entry: PropertyList) throws(NearbyError) -> Int64 in
                guard case .integer(let n) = entry, n >= 0 else { throw .protocolViolation("Held holds a non-integer") }
                return n
            }
            return .answer(accepted: try fields.boolean("Accepted"), reason: try fields.optionalString("Reason").map(NetworkText.text),
                           token: try fields.data("Token"), held: held)
        case "Upload":
            let item = try fields.integer("Item"), offset = try fields.integer("Offset")
            guard item >= 0, item < Int64(maximumItems), offset >= 0 else { throw .protocolViolation("Upload of item \(item) from \(offset)") }
            return .upload(token: try fields.data("Token"), item: Int(item), offset: offset)
        case "Uploaded":
            let item = try fields.integer("Item")
            guard item >= 0, item < Int64(maximumItems) else { throw .protocolViolation("Uploaded item \(item)") }
            let digest = try fields.data("SHA256")
            guard digest.count == 32 else { throw .protocolViolation("SHA256 is not 32 bytes") }
            return .uploaded(item: Int(item), sha256: digest)
        case "Delivered":
            let item = try fields.integer("Item")
            guard item >= 0, item < Int64(maximumItems) else { throw .protocolViolation("Delivered item \(item)") }
            return .delivered(item: Int(item), destination: NetworkText.identifier(try fields.string("Destination")))
        case "Refused":
            return .refused(NetworkText.text(try fields.string("Reason")))
        case "Asking":
            return .asking
        case "WatchActivities":
            return .watchActivities
        case "Activities":
            guard case .array(let list)? = d["Offers"] else { throw .protocolViolation("Activities without Offers") }
            guard list.count <= maximumOffers else { throw .protocolViolation("Activities with \(list.count) offers (at most \(maximumOffers))") }
            return .activities(try list.enumerated().map { (index, entry) throws(NearbyError) -> [UInt8] in
                guard case .data(let bytes) = entry else { throw .protocolViolation("Offers[\(index)] is not data") }
                return bytes
            })
        case "Continued", "OpenStreams":
            let process = try fields.integer("Process")
            guard let pid = Int32(exactly: process), pid > 0 else { throw .protocolViolation("Process \(process) is not a process identifier") }
            guard case .real(let madeCurrent)? = d["MadeCurrent"] else { throw .protocolViolation("MadeCurrent is missing or not a number") }
            let offer = ActivityOffer.Identity(bundleIdentifier: try fields.string("Bundle"), processIdentifier: pid, madeCurrent: madeCurrent)
            return try fields.string("Type") == "Continued" ? .continued(offer) : .openStreams(offer)
        case "Acknowledged":
            return .acknowledged
        case let other:
            throw .protocolViolation("unknown message type '\(other)'")
        }
    }

    /// Whether only a paired device may send it (Handoff's: watching activities, continuing one,
    /// its streams).
    var isForPairedDevicesOnly: Bool {
        switch self {
        case .watchActivities, .continued, .openStreams: true
        default: false
        }
    }

    /// The message as a frame.
    public var frame: Frame {
        Frame(kind: .message, payload: ByteBuffer(bytes: encoded()))
    }
}

/// Typed reads of a message's keys, each failure naming the key.
private struct Fields {
    let d: OrderedDictionary<String, PropertyList>
    var context = ""

    init(_ d: OrderedDictionary<String, PropertyList>, context: String = "") {
        self.d = d
        self.context = context
    }

    func name(_ key: String) -> String { context.isEmpty ? key : context + "." + key }

    func string(_ key: String) throws(NearbyError) -> String {
        guard case .string(let s)? = d[key] else { throw .protocolViolation("\(name(key)) is missing or not a string") }
        return s
    }

    func optionalString(_ key: String) throws(NearbyError) -> String? {
        guard let value = d[key] else { return nil }
        guard case .string(let s) = value else { throw .protocolViolation("\(name(key)) is not a string") }
        return s
    }

    func data(_ key: String) throws(NearbyError) -> [UInt8] {
        guard case .data(let bytes)? = d[key] else { throw .protocolViolation("\(name(key)) is missing or not data") }
        return bytes
    }

    func integer(_ key: String) throws(NearbyError) -> Int64 {
        guard case .integer(let n)? = d[key] else { throw .protocolViolation("\(name(key)) is missing or not an integer") }
        return n
    }

    func boolean(_ key: String) throws(NearbyError) -> Bool {
        guard case .bool(let b)? = d[key] else { throw .protocolViolation("\(name(key)) is missing or not a boolean") }
        return b
    }
}
