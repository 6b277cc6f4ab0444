import Hashing
import PropertyLists
import SystemCalls

/// Every known type with its conformance graph and tag indexes, answered from a compiled image
/// (see `RegistryImageLayout`): built in memory from declarations, or mapped from a registry
/// file without re-reading any plist.
///
/// Identifiers are interned to dense numbers; each type's transitive supertypes are stored sorted
/// (a conformance test is a binary search among a handful of numbers); identifier and tag lookups
/// are open-addressing hash tables. Precedence between declarations is documented on
/// `RegistryCompiler`: system over exported over imported, ties to the source that sorts first.
public final class TypeRegistry: Sendable {
    /// A dense type number.
    public typealias TypeID = Int32
    typealias Layout = RegistryImageLayout

    private let image: RegistryImageStorage
    private let poolOffset: Int
    private let poolCount: Int
    private var base: UnsafeRawPointer { image.base }
    /// Section offsets and counts, unpacked into stored properties: reading them from an array
    /// cost a bounds check and a retain on every access of the hot paths.
    private let sections: SectionTable
    /// How many types (declared, and parents nothing declares).
    public let typeCount: Int
    /// The address of the closure rows, kept as an integer (a pointer is not `Sendable`) so the
    /// inlined conformance test reaches them without going through the image storage.
    @usableFromInline let closureRowsAddress: Int
    /// The number of `public.data`, the default constraint of extension and MIME lookups.
    public let publicData: TypeID?

    /// Compiles declarations (from the catalog and apps, in any order) into a registry.
    /// With a shared MIME database, its types are declared too and its globs and magic kept for
    /// content typing (``SharedMIMEImport``).
    public convenience init(declarations: [TypeDeclaration], mimeAliases: MIMEAliases = .init(), mimeDatabase: SharedMIMEDatabase? = nil,
                            fingerprint: [UInt8] = [], apps: [AppRecordInput] = []) {
        let bytes = RegistryImageWriter.image(of: RegistryCompiler(declarations: declarations, mimeAliases: mimeAliases, mimeDatabase: mimeDatabase),
                                              fingerprint: fingerprint, apps: apps)
        try! self.init(image: RegistryImageStorage(copying: bytes))
    }

    /// The image bytes of a registry built from `declarations`, for writing to a registry file.
    public static func compiledImage(declarations: [TypeDeclaration], mimeAliases: MIMEAliases = .init(), mimeDatabase: SharedMIMEDatabase? = nil,
                                     fingerprint: [UInt8], apps: [AppRecordInput] = []) -> [UInt8] {
        RegistryImageWriter.image(of: RegistryCompiler(declarations: declarations, mimeAliases: mimeAliases, mimeDatabase: mimeDatabase),
                                  fingerprint: fingerprint, apps: apps)
    }

    /// Opens an image made by ``compiledImage(declarations:mimeAliases:fingerprint:apps:)``.
    /// - Throws: ``RegistryFileError`` when the bytes are not a valid image.
    public convenience init(compiledImage bytes: [UInt8]) throws(RegistryFileError) {
        try self.init(image: RegistryImageStorage(copying: bytes))
    }

    /// Maps a registry file.
    ///
    /// The checksum is checked the first time a file is opened, and again whenever its size or
    /// modification time changed since: a file found right is marked so (an extended attribute
    /// recording both; docs/types.md).
    /// - Throws: ``RegistryFileError`` when the file is missing, truncated, from another format
    ///   version, damaged (checksum) or inconsistent; such a file must be rebuilt, never trusted.
    public convenience init(mapping path: String) throws(RegistryFileError) {
        let storage = try RegistryImageStorage(mapping: path)
        let marked = storage.isMarkedChecked
        try self.init(image: storage, checksum: !marked)
        if !marked { storage.markChecked(now: Clock.system.now()) }
    }

