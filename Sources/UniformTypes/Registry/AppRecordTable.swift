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

    /// Creates a record.
    public init(identifier: String, record: [UInt8], claimedTypes: [String], alwaysConsidered: Bool) {
        self.identifier = identifier
        self.record = record
        self.claimedTypes = claimedTypes
        self.alwaysConsidered = alwaysConsidered
    }
}

/// The registry's app section: records, and which apps claim which types, so a query reads only
/// the apps that can matter for its document instead of every registered app.
///
/// Layout (little-endian 32-bit words, offsets from the section start):
/// ```
/// appCount, typeCount, alwaysCount, unregisteredCount
/// per app: record offset, record length, identifier offset, identifier length
/// byType offsets [typeCount + 1], then the app indices they delimit
/// always [alwaysCount]
/// unregistered claims [unregisteredCount]: (FNV-1a hash of the normalized identifier, app)
/// record and identifier bytes
/// ```
enum AppRecordTable {
    static func hash(_ identifier: String) -> UInt32 {
        var h: UInt32 = 2_166_136_261
        for b in TypeIdentifierSyntax.normalized(identifier).utf8 { h = (h ^ UInt32(b)) &* 16_777_619 }
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
        var words: [UInt32] = [UInt32(apps.count), UInt32(typeCount), UInt32(always.count), UInt32(unregistered.count)]
        let tableStart = words.count
        words += [UInt32](repeating: 0, count: apps.count * 4)
        var running: UInt32 = 0
        for list in byType { words.append(running); running += UInt32(list.count) }
        words.append(running)
        for list in byType { words += list }
        words += always
        for (h, a) in unregistered { words += [h, a] }
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
        guard index >= 0, index < appRecordCount, let offset = appWord(4 + 4 * index), let length = appWord(5 + 4 * index),
              let bytes = appBytes(offset: offset, length: length) else { return nil }
        return Array(bytes)
    }

    /// App `index`'s bundle identifier.
    public func appIdentifier(_ index: Int) -> String? {
        guard index >= 0, index < appRecordCount, let offset = appWord(6 + 4 * index), let length = appWord(7 + 4 * index),
              let bytes = appBytes(offset: offset, length: length) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    private var byTypeStart: Int { 4 + 4 * appRecordCount }

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
}
