#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Hashing
import SystemCalls

/// The compiled registry's file format: one flat, versioned, little-endian image that a query
/// process maps and reads in place (the model is shared-mime-info's `mime.cache`).
///
/// ```
/// header (160 bytes): magic "DIUTREG\1", format version, type count, total length, checksum,
///                     then a table of sections (offset, count)
/// strings            UTF-8 bytes, referred to as (offset, length)
/// types              one record of 24 words per type number
/// pool               32-bit words: parents, sorted supertypes, tags, tag-index entries (tag, candidates,
///                    best candidate conforming to public.data), diagnostics
/// identifier table   open-addressing hash, slots of (hash, type number + 1)
/// tag tables         one per tag class, slots of (hash, pool index of the tag's entry + 1)
/// fingerprint        opaque bytes the writer was given (what the image was built from)
/// closure rows       per type, up to seven supertypes in one 32-byte row
/// app records        per registered app, the keys the handler chooser reads; the index of URL schemes
/// content typing     globs and magic from the shared MIME database (``ContentTypingTable``)
/// ```
enum RegistryImageLayout {
    static let magic: [UInt8] = [0x44, 0x49, 0x55, 0x54, 0x52, 0x45, 0x47, 0x01] // "DIUTREG\1"
    static let formatVersion: UInt32 = 12
    static let headerSize = 160
    static let recordWords = 24

    /// The words of one type's record (``recordWords`` each; the rest are zero). A string is two
    /// words, offset and length in the string section; a list is two, its start in the pool and
    /// its count.
    enum RecordWord: Int, CaseIterable {
        case identifier0, identifier1, normalized0, normalized1, description0, description1, reference0, reference1
        case version0, version1, source0, source1
        /// Bit 0: declared; bit 1: ``TypeDeclaration/isCoreType``; bits 8-15: ``TypeDeclaration/Kind``.
        case flags
        case parentsStart, parentsCount, ancestorsStart, ancestorsCount
        /// Three pool words a tag: its class's standard index, then the tag's string.
        case tagsStart, tagsCount
        /// Two pool words an icon file name.
        case iconsStart, iconsCount
        /// Four pool words a localized description: language, then text.
        case localizedStart, localizedCount
    }
    static let none: UInt32 = 0xFFFF_FFFF

    enum Section: Int, CaseIterable {
        case strings, types, pool, identifierTable, extensionTable, mimeTable, osTypeTable, pasteboardTable, diagnostics, fingerprint
        /// Per type, one 32-byte row: the supertype count, then up to 7 supertypes. A conformance
        /// test reads one cache line; types with more supertypes use their list in the pool.
        case closureRows
        /// Per registered app, the Info.plist keys the handler chooser reads and which types it
        /// claims (``AppRecordTable``), so `openin` reads only the apps that matter.
        case appRecords
        /// The shared MIME database's globs and magic by type number (``ContentTypingTable``),
        /// read only when a file's type is asked for.
        case contentTyping

        /// Bytes per counted element.
        var elementSize: Int {
            switch self {
            case .strings, .fingerprint, .appRecords, .contentTyping: 1
            case .identifierTable, .extensionTable, .mimeTable, .osTypeTable, .pasteboardTable: 8
            case .types: RegistryImageLayout.recordWords * 4
            case .closureRows: 32
            default: 4
            }
        }
    }

    /// The index of a standard tag class; other classes have none (declarations never keep them).
    @inline(__always)
    static func tagTable(_ tagClass: TagClass) -> Section? {
        switch tagClass.standardIndex {
        case 0: .extensionTable
        case 1: .mimeTable
        case 2: .osTypeTable
        case 3: .pasteboardTable
        default: nil
        }
    }

    /// FNV-1a over the key's bytes: the hash of every table.
    static func hash(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var h = FNV1a32.offsetBasis
        for b in bytes { h = FNV1a32.step(h, b) }
        return h
    }