    init(image: RegistryImageStorage, checksum: Bool = true) throws(RegistryFileError) {
        self.image = image
        let size = image.count
        func u32(_ at: Int) -> Int { Int(UInt32(littleEndian: image.base.loadUnaligned(fromByteOffset: at, as: UInt32.self))) }
        guard size >= Layout.headerSize else { throw .truncated(size) }
        guard (0..<8).allSatisfy({ image.base.load(fromByteOffset: $0, as: UInt8.self) == Layout.magic[$0] }) else { throw .notARegistry }
        guard u32(8) == Layout.formatVersion, u32(140) == Layout.recordWords, u32(144) == Layout.Section.allCases.count else {
            throw .otherVersion(UInt32(u32(8)))
        }
        let total = UInt64(littleEndian: image.base.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
        guard total == UInt64(size) else { throw .truncated(size) }
        let stored = UInt64(littleEndian: image.base.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
        let body = UnsafeRawBufferPointer(start: image.base + Layout.headerSize, count: size - Layout.headerSize)
        guard !checksum || Layout.checksum(body) == stored else { throw .damaged("checksum mismatch") }
        // Validated and unpacked without an intermediate array: each distinct array type a query
        // process creates costs a run-time metadata lookup.
        let sectionCount = u32(144)
        var index = 0
        while index < sectionCount {
            guard let section = Layout.Section(rawValue: index) else { throw .otherVersion(UInt32(u32(8))) }
            let offset = u32(32 + 8 * index), count = u32(36 + 8 * index)
            if section != .diagnostics {
                guard offset >= Layout.headerSize, offset % 4 == 0, count * section.elementSize <= size - offset else {
                    throw .damaged("section \(section) lies outside the file")
                }
            }
            index += 1
        }
        let sections = SectionTable { i in (u32(32 + 8 * i), u32(36 + 8 * i)) }
        self.sections = sections
        typeCount = u32(12)
        guard typeCount == sections.types.count, typeCount == sections.closureRows.count else { throw .damaged("type count disagrees") }
        poolOffset = sections.pool.offset
        poolCount = sections.pool.count
        let data = u32(136)
        publicData = data > 0 && data <= typeCount ? TypeID(data - 1) : nil
        closureRowsAddress = Int(bitPattern: image.base + sections.closureRows.offset)
        func checkTable(_ name: String, _ capacity: Int) throws(RegistryFileError) {
            guard capacity > 0, capacity & (capacity - 1) == 0 else { throw .damaged("\(name) hash table has size \(capacity)") }
        }
        try checkTable("identifier", sections.identifierTable.count)
        try checkTable("extension", sections.extensionTable.count)
        try checkTable("MIME", sections.mimeTable.count)
        try checkTable("OSType", sections.osTypeTable.count)
        try checkTable("pasteboard", sections.pasteboardTable.count)

    }

    // MARK: Raw reads
    //
    // Every read is bounds-checked against its section, so even a file damaged behind a valid
    // checksum can only give wrong answers, never a bad memory access; the checksum catches
    // accidental damage. (Validating every reference up front cost more than the query itself.)

    @inline(__always)
    private func section(_ s: Layout.Section) -> (offset: Int, count: Int) { sections[s] }
    private func word(_ s: Layout.Section, _ index: Int) -> UInt32 {
        let (offset, count) = section(s)
        guard index >= 0, index < count else { return 0 }
        return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset + 4 * index, as: UInt32.self))
    }
    private func record(_ id: TypeID, _ field: Layout.RecordWord) -> Int {
        guard id >= 0, Int(id) < typeCount else { return 0 }
        return Int(UInt32(littleEndian: base.loadUnaligned(
            fromByteOffset: section(.types).offset + (Int(id) * Layout.recordWords + field.rawValue) * 4, as: UInt32.self)))
    }
    private func pool(_ index: Int) -> Int { Int(word(.pool, index)) }
    /// Slot `index` of a hash table: the key's hash and the value + 1 (0: empty).
    @inline(__always)
    private func slot(_ s: Layout.Section, _ index: Int) -> (hash: UInt32, value: Int) {
        let (offset, count) = section(s)
        guard index >= 0, index < count else { return (0, 0) }
        let pair = base.loadUnaligned(fromByteOffset: offset + 8 * index, as: UInt64.self)
        return (UInt32(truncatingIfNeeded: UInt64(littleEndian: pair)), Int(UInt32(truncatingIfNeeded: UInt64(littleEndian: pair) >> 32)))
    }
    /// A type number read from the pool, or `nil` when it is out of range.
    private func poolType(_ index: Int) -> TypeID? {
        let v = pool(index)
        return v < typeCount ? TypeID(v) : nil
    }
    private func bytes(offset: Int, length: Int) -> UnsafeRawBufferPointer {
        let strings = section(.strings)
        guard offset >= 0, length >= 0, offset <= strings.count, length <= strings.count - offset else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return UnsafeRawBufferPointer(start: base + strings.offset + offset, count: length)
    }
    private func string(offset: Int, length: Int) -> String? {
        offset == Int(Layout.none) ? nil : String(decoding: bytes(offset: offset, length: length), as: UTF8.self)
    }
    /// A count read from the image, capped by what the pool could hold.
    private func count(_ value: Int) -> Int { min(value, section(.pool).count) }

