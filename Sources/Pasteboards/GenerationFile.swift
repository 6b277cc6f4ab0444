import OrderedCollections
import PropertyLists
import SystemCalls

/// Where one representation's bytes are in a generation file.
struct StoredRepresentation: Sendable, Hashable {
    var type: String
    /// Offset from the start of the data area.
    var offset: Int64
    var length: Int64
}

/// A process that keeps a creator-lifetime pasteboard alive: its identity and the boot it ran in
/// (a process id and start time can repeat after a reboot).
struct ProcessRecord: Sendable, Hashable {
    var process: ProcessIdentity
    var boot: String

    /// Whether the process is still running in this boot.
    var isRunning: Bool { boot == BootIdentity.current && process.isRunning }
}

/// The identity of this boot (`/proc/sys/kernel/random/boot_id`).
enum BootIdentity {
    static let current: String = {
        guard let bytes = try? FileSystem.read("/proc/sys/kernel/random/boot_id") else { return "" }
        return String(decoding: bytes.filter { $0 != 0x0A }, as: UTF8.self)
    }()
}

/// One complete state of a pasteboard, as one file: written whole under a temporary name, flushed,
/// then renamed over `content`. A reader opens `content` once and sees one generation, old or new,
/// never a mix; a writer killed at any point leaves only a temporary file, removed by the next writer.
///
/// ```
/// 0    8  "DIPBRD01"
/// 8    8  M, the metadata's length (little-endian)
/// 16   M  metadata: a binary property list (below)
/// 16+M    the data area: each representation's bytes, where the metadata says
/// ```
/// Metadata keys: `name`, `changeCount`, `removed`, `written` (seconds since 1970), `localOnly`,
/// `expires`, `lifetime` (`persistent`/`creator`), `owner` (`bundle`, `team`, `group`),
/// `processes` (`pid`, `start`, `boot`), `items` (an array per item of `type`, `offset`, `length`).
struct Generation: Sendable {
    var name: PasteboardName
    var changeCount: Int64 = 0
    var removed = false
    var written: Double = 0
    var options = PasteboardWriteOptions()
    var lifetime = PasteboardLifetime.persistent
    var owner = PasteboardOwner()
    var processes: [ProcessRecord] = []
    var items: [[StoredRepresentation]] = []

    static let magic: [UInt8] = Array("DIPBRD01".utf8)
    static let headerSize = 16
    /// The longest metadata a reader accepts (a hostile length must not make it allocate).
    static let maximumMetadata = 16 << 20

    /// Whether the pasteboard reads as absent: removed, or every process that kept a
    /// creator-lifetime pasteboard alive has ended.
    var isGone: Bool {
        removed || (lifetime == .creatorProcesses && !processes.contains { $0.isRunning })
    }

    // MARK: Writing

    /// The header and metadata, to be followed by the data area.
    func header() -> [UInt8] {
        var meta = OrderedDictionary<String, PropertyList>()
        meta["name"] = .string(name.rawValue)
        meta["changeCount"] = .integer(changeCount)
        if removed { meta["removed"] = .bool(true) }
        meta["written"] = .real(written)
        if options.localOnly { meta["localOnly"] = .bool(true) }
        if let expires = options.expirationDate { meta["expires"] = .real(expires) }
        meta["lifetime"] = .string(lifetime.rawValue)
        var ownerFields = OrderedDictionary<String, PropertyList>()
        if let bundle = owner.bundleIdentifier { ownerFields["bundle"] = .string(bundle) }
        if let team = owner.teamIdentifier { ownerFields["team"] = .string(team) }
        if let group = owner.appGroup { ownerFields["group"] = .string(group) }
        meta["owner"] = .dictionary(ownerFields)
        meta["processes"] = .array(processes.map {
            .dictionary(["pid": .integer(Int64($0.process.id)), "start": .integer($0.process.start), "boot": .string($0.boot)])
        })
        meta["items"] = .array(items.map { item in
            .array(item.map { .dictionary(["type": .string($0.type), "offset": .integer($0.offset), "length": .integer($0.length)]) })
        })
        let plist = BinaryPropertyListWriter().write(.dictionary(meta))
        var out = Self.magic
        withUnsafeBytes(of: UInt64(plist.count).littleEndian) { out += $0 }
        return out + plist
    }

