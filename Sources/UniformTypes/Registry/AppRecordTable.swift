import Hashing
import SystemCalls

/// One registered app as the registry keeps it for the handler chooser.
public struct AppRecordInput: Sendable {
    /// The app's bundle identifier (the registration name when the plist's is missing or an
    /// unresolved build variable).
    public var identifier: String
    /// A binary property list of the Info.plist keys the chooser reads.
    public var record: [UInt8]
    /// The types its `CFBundleDocumentTypes` entries name in `LSItemContentTypes`.
    public var claimedTypes: [String]
    /// Whether the chooser must read it for every document: it has entries with legacy
    /// extension/MIME claims, or share extensions.
    public var alwaysConsidered: Bool
    /// The URL schemes it handles, normalized (lowercase), for the index of schemes.
    public var urlSchemes: [String]

    /// Creates a record.
    public init(identifier: String, record: [UInt8], claimedTypes: [String], alwaysConsidered: Bool, urlSchemes: [String] = []) {
        self.identifier = identifier
        self.record = record
        self.claimedTypes = claimedTypes
        self.alwaysConsidered = alwaysConsidered
        self.urlSchemes = urlSchemes
    }
}

/// The registry's app section: records, which apps claim which types, and which apps handle
/// which URL schemes, so a query reads only the apps that can matter for its document or URL
/// instead of every registered app.
///
/// Layout (little-endian 32-bit words, offsets from the section start):
/// ```
/// appCount, typeCount, alwaysCount, unregisteredCount, schemeCount
/// per app: record offset, record length, identifier offset, identifier length
/// byType offsets [typeCount + 1], then the app indices they delimit
/// always [alwaysCount]
/// unregistered claims [unregisteredCount]: (FNV-1a hash of the normalized identifier, app)
/// scheme claims [schemeCount]: (FNV-1a hash of the lowercased scheme, app, scheme offset, length),
///                              sorted by hash then app
/// record, identifier and scheme bytes
/// ```
/// A scheme lookup is a binary search on the hashes and a byte comparison of the candidates: no
/// record is decoded (`canOpenURL` among 1,000 apps in well under a microsecond).
enum AppRecordTable {
    static func hash(_ identifier: String) -> UInt32 {
        FNV1a32.hash(TypeIdentifierSyntax.normalized(identifier))
    }

    /// The scheme's hash: FNV-1a over its bytes with ASCII letters lowercased (schemes compare
    /// ignoring case, RFC 3986 3.1; only ASCII letters can be in a valid scheme).
    static func schemeHash<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var h = FNV1a32.offsetBasis
        for b in bytes { h = FNV1a32.step(h, b >= 0x41 && b <= 0x5A ? b | 0x20 : b) }
        return h
    }

    static func encode(_ apps: [AppRecordInput], typeCount: Int, number: (String) -> Int?) -> [UInt8] {
        var byType = [[UInt32]](repeating: [], count: typeCount)
        var always: [UInt32] = [], unregistered: [(UInt32, UInt32)] = []
        for (i, app) in apps.enumerated() {
            if app.alwaysConsidered { always.append(UInt32(i)) }
            var seen: Set<String> = []
            for type in app.claimedTypes where seen.insert(TypeIdentifierSyntax.normalized(type)).inserted {
                if let n = number(type), n < typeCount { byType[n].append(UInt32(i)) } else { unregistered.append((hash(type), UInt32(i))) }
            }
        }
        unregistered.sort { $0 < $1 }
        var schemes: [(hash: UInt32, app: UInt32, scheme: String)] = []
        for (i, app) in apps.enumerated() {
            var seen: Set<String> = []
            for scheme in app.urlSchemes where seen.insert(scheme.lowercased()).inserted {
                schemes.append((schemeHash(scheme.utf8), UInt32(i), scheme.lowercased()))
            }
        }
        schemes.sort { ($0.hash, $0.app) < ($1.hash, $1.app) }
        var words: [UInt32] = [UInt32(apps.count), UInt32(typeCount), UInt32(always.count), UInt32(unregistered.count), UInt32(schemes.count)]
        let tableStart = words.count
        words += [UInt32](repeating: 0, count: apps.count * 4)
        var running: UInt32 = 0
        for list in byType { words.append(running); running += UInt32(list.count) }
        words.append(running)
        for list in byType { words += list }
        words += always
        for (h, a) in unregistered { words += [h, a] }
        let schemeStart = words.count
        for (h, a, _) in schemes { words += [h, a, 0, 0] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(words.count * 4)
        for w in words { withUnsafeBytes(of: w.littleEndian) { bytes += $0 } }
        func put(_ value: Int, word: Int) {
            withUnsafeBytes(of: UInt32(value).littleEndian) { for (k, b) in $0.enumerated() { bytes[word * 4 + k] = b } }
        }
        for (i, app) in apps.enumerated() {
            put(bytes.count, word: tableStart + 4 * i)
            put(app.record.count, word: tableStart + 4 * i + 1)
            bytes += app.record
            put(bytes.count, word: tableStart + 4 * i + 2)
            put(app.identifier.utf8.count, word: tableStart + 4 * i + 3)
            bytes += app.identifier.utf8
        }
        for (k, entry) in schemes.enumerated() {
            put(bytes.count, word: schemeStart + 4 * k + 2)
            put(entry.scheme.utf8.count, word: schemeStart + 4 * k + 3)
            bytes += entry.scheme.utf8
        }
        return bytes
    }
}