    /// A fast whole-image checksum, so a damaged file is rebuilt rather than trusted (accidental
    /// damage: every read is bounds-checked anyway). A query checks the whole file every time, so
    /// this is Fletcher-style sums over 64-bit words in four lanes: adds only, which the compiler
    /// vectorises. A multiply-and-shift hash in four lanes cost 3-4% of a query process with a
    /// 1,000-app registry; the second sum of each lane makes it sensitive to word order too.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var a0: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count), a1: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        var a2: UInt64 = 0x1656_67B1_9E37_79F9, a3: UInt64 = 0x85EB_CA77_C2B2_AE63
        var b0: UInt64 = 0, b1: UInt64 = 0, b2: UInt64 = 0, b3: UInt64 = 0
        var i = 0
        while i + 32 <= bytes.count {
            a0 &+= bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self); b0 &+= a0
            a1 &+= bytes.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self); b1 &+= a1
            a2 &+= bytes.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self); b2 &+= a2
            a3 &+= bytes.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self); b3 &+= a3
            i += 32
        }
        var h = a0 ^ (a1 &* 3) ^ (a2 &* 5) ^ (a3 &* 7)
        h = (h ^ b0) &* 0xBF58_476D_1CE4_E5B9
        h = (h ^ b1) &* 0x94D0_49BB_1331_11EB
        h = (h ^ b2) &* 0xBF58_476D_1CE4_E5B9
        h = (h ^ b3) &* 0x94D0_49BB_1331_11EB
        while i < bytes.count {
            h = (h ^ UInt64(bytes[i])) &* 0x94D0_49BB_1331_11EB
            i += 1
        }
        return h ^ (h >> 29)
    }

    /// A hash table of `(key, value)` pairs: open addressing with linear probing; each slot is
    /// two words, the key's full hash and the value + 1 (0: empty), so a probe past another key
    /// rarely needs to fetch that key. The one builder for every table of the image.
    static func hashTable(_ entries: [(key: String, value: UInt32)]) -> [UInt32] {
        let capacity = tableCapacity(for: entries.count)
        var slots = [UInt32](repeating: 0, count: 2 * capacity)
        let mask = UInt32(capacity - 1)
        for (key, value) in entries {
            let hash = hash(key.utf8)
            var slot = hash & mask
            while slots[2 * Int(slot) + 1] != 0 { slot = (slot + 1) & mask }
            slots[2 * Int(slot)] = hash
            slots[2 * Int(slot) + 1] = value + 1
        }
        return slots
    }

    static func tableCapacity(for count: Int) -> Int {
        var capacity = 8
        while capacity < count * 2 { capacity <<= 1 }
        return capacity
    }
}

/// Serialises a compiled registry into an image.
struct RegistryImageWriter {
    typealias Layout = RegistryImageLayout
    private var strings: [UInt8] = []
    private var stringOffsets: [String: UInt32] = [:]
    private var pool: [UInt32] = []

    private mutating func ref(_ s: String?) -> (UInt32, UInt32) {
        guard let s else { return (Layout.none, 0) }
        if let offset = stringOffsets[s] { return (offset, UInt32(s.utf8.count)) }
        let offset = UInt32(strings.count)
        strings.append(contentsOf: s.utf8)
        stringOffsets[s] = offset
        return (offset, UInt32(s.utf8.count))
    }

    /// ``RegistryImageLayout/hashTable(_:)``.
    private mutating func table(_ keys: [(String, UInt32)]) -> [UInt32] {
        Layout.hashTable(keys.map { (key: $0.0, value: $0.1) })
    }

    static func image(of compiled: RegistryCompiler, fingerprint: [UInt8], apps: [AppRecordInput] = []) -> [UInt8] {
        var w = RegistryImageWriter()
        var numbers: [String: Int] = [:]
        for (i, id) in compiled.identifiers.enumerated() { numbers[TypeIdentifierSyntax.normalized(id)] = i }
        let appRecords = AppRecordTable.encode(apps, typeCount: compiled.identifiers.count) { numbers[TypeIdentifierSyntax.normalized($0)] }
        let contentTyping = ContentTypingWriter.section(compiled.contentTyping) {
            numbers[TypeIdentifierSyntax.normalized($0)]
        }
        return w.write(compiled, fingerprint: fingerprint, appRecords: appRecords, contentTyping: contentTyping)
    }