    // MARK: Reading

    /// Reads a generation from the bytes of a file at `path` (for messages), checking every offset
    /// against the file's size.
    static func decode(_ bytes: UnsafeRawBufferPointer, path: String) throws(PasteboardError) -> Generation {
        func damaged(_ reason: String, at offset: Int? = nil, key: String? = nil) -> PasteboardError {
            .damaged(path: path, offset: offset, keyPath: key, reason: reason)
        }
        guard bytes.count >= headerSize else { throw damaged("\(bytes.count) bytes is shorter than the 16-byte header", at: 0) }
        guard bytes.prefix(8).elementsEqual(magic) else { throw damaged("not a pasteboard generation (no DIPBRD01 signature)", at: 0) }
        let length = bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian
        guard length <= UInt64(min(maximumMetadata, bytes.count - headerSize)) else {
            throw damaged("metadata length \(length) runs past the end of the \(bytes.count)-byte file", at: 8)
        }
        let metaEnd = headerSize + Int(length)
        let meta: PropertyList
        do {
            meta = try PropertyListReader.value(ofBinary: Array(bytes[headerSize..<metaEnd]))
        } catch {
            throw damaged("metadata: \(error.message)", at: headerSize)
        }
        let dataSize = Int64(bytes.count - metaEnd)
        guard case .dictionary = meta else { throw damaged("metadata is \(meta.typeNameWithArticle), not a dictionary", at: headerSize) }
        guard let name = meta["name"]?.stringValue else { throw damaged("no name string", key: "name") }
        var generation = Generation(name: PasteboardName(name))
        guard case .integer(let count)? = meta["changeCount"], count >= 0 else { throw damaged("no change count", key: "changeCount") }
        generation.changeCount = count
        generation.removed = meta["removed"]?.boolValue ?? false
        if case .real(let written)? = meta["written"] { generation.written = written }
        generation.options.localOnly = meta["localOnly"]?.boolValue ?? false
        if case .real(let expires)? = meta["expires"] { generation.options.expirationDate = expires }
        generation.lifetime = meta["lifetime"]?.stringValue.flatMap(PasteboardLifetime.init(rawValue:)) ?? .persistent
        if let owner = meta["owner"] {
            generation.owner = PasteboardOwner(bundleIdentifier: owner["bundle"]?.stringValue, teamIdentifier: owner["team"]?.stringValue,
                                               appGroup: owner["group"]?.stringValue)
        }
        if case .array(let records)? = meta["processes"] {
            for (index, record) in records.enumerated() {
                guard case .integer(let pid)? = record["pid"], case .integer(let start)? = record["start"],
                      let boot = record["boot"]?.stringValue, let id = Int32(exactly: pid) else {
                    throw damaged("a process record needs pid, start and boot", key: "processes[\(index)]")
                }
                generation.processes.append(ProcessRecord(process: ProcessIdentity(id: id, start: start), boot: boot))
            }
        }
        guard case .array(let items)? = meta["items"] else { throw damaged("no item array", key: "items") }
        for (i, item) in items.enumerated() {
            guard case .array(let representations) = item else { throw damaged("an item is an array of representations", key: "items[\(i)]") }
            var stored: [StoredRepresentation] = []
            for (r, representation) in representations.enumerated() {
                let key = "items[\(i)][\(r)]"
                guard let type = representation["type"]?.stringValue, !type.isEmpty,
                      case .integer(let offset)? = representation["offset"], case .integer(let length)? = representation["length"] else {
                    throw damaged("a representation needs type, offset and length", key: key)
                }
                guard offset >= 0, length >= 0, offset <= dataSize, length <= dataSize - offset else {
                    throw damaged("bytes \(offset)..<\(offset &+ length) are outside the \(dataSize)-byte data area", key: key)
                }
                stored.append(StoredRepresentation(type: type, offset: offset, length: length))
            }
            generation.items.append(stored)
        }
        return generation
    }
}