    // MARK: Queries

    /// The fingerprint the image was built with (what sources it reflects).
    public var fingerprint: [UInt8] {
        let f = section(.fingerprint)
        return Array(UnsafeRawBufferPointer(start: base + f.offset, count: f.count))
    }

    /// The app section (``AppRecordTable``).
    var appRecordsBuffer: UnsafeRawBufferPointer {
        let f = section(.appRecords)
        return UnsafeRawBufferPointer(start: base + f.offset, count: f.count)
    }

    /// The content-typing section (globs and magic), when the registry was built with a shared
    /// MIME database.
    var contentTyping: ContentTypingTable? {
        let f = section(.contentTyping)
        return ContentTypingTable(UnsafeRawBufferPointer(start: base + f.offset, count: f.count))
    }

    /// The number of `identifier` (compared ignoring ASCII case), if the registry knows it.
    public func number(of identifier: String) -> TypeID? {
        let key = TypeIdentifierSyntax.normalized(identifier)
        let capacity = section(.identifierTable).count
        let mask = capacity - 1
        let hash = Layout.hash(key.utf8)
        var index = Int(hash) & mask
        for _ in 0..<capacity {
            let (slotHash, v) = slot(.identifierTable, index)
            if v == 0 { return nil }
            if slotHash == hash, v <= typeCount {
                let id = TypeID(v - 1)
                if bytes(offset: record(id, .normalized0), length: record(id, .normalized1)).elementsEqual(key.utf8) { return id }
            }
            index = (index + 1) & mask
        }
        return nil
    }

    /// The identifier of a type, as declared.
    public func identifier(of id: TypeID) -> String { string(offset: record(id, .identifier0), length: record(id, .identifier1)) ?? "" }

    /// Whether a declaration defines the type (parents nothing declares have numbers too).
    public func isDeclared(_ id: TypeID) -> Bool { record(id, .flags) & 1 == 1 }

    /// Direct parents, in declared order.
    public func parents(of id: TypeID) -> [TypeID] {
        (0..<count(record(id, .parentsCount))).compactMap { poolType(record(id, .parentsStart) + $0) }
    }

    /// All supertypes, sorted by number, without the type itself.
    public func supertypes(of id: TypeID) -> [TypeID] {
        (0..<count(record(id, .ancestorsCount))).compactMap { poolType(record(id, .ancestorsStart) + $0) }
    }

    /// Whether type `a` conforms to type `b` (reflexive and transitive).
    ///
    /// The hot path of every query: one range check, then a scan of the sorted supertypes.
    /// Inlinable, so a caller's loop does not pay a call per test.
    @inlinable
    public func conforms(_ a: TypeID, to b: TypeID) -> Bool {
        if a == b { return true }
        guard a >= 0, Int(a) < typeCount else { return false }
        let row = UnsafeRawPointer(bitPattern: closureRowsAddress + 32 * Int(a))!.assumingMemoryBound(to: UInt32.self)
        let n = Int(UInt32(littleEndian: row[0]))
        if n <= 7 {
            let target = UInt32(truncatingIfNeeded: b).littleEndian
            // Unused slots hold UInt32.max, so all seven can be compared without a count check.
            return row[1] == target || row[2] == target || row[3] == target || row[4] == target
                || row[5] == target || row[6] == target || row[7] == target
        }
        return conformsByList(a, to: b)
    }

    @usableFromInline
    func conformsByList(_ a: TypeID, to b: TypeID) -> Bool {
        let start = record(a, .ancestorsStart), n = record(a, .ancestorsCount)
        guard start <= poolCount, n <= poolCount - start else { return false }
        let list = (base + poolOffset + 4 * start).assumingMemoryBound(to: UInt32.self)
        let target = UInt32(truncatingIfNeeded: b).littleEndian
        if n <= 16 {
            for i in 0..<n where list[i] == target { return true }
            return false
        }
        var low = 0, high = n
        while low < high {
            let mid = (low + high) / 2
            let v = UInt32(littleEndian: list[mid])
            if v == UInt32(b) { return true }
            if v < UInt32(b) { low = mid + 1 } else { high = mid }
        }
        return false
    }