/// Reading the app section. Every read is bounds-checked: a damaged section gives no apps, never a
/// bad memory access.
extension TypeRegistry {
    private func appWord(_ index: Int) -> Int? {
        let section = appRecordsBuffer
        guard index >= 0, (index + 1) * 4 <= section.count else { return nil }
        return Int(UInt32(littleEndian: section.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)))
    }

    private func appBytes(offset: Int, length: Int) -> UnsafeRawBufferPointer? {
        let section = appRecordsBuffer
        guard offset >= 0, length >= 0, offset <= section.count, length <= section.count - offset else { return nil }
        return UnsafeRawBufferPointer(rebasing: section[offset..<(offset + length)])
    }

    /// How many apps the registry has records for.
    public var appRecordCount: Int { appWord(0) ?? 0 }

    /// App `index`'s record: a binary property list of the Info.plist keys the chooser reads.
    public func appRecord(_ index: Int) -> [UInt8]? {
        guard index >= 0, index < appRecordCount, let offset = appWord(5 + 4 * index), let length = appWord(6 + 4 * index),
              let bytes = appBytes(offset: offset, length: length) else { return nil }
        return Array(bytes)
    }

    /// App `index`'s bundle identifier.
    public func appIdentifier(_ index: Int) -> String? {
        guard index >= 0, index < appRecordCount, let offset = appWord(7 + 4 * index), let length = appWord(8 + 4 * index),
              let bytes = appBytes(offset: offset, length: length) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    private var byTypeStart: Int { 5 + 4 * appRecordCount }

    /// The apps whose document types name type `id` in `LSItemContentTypes`.
    public func apps(claiming id: TypeID) -> [Int] {
        guard let typeCount = appWord(1), id >= 0, Int(id) < typeCount,
              let start = appWord(byTypeStart + Int(id)), let end = appWord(byTypeStart + Int(id) + 1), start <= end else { return [] }
        let listStart = byTypeStart + typeCount + 1
        return (start..<end).compactMap { appWord(listStart + $0) }
    }

    /// The apps that must be read for every document (legacy claims, share extensions).
    public var appsAlwaysConsidered: [Int] {
        guard let typeCount = appWord(1), let always = appWord(2), let total = appWord(byTypeStart + typeCount) else { return [] }
        let start = byTypeStart + typeCount + 1 + total
        return (0..<always).compactMap { appWord(start + $0) }
    }

    /// The apps that claim `identifier` when the registry has no number for it (a dynamic type).
    public func apps(claimingUnregistered identifier: String) -> [Int] {
        guard let typeCount = appWord(1), let always = appWord(2), let count = appWord(3),
              let total = appWord(byTypeStart + typeCount) else { return [] }
        let start = byTypeStart + typeCount + 1 + total + always
        let h = AppRecordTable.hash(identifier)
        var result: [Int] = []
        for k in 0..<count where appWord(start + 2 * k).map(UInt32.init) == h {
            if let app = appWord(start + 2 * k + 1) { result.append(app) }
        }
        return result
    }

    /// Where the scheme claims start, and how many there are.
    private var schemeClaims: (start: Int, count: Int)? {
        guard let typeCount = appWord(1), let always = appWord(2), let unregistered = appWord(3), let count = appWord(4),
              let total = appWord(byTypeStart + typeCount) else { return nil }
        return (byTypeStart + typeCount + 1 + total + always + 2 * unregistered, count)
    }

    /// Calls `body` with each app that handles `scheme` (compared ignoring ASCII case), in app
    /// order, until it returns `false`.
    private func forEachApp(handlingScheme scheme: UnsafeRawBufferPointer, _ body: (Int) -> Bool) {
        guard let (start, count) = schemeClaims, count > 0 else { return }
        let h = AppRecordTable.schemeHash(scheme)
        // The first claim whose hash is not below h.
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            guard let value = appWord(start + 4 * mid) else { return }
            if UInt32(value) < h { low = mid + 1 } else { high = mid }
        }
        var k = low
        while k < count, let value = appWord(start + 4 * k), UInt32(value) == h {
            defer { k += 1 }
            guard let app = appWord(start + 4 * k + 1), let offset = appWord(start + 4 * k + 2), let length = appWord(start + 4 * k + 3),
                  length == scheme.count, let stored = appBytes(offset: offset, length: length) else { continue }
            var same = true
            for i in 0..<length {
                let b = scheme[i]
                if (b >= 0x41 && b <= 0x5A ? b | 0x20 : b) != stored[i] { same = false; break }
            }
            if same && !body(app) { return }
        }
    }

    /// The apps that handle the URL scheme `scheme` (ignoring case), in app order.
    public func apps(handlingScheme scheme: String) -> [Int] {
        var result: [Int] = []
        var scheme = scheme
        scheme.withUTF8 { bytes in forEachApp(handlingScheme: UnsafeRawBufferPointer(bytes)) { result.append($0); return true } }
        return result
    }

    /// Whether any app handles the URL scheme `scheme` (ignoring case): the index alone, no
    /// record decoded, nothing allocated for a scheme that is already contiguous UTF-8.
    public func hasApp(handlingScheme scheme: String) -> Bool {
        var found = false
        var scheme = scheme
        scheme.withUTF8 { bytes in forEachApp(handlingScheme: UnsafeRawBufferPointer(bytes)) { _ in found = true; return false } }
        return found
    }

    /// Every scheme some app handles, lowercased, each once, sorted.
    public var handledSchemes: [String] {
        guard let (start, count) = schemeClaims else { return [] }
        var result = Set<String>()
        for k in 0..<count {
            guard let offset = appWord(start + 4 * k + 2), let length = appWord(start + 4 * k + 3),
                  let bytes = appBytes(offset: offset, length: length) else { continue }
            result.insert(String(decoding: bytes, as: UTF8.self))
        }
        return result.sorted()
    }
}