    private mutating func write(_ c: RegistryCompiler, fingerprint: [UInt8], appRecords: [UInt8], contentTyping: [UInt8]) -> [UInt8] {
        var records: [UInt32] = []
        records.reserveCapacity(c.identifiers.count * Layout.recordWords)
        for (i, identifier) in c.identifiers.enumerated() {
            let d = c.declarations[i]
            var r = RecordWords()
            (r[.identifier0], r[.identifier1]) = ref(identifier)
            (r[.normalized0], r[.normalized1]) = ref(TypeIdentifierSyntax.normalized(identifier))
            (r[.description0], r[.description1]) = ref(d?.description)
            (r[.reference0], r[.reference1]) = ref(d?.referenceURL)
            (r[.version0], r[.version1]) = ref(d?.version)
            (r[.source0], r[.source1]) = ref(d?.source)
            r[.flags] = (d == nil ? 0 : 1) | (d?.isCoreType == true ? 2 : 0) | UInt32(d?.kind.rawValue ?? 0) << 8
            r[.parentsStart] = UInt32(pool.count); r[.parentsCount] = UInt32(c.parents[i].count)
            pool += c.parents[i].map { UInt32($0) }
            r[.ancestorsStart] = UInt32(pool.count); r[.ancestorsCount] = UInt32(c.ancestors[i].count)
            pool += c.ancestors[i].map { UInt32($0) }
            var tagWords: [UInt32] = []
            for tagClass in TagClass.standard {
                for tag in d?.tags[tagClass] ?? [] {
                    let (o, l) = ref(tag)
                    tagWords += [UInt32(tagClass.standardIndex), o, l]
                }
            }
            r[.tagsStart] = UInt32(pool.count); r[.tagsCount] = UInt32(tagWords.count / 3)
            pool += tagWords
            var iconWords: [UInt32] = []
            for icon in d?.iconFiles ?? [] { let (o, l) = ref(icon); iconWords += [o, l] }
            r[.iconsStart] = UInt32(pool.count); r[.iconsCount] = UInt32(iconWords.count / 2)
            pool += iconWords
            var localizedWords: [UInt32] = []
            for (language, text) in (d?.localizedDescriptions ?? [:]).sorted(by: { $0.key < $1.key }) {
                let (lo, ll) = ref(language), (to, tl) = ref(text)
                localizedWords += [lo, ll, to, tl]
            }
            r[.localizedStart] = UInt32(pool.count); r[.localizedCount] = UInt32(localizedWords.count / 4)
            pool += localizedWords
            records += r.words
        }
        let identifierTable = table(c.identifiers.enumerated().map { (TypeIdentifierSyntax.normalized($0.element), UInt32($0.offset)) })
        var tagTables: [RegistryImageLayout.Section: [UInt32]] = [:]
        // Each tag entry also names its best candidate that conforms to public.data (+ 1; 0: none),
        // the default constraint of extension and MIME lookups, so those need no conformance test.
        let data = c.identifiers.firstIndex { TypeIdentifierSyntax.normalized($0) == "public.data" }.map { TypeRegistry.TypeID($0) }
        for tagClass in TagClass.standard {
            var keys: [(String, UInt32)] = []
            for (tag, candidates) in c.tagIndex[tagClass] ?? [] {
                let (o, l) = ref(tag)
                keys.append((tag, UInt32(pool.count)))
                let best = data.flatMap { d in candidates.first { $0 == d || c.ancestors[Int($0)].contains(d) } }
                pool += [o, l, UInt32(pool.count + 5), UInt32(candidates.count), best.map { UInt32($0) + 1 } ?? 0]
                pool += candidates.map { UInt32($0) }
            }
            tagTables[Layout.tagTable(tagClass)!] = table(keys)
        }
        var diagnosticWords: [UInt32] = []
        for diagnostic in c.diagnostics {
            let (kind, texts, extra) = diagnostic.encoded
            diagnosticWords.append(kind)
            for i in 0..<4 { let (o, l) = ref(i < texts.count ? texts[i] : nil); diagnosticWords += [o, l] }
            diagnosticWords.append(extra)
        }
        let diagnosticsStart = UInt32(pool.count)
        pool += diagnosticWords

        // Assemble: header, then each section 8-byte aligned.
        var out = [UInt8](repeating: 0, count: Layout.headerSize)
        var table: [(UInt32, UInt32)] = []
        func align(_ boundary: Int = 8) { while out.count % boundary != 0 { out.append(0) } }
        func words(_ ws: [UInt32]) { for w in ws { withUnsafeBytes(of: w.littleEndian) { out.append(contentsOf: $0) } } }
        for section in RegistryImageLayout.Section.allCases {
            align()
            let offset = UInt32(out.count)
            switch section {
            case .strings: out += strings; table.append((offset, UInt32(strings.count)))
            case .types: words(records); table.append((offset, UInt32(c.identifiers.count)))
            case .pool: words(pool); table.append((offset, UInt32(pool.count)))
            case .identifierTable: words(identifierTable); table.append((offset, UInt32(identifierTable.count / 2)))
            case .extensionTable, .mimeTable, .osTypeTable, .pasteboardTable:
                words(tagTables[section]!); table.append((offset, UInt32(tagTables[section]!.count / 2)))
            case .diagnostics: table.append((diagnosticsStart, UInt32(c.diagnostics.count)))
            case .fingerprint: out += fingerprint; table.append((offset, UInt32(fingerprint.count)))
            case .closureRows:
                align(64)
                let rowsOffset = UInt32(out.count)
                for ancestors in c.ancestors {
                    var row = [UInt32](repeating: UInt32.max, count: 8)
                    row[0] = UInt32(ancestors.count)
                    for (i, a) in ancestors.prefix(7).enumerated() { row[i + 1] = UInt32(a) }
                    words(row)
                }
                table.append((rowsOffset, UInt32(c.ancestors.count)))
            case .appRecords: out += appRecords; table.append((offset, UInt32(appRecords.count)))
            case .contentTyping: out += contentTyping; table.append((offset, UInt32(contentTyping.count)))
            }
        }
        align()
        func put<T: FixedWidthInteger>(_ v: T, at offset: Int) {
            withUnsafeBytes(of: v.littleEndian) { for (i, b) in $0.enumerated() { out[offset + i] = b } }
        }
        for (i, b) in Layout.magic.enumerated() { out[i] = b }
        put(Layout.formatVersion, at: 8)
        put(UInt32(c.identifiers.count), at: 12)
        put(UInt64(out.count), at: 16)
        precondition(32 + 8 * Layout.Section.allCases.count <= 136, "the section table would overlap the header fields")
        // The number of public.data + 1 (0: none), the default constraint of tag lookups.
        put(UInt32(c.identifiers.firstIndex { TypeIdentifierSyntax.normalized($0) == "public.data" }.map { $0 + 1 } ?? 0), at: 136)
        // The layout's shape, checked on open, so a layout change without a version bump is caught.
        put(UInt32(Layout.recordWords), at: 140)
        put(UInt32(RegistryImageLayout.Section.allCases.count), at: 144)
        for (i, (offset, count)) in table.enumerated() {
            put(offset, at: 32 + 8 * i)
            put(count, at: 36 + 8 * i)
        }
        let sum = out.withUnsafeBytes { Layout.checksum(UnsafeRawBufferPointer(rebasing: $0[Layout.headerSize...])) }
        put(sum, at: 24)
        return out
    }
}

