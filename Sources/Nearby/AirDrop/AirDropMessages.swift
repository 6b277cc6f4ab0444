import OrderedCollections
import PropertyLists

/// AirDrop's `Ask` as OpenDrop and Apple's devices send it (a binary property list): who asks,
/// from which app, and per file its name, UTI and whether it is a folder. Every string is display
/// text; nothing here is a path to use.
public struct AirDropAsk: Sendable, Equatable {
    /// One file offered.
    public struct File: Sendable, Equatable {
        /// Its name as sent (`FileName`).
        public var name: String
        /// Its UTI as sent (`FileType`), if any.
        public var type: String?
        /// Whether it is a folder (`FileIsDirectory`): its files come as entries under its name.
        public var isDirectory: Bool

        /// A file offer.
        public init(name: String, type: String?, isDirectory: Bool = false) {
            self.name = name
            self.type = type
            self.isDirectory = isDirectory
        }
    }

    /// `SenderComputerName`.
    public var senderName: String
    /// `SenderModelName`.
    public var senderModel: String?
    /// `SenderID`: the sender's random identifier.
    public var senderID: String?
    /// `BundleID`: the sending app.
    public var bundleID: String?
    /// `Files`.
    public var files: [File]

    /// An ask.
    public init(senderName: String, senderModel: String? = nil, senderID: String? = nil, bundleID: String? = nil, files: [File]) {
        self.senderName = senderName
        self.senderModel = senderModel
        self.senderID = senderID
        self.bundleID = bundleID
        self.files = files
    }

    /// The ask in `bytes`; an error naming the first thing wrong. A share of links (`Items`
    /// without `Files`) is refused: only files are taken.
    public static func decode(_ bytes: [UInt8]) throws(NearbyError) -> AirDropAsk {
        let d = try AirDropPlist.dictionary(bytes, what: "an Ask")
        guard case .string(let name)? = d["SenderComputerName"] else { throw .protocolViolation("Ask without SenderComputerName") }
        guard case .array(let list)? = d["Files"] else {
            throw .protocolViolation(d["Items"] != nil ? "Ask for links (Items): only files are taken" : "Ask without Files")
        }
        guard !list.isEmpty, list.count <= SessionMessage.maximumItems else {
            throw .protocolViolation("Ask with \(list.count) files (1 to \(SessionMessage.maximumItems))")
        }
        var files: [File] = []
        for (index, entry) in list.enumerated() {
            guard case .dictionary(let f) = entry, case .string(let fileName)? = f["FileName"] else {
                throw .protocolViolation("Files[\(index)] has no FileName")
            }
            var type: String?
            if case .string(let t)? = f["FileType"] { type = NetworkText.identifier(t) }
            var directory = false
            switch f["FileIsDirectory"] {
            case .bool(let b)?: directory = b
            case .integer(let n)?: directory = n != 0
            default: break
            }
            files.append(File(name: fileName, type: type, isDirectory: directory))
        }
        return AirDropAsk(senderName: NetworkText.name(name), senderModel: AirDropPlist.string(d["SenderModelName"]).map(NetworkText.name),
                          senderID: AirDropPlist.string(d["SenderID"]).map(NetworkText.identifier),
                          bundleID: AirDropPlist.string(d["BundleID"]).map(NetworkText.identifier), files: files)
    }

    /// The ask as a binary property list, as OpenDrop writes one (each file's BOM path `./NAME`).
    public func encoded() -> [UInt8] {
        var d: OrderedDictionary<String, PropertyList> = ["SenderComputerName": .string(senderName)]
        if let bundleID { d["BundleID"] = .string(bundleID) }
        if let senderModel { d["SenderModelName"] = .string(senderModel) }
        if let senderID { d["SenderID"] = .string(senderID) }
        d["ConvertMediaFormats"] = .bool(false)
        d["Files"] = .array(files.map { file in
            var f: OrderedDictionary<String, PropertyList> = ["FileName": .string(file.name)]
            if let type = file.type { f["FileType"] = .string(type) }
            f["FileBomPath"] = .string("./" + file.name)
            f["FileIsDirectory"] = .bool(file.isDirectory)
            f["ConvertMediaFormats"] = .integer(0)
            return .dictionary(f)
        })
        return BinaryPropertyListWriter().write(.dictionary(d))
    }
}

/// The receiver's side of `Discover` and `Ask`: its name and model.
public struct AirDropReceiverInfo: Sendable, Equatable {
    /// `ReceiverComputerName`.
    public var name: String
    /// `ReceiverModelName`.
    public var model: String

    /// A description.
    public init(name: String, model: String) {
        self.name = name
        self.model = model
    }

    /// The reply to `Discover`: name, model and media capabilities that ask for nothing newer than
    /// the sender has (legacy formats: JPEG, not HEIF).
    public var discoverReply: [UInt8] {
        BinaryPropertyListWriter().write(.dictionary(["ReceiverComputerName": .string(name), "ReceiverModelName": .string(model),
                                                      "ReceiverMediaCapabilities": .data(Array(#"{"Version":1}"#.utf8))]))
    }

    /// The reply to an accepted `Ask`.
    public var askReply: [UInt8] {
        BinaryPropertyListWriter().write(.dictionary(["ReceiverComputerName": .string(name), "ReceiverModelName": .string(model)]))
    }

    /// The receiver in a `Discover` reply (`nil` name: not discoverable to this sender).
    public static func decode(_ bytes: [UInt8]) throws(NearbyError) -> AirDropReceiverInfo? {
        let d = try AirDropPlist.dictionary(bytes, what: "a Discover reply")
        guard let name = AirDropPlist.string(d["ReceiverComputerName"]) else { return nil }
        return AirDropReceiverInfo(name: NetworkText.name(name), model: NetworkText.name(AirDropPlist.string(d["ReceiverModelName"]) ?? ""))
    }
}

/// Reading AirDrop's binary property lists with bounds.
enum AirDropPlist {
    /// The largest body read (an Ask may carry a JPEG icon).
    static let maximumBody = 4 << 20

    static func dictionary(_ bytes: [UInt8], what: String) throws(NearbyError) -> OrderedDictionary<String, PropertyList> {
        guard bytes.count <= maximumBody else { throw .protocolViolation("\(what) of \(bytes.count) bytes (at most \(maximumBody))") }
        // An empty body is an empty dictionary (OpenDrop's Discover without a record).
        guard !bytes.isEmpty else { return [:] }
        var options = PropertyListReadOptions()
        options.maximumDepth = 8
        options.maximumExpandedNodes = 16 * SessionMessage.maximumItems
        let value: PropertyList
        do { value = try PropertyListReader.value(ofBinary: bytes, options: options) } catch {
            throw .protocolViolation("\(what) that is not a binary property list (\(error))")
        }
        guard case .dictionary(let d) = value else { throw .protocolViolation("\(what) that is not a dictionary") }
        return d
    }

    /// An empty dictionary: OpenDrop's `Discover` body without a record.
    static var empty: [UInt8] { BinaryPropertyListWriter().write(.dictionary([:])) }

    static func string(_ value: PropertyList?) -> String? {
        if case .string(let s)? = value { return s }
        return nil
    }
}