    /// The tags of one class a declared type has, in order, read straight from its record
    /// (``declaration(of:)`` builds the whole declaration: too much for one preferred tag).
    public func tags(of id: TypeID, class tagClass: TagClass) -> [String] {
        guard isDeclared(id), let wanted = tagClass.standardPosition else { return [] }
        var result: [String] = []
        for i in 0..<count(record(id, .tagsCount)) {
            let t = record(id, .tagsStart) + 3 * i
            if pool(t) == wanted { result.append(string(offset: pool(t + 1), length: pool(t + 2)) ?? "") }
        }
        return result
    }

    /// The declaration that won for a type, as stored (without its source key path).
    public func declaration(of id: TypeID) -> TypeDeclaration? {
        guard isDeclared(id) else { return nil }
        var tags: [TagClass: [String]] = [:]
        for i in 0..<count(record(id, .tagsCount)) {
            let t = record(id, .tagsStart) + 3 * i
            guard pool(t) < TagClass.standard.count else { continue }
            tags[TagClass.standard[pool(t)], default: []].append(string(offset: pool(t + 1), length: pool(t + 2)) ?? "")
        }
        let icons = (0..<count(record(id, .iconsCount))).map { string(offset: pool(record(id, .iconsStart) + 2 * $0), length: pool(record(id, .iconsStart) + 2 * $0 + 1)) ?? "" }
        var localized: [String: String] = [:]
        for i in 0..<count(record(id, .localizedCount)) {
            let at = record(id, .localizedStart) + 4 * i
            if let language = string(offset: pool(at), length: pool(at + 1)), let text = string(offset: pool(at + 2), length: pool(at + 3)) {
                localized[language] = text
            }
        }
        var declaration = TypeDeclaration(
            identifier: identifier(of: id), conformsTo: parents(of: id).map(identifier(of:)),
            description: string(offset: record(id, .description0), length: record(id, .description1)),
            referenceURL: string(offset: record(id, .reference0), length: record(id, .reference1)),
            version: string(offset: record(id, .version0), length: record(id, .version1)), iconFiles: icons, tags: tags,
            kind: TypeDeclaration.Kind(rawValue: record(id, .flags) >> 8 & 0xFF) ?? .imported,
            source: string(offset: record(id, .source0), length: record(id, .source1)) ?? "")
        declaration.localizedDescriptions = localized
        declaration.isCoreType = record(id, .flags) & 2 != 0
        return declaration
    }

    /// The description a type declares itself, without inheritance, in the first of `languages`
    /// it has a translation for, else as declared.
    func ownDescription(of id: TypeID, languages: [String] = []) -> String? {
        let base = string(offset: record(id, .description0), length: record(id, .description1))
        guard base != nil, !languages.isEmpty else { return base }
        let start = record(id, .localizedStart)
        var translations: [String: String] = [:]
        for i in 0..<count(record(id, .localizedCount)) {
            let at = start + 4 * i
            if let language = string(offset: pool(at), length: pool(at + 1)), let text = string(offset: pool(at + 2), length: pool(at + 3)) {
                translations[language] = text
            }
        }
        for language in languages { if let text = translations[language] { return text } }
        return base
    }

    /// The declared types claiming `tag`, best first, optionally only those conforming to `constraint`.
    /// A class other than the four standard ones has no index: declarations never keep its tags.
    public func types(tag: String, tagClass: TagClass, conformingTo constraint: TypeID? = nil) -> [TypeID] {
        guard let s = Layout.tagTable(tagClass) else { return [] }
        let key = tagClass.normalized(tag)
        let capacity = section(s).count
        let mask = capacity - 1
        let hash = Layout.hash(key.utf8)
        var index = Int(hash) & mask
        for _ in 0..<capacity {
            let (slotHash, v) = slot(s, index)
            if v == 0 { return [] }
            let entry = v - 1
            if slotHash == hash, bytes(offset: pool(entry), length: pool(entry + 1)).elementsEqual(key.utf8) {
                let candidates = (0..<count(pool(entry + 3))).compactMap { poolType(pool(entry + 2) + $0) }
                guard let constraint else { return candidates }
                return candidates.filter { conforms($0, to: constraint) }
            }
            index = (index + 1) & mask
        }
        return []
    }