extension RegistryDiagnostic {
    /// Kind, strings and one number, for the image.
    var encoded: (UInt32, [String], UInt32) {
        switch self {
        case .selfConformance(let id, let source): (0, [id, source], 0)
        case .cycle(let id, let source): (1, [id, source], 0)
        case .undeclaredParent(let id, let parent, let source): (2, [id, parent, source], 0)
        case .overridden(let id, let loser, let lk, let winner, let wk):
            (3, [id, loser, winner], UInt32(lk.rawValue) | UInt32(wk.rawValue) << 8)
        }
    }

    init?(kind: UInt32, texts: [String], extra: UInt32) {
        guard texts.count >= (kind >= 2 ? 3 : 2) else { return nil }
        switch kind {
        case 0: self = .selfConformance(identifier: texts[0], source: texts[1])
        case 1: self = .cycle(identifier: texts[0], source: texts[1])
        case 2: self = .undeclaredParent(identifier: texts[0], parent: texts[1], source: texts[2])
        case 3:
            guard let lk = TypeDeclaration.Kind(rawValue: Int(extra & 0xFF)),
                  let wk = TypeDeclaration.Kind(rawValue: Int(extra >> 8 & 0xFF)) else { return nil }
            self = .overridden(identifier: texts[0], loser: texts[1], loserKind: lk, winner: texts[2], winnerKind: wk)
        default: return nil
        }
    }
}

/// One type's record as it is written, addressed by ``RegistryImageLayout/RecordWord``.
struct RecordWords {
    var words = [UInt32](repeating: 0, count: RegistryImageLayout.recordWords)

    subscript(_ word: RegistryImageLayout.RecordWord) -> UInt32 {
        get { words[word.rawValue] }
        set { words[word.rawValue] = newValue }
    }
}