    /// The best declared type claiming `tag` (conforming to `constraint`, if given), without
    /// allocating: a short ASCII tag is lower-cased and hashed in one pass into a stack buffer.
    public func firstType(tag: String, tagClass: TagClass, conformingTo constraint: TypeID?) -> TypeID? {
        guard let table = Layout.tagTable(tagClass) else { return nil }
        // The string's own storage, read in place (a `var` copy and `withUTF8` cost a retain and a
        // release per lookup); a bridged or lazy string takes the general path below.
        let fast: TypeID??? = tag.utf8.withContiguousStorageIfAvailable { raw -> TypeID?? in
            guard raw.count <= 64 else { return .none }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer -> TypeID?? in
                let lower = tagClass.isCaseInsensitive
                var hash = FNV1a32.offsetBasis
                for i in 0..<raw.count {
                    var b = raw[i]
                    if b >= 0x80 { return .none }  // non-ASCII: Unicode lower-casing, the slow path
                    if lower, b &- 0x41 < 26 { b &+= 0x20 }
                    buffer[i] = b
                    hash = FNV1a32.step(hash, b)
                }
                guard let entry = tagEntry(UnsafeBufferPointer(rebasing: buffer[..<raw.count]), hash: hash, table) else { return .some(nil) }
                if constraint != nil, constraint == publicData {
                    let best = pool(entry + 4)
                    return .some(best > 0 && best <= typeCount ? TypeID(best - 1) : nil)
                }
                let start = pool(entry + 2)
                for i in 0..<count(pool(entry + 3)) {
                    guard let candidate = poolType(start + i) else { continue }
                    if constraint == nil || conforms(candidate, to: constraint!) { return .some(candidate) }
                }
                return .some(nil)
            }
        }
        if let contiguous = fast, let answer = contiguous { return answer }
        return types(tag: tag, tagClass: tagClass, conformingTo: constraint).first
    }

    /// The pool index of the tag-index entry for a normalised tag and its hash.
    ///
    /// Slots are read straight from the table: opening the image checked that the whole section
    /// lies in the file, and the index is masked to its capacity. Pool words are checked against
    /// the pool's size (the hot path of every extension and MIME lookup).
    @inline(__always)
    private func tagEntry(_ key: UnsafeBufferPointer<UInt8>, hash: UInt32, _ s: Layout.Section) -> Int? {
        let (offset, capacity) = section(s)
        let mask = capacity - 1
        let table = base + offset
        var index = Int(hash) & mask
        for _ in 0..<capacity {
            let pair = UInt64(littleEndian: table.loadUnaligned(fromByteOffset: 8 * index, as: UInt64.self))
            let v = Int(UInt32(truncatingIfNeeded: pair >> 32))
            if v == 0 { return nil }
            if UInt32(truncatingIfNeeded: pair) == hash {
                let entry = v - 1
                guard entry >= 0, entry < poolCount - 1 else { return nil }
                let words = (base + poolOffset + 4 * entry)
                let stored = bytes(offset: Int(UInt32(littleEndian: words.loadUnaligned(as: UInt32.self))),
                                   length: Int(UInt32(littleEndian: words.loadUnaligned(fromByteOffset: 4, as: UInt32.self))))
                // Tags are short: a byte loop beats a call to memcmp (15% of an extension lookup).
                if stored.count == key.count, Self.equal(stored, key) { return entry }
            }
            index = (index + 1) & mask
        }
        return nil
    }

    @inline(__always)
    private static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < b.count {
            if a[i] != b[i] { return false }
            i += 1
        }
        return true
    }

    /// What was wrong in the declarations: cycles, self-conformance, undeclared parents, conflicts.
    public var diagnostics: [RegistryDiagnostic] {
        let d = section(.diagnostics)
        return (0..<count(d.count)).compactMap { i in
            let at = d.offset + 10 * i
            let texts = (0..<4).compactMap { k in string(offset: pool(at + 1 + 2 * k), length: pool(at + 2 + 2 * k)) }
            return RegistryDiagnostic(kind: UInt32(pool(at)), texts: texts, extra: UInt32(pool(at + 9)))
        }
    }

    /// Every type number.
    public var allNumbers: Range<TypeID> { 0..<TypeID(typeCount) }
}
