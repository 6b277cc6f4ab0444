#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The registry image's content-typing section: the shared MIME database's MIME types (each with
/// the type it became), globs and magic, laid out for lookups in place (the model is
/// `mime.cache`'s glob, magic and parent lists). Detection works on MIME types, as xdgmime does.
///
/// ```
/// header       32 words: (offset, count) of each part below, the MIME numbers of text/plain,
///              application/octet-stream, application/x-desktop and application/x-zerosize
/// MIME types   6 words each: name (offset, length), type number, parents (pool start, count), flags
///              (1 text/*, 2 inode/*, 4 no MIME name, 8 a declared type standing in for a format
///              the database lacks)
/// literals     hash table: whole names (lower-cased unless case-sensitive) → glob entries
/// suffixes     hash table: text after the `*` of `*SUFFIX` globs → glob entries
/// patterns     4 words each: pattern (offset, length), MIME number, weight | case-sensitive << 8
/// magic        4 words each: priority, MIME number, first matchlet, matchlet count; by priority,
///              then MIME type (update-mime-database's order)
/// matchlets    7 words each: range start, range length, value (offset, length), mask offset, children
/// pool         glob entries of the hash tables: key (offset, length), count, (MIME, weight | cs << 8)…;
///              parent lists
/// bytes        names, pattern texts, keys, magic values and masks
/// ```
///
/// Every read is bounds-checked, and walks are bounded by the counts they start from, so a
/// damaged section gives wrong answers, never a bad access or an endless loop.
enum ContentTypingLayout {
    static let magic: UInt32 = 0x5059_5443   // "CTYP"
    static let headerWords = 32
    static let matchletWords = 7

    /// The header's words (``headerWords`` in all; the rest are zero). Each part is an offset in
    /// bytes from the section's start and a count.
    enum HeaderWord: Int, CaseIterable {
        case magic = 0
        case mimeOffset = 2, mimeCount, literalOffset, literalCount, suffixOffset, suffixCount
        case patternOffset, patternCount, magicOffset, magicCount, matchletOffset, matchletCount
        case poolOffset, poolCount, bytesOffset, bytesCount
        /// The longest extent of a magic match, and of a glob suffix.
        case maxExtent = 20, maxSuffix
        /// The MIME numbers (plus one; 0: none) of the types detection falls back to.
        case plainText, octetStream, desktopEntry, zeroSize
    }
    static let maximumDepth = 64
}

/// Reads the content-typing section in place. MIME types are numbered (``MIME``); each stands for a
/// registry type.
struct ContentTypingTable {
    typealias TypeID = TypeRegistry.TypeID
    /// A MIME type's number in the section.
    typealias MIME = Int
    let buffer: UnsafeRawBufferPointer

    /// A candidate MIME type for a name, with its glob's weight.
    struct Candidate: Equatable {
        var mime: MIME
        var weight: Int
    }

    /// Byte offsets of the parts, read from the header once (the magic loop reads thousands of words).
    private let mimeBase, literalBase, suffixBase, patternBase, magicBase, matchletBase, poolBase, bytesBase: Int
    private let poolCount, bytesCount, matchletCount: Int

    init?(_ buffer: UnsafeRawBufferPointer) {
        self.buffer = buffer
        func header(_ word: ContentTypingLayout.HeaderWord) -> Int {
            guard buffer.count >= 4 * (word.rawValue + 1) else { return 0 }
            return Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: 4 * word.rawValue, as: UInt32.self)))
        }
        guard buffer.count >= ContentTypingLayout.headerWords * 4, UInt32(header(.magic)) == ContentTypingLayout.magic else { return nil }
        (mimeBase, literalBase, suffixBase, patternBase) = (header(.mimeOffset), header(.literalOffset), header(.suffixOffset), header(.patternOffset))
        (magicBase, matchletBase, poolBase, bytesBase) = (header(.magicOffset), header(.matchletOffset), header(.poolOffset), header(.bytesOffset))
        // Counts are capped by what the section could hold, so a damaged header cannot make a walk long.
        (poolCount, bytesCount) = (min(header(.poolCount), buffer.count / 4), header(.bytesCount))
        matchletCount = min(header(.matchletCount), buffer.count / (4 * ContentTypingLayout.matchletWords))
        guard bytesBase <= buffer.count, bytesCount <= buffer.count - bytesBase else { return nil }
    }

    private func word(_ index: Int) -> UInt32 { wordAt(byteOffset: 4 * index) }
    private func word(_ header: ContentTypingLayout.HeaderWord) -> UInt32 { word(header.rawValue) }
    private func wordAt(byteOffset offset: Int) -> UInt32 {
        guard offset >= 0, offset <= buffer.count - 4 else { return 0 }
        return UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
    /// Word `index` of the part starting at byte `base`.
    @inline(__always)
    private func at(_ base: Int, _ index: Int) -> Int { Int(wordAt(byteOffset: base + 4 * index)) }
    private func poolWord(_ index: Int) -> Int {
        guard index >= 0, index < poolCount else { return 0 }
        return at(poolBase, index)
    }
    @inline(__always)
    private func bytes(_ offset: Int, _ length: Int) -> UnsafeRawBufferPointer {
        guard offset >= 0, length >= 0, offset <= bytesCount, length <= bytesCount - offset else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return UnsafeRawBufferPointer(start: buffer.baseAddress! + bytesBase + offset, count: length)
    }
    /// How many MIME types.
    var mimeCount: Int { min(Int(word(.mimeCount)), buffer.count / 24) }
    private func mime(_ value: Int) -> MIME? { value < mimeCount ? value : nil }
    private func special(_ header: ContentTypingLayout.HeaderWord) -> MIME? {
        let v = Int(word(header))
        return v > 0 ? mime(v - 1) : nil
    }

    /// A MIME type's name (its canonical spelling in the database); `nil` for a declared type that
    /// stands among the candidates without one.
    func name(_ m: MIME) -> String? {
        flags(m) & 4 != 0 ? nil : String(decoding: bytes(at(mimeBase, 6 * m), at(mimeBase, 6 * m + 1)), as: UTF8.self)
    }
    /// The registry type a MIME type became.
    func type(_ m: MIME) -> TypeID { TypeID(truncatingIfNeeded: at(mimeBase, 6 * m + 2)) }
    private func flags(_ m: MIME) -> Int { at(mimeBase, 6 * m + 5) }
    /// Whether a declared type stands in for a format the database lacks.
    func isStandIn(_ m: MIME) -> Bool { flags(m) & 8 != 0 }

    /// How many leading bytes of a file the magic can look at.
    var maxExtent: Int { Int(word(.maxExtent)) }
    /// `text/plain`.
    var plainText: MIME? { special(.plainText) }
    /// `application/octet-stream`: what nothing recognised is.
    var unknown: MIME? { special(.octetStream) }
    /// `application/x-desktop`.
    var desktopEntry: MIME? { special(.desktopEntry) }
    /// `application/x-zerosize`: what an empty file is.
    var empty: MIME? { special(.zeroSize) }

    // MARK: Globs

    /// The entries of one hash table for `key`, filtered to case-insensitive ones unless
    /// `caseSensitiveToo`.
    private func entries(table: Int, key: UnsafeRawBufferPointer, caseSensitiveToo: Bool) -> [Candidate] {
        let capacity = Int(word(table + 1)), base = Int(word(table))
        guard capacity > 0, capacity & (capacity - 1) == 0 else { return [] }
        let hash = RegistryImageLayout.hash(key)
        var index = Int(hash) & (capacity - 1)
        for _ in 0..<capacity {
            let slotHash = UInt32(truncatingIfNeeded: at(base, 2 * index)), value = at(base, 2 * index + 1)
            if value == 0 { return [] }
            let at = value - 1
            if slotHash == hash, bytes(poolWord(at), poolWord(at + 1)).elementsEqual(key) {
                var result: [Candidate] = []
                for i in 0..<min(poolWord(at + 2), 64) {
                    let flags = poolWord(at + 3 + 2 * i + 1)
                    guard caseSensitiveToo || flags & 0x100 == 0, let m = mime(poolWord(at + 3 + 2 * i)) else { continue }
                    result.append(Candidate(mime: m, weight: flags & 0xFF))
                }
                return result
            }
            index = (index + 1) & (capacity - 1)
        }
        return []
    }

    /// The MIME types a file name's globs give, best first, as GIO's
    /// `xdg_mime_get_mime_types_from_file_name` finds them: a literal name wins outright; otherwise
    /// the longest matching `*SUFFIX` (case-insensitive globs against the lower-cased name first,
    /// then every glob against the name as it is, while fewer than two are found); then the other
    /// patterns with `fnmatch`; duplicates keep their highest weight; sorted by weight, ties in
    /// declaration order.
    func candidates(forName name: String) -> [Candidate] {
        let original = Array(name.utf8)
        let lower = original.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }
        let found: [Candidate] = lower.withUnsafeBytes { l in
            original.withUnsafeBytes { o in
                if let first = entries(table: 4, key: l, caseSensitiveToo: false).first { return [first] }
                if let first = entries(table: 4, key: o, caseSensitiveToo: true).first { return [first] }
                var result = longestSuffix(l, caseSensitiveToo: false)
                if result.count < 2 { result += longestSuffix(o, caseSensitiveToo: true) }
                if result.count < 2 { result += patternMatches(lowerName: l, name: o) }
                return result
            }
        }
        if found.count <= 1 { return found }
        var unique: [Candidate] = []
        for c in found {
            if let i = unique.firstIndex(where: { $0.mime == c.mime }) { unique[i].weight = max(unique[i].weight, c.weight) }
            else { unique.append(c) }
        }
        return unique.enumerated().sorted { $0.element.weight != $1.element.weight ? $0.element.weight > $1.element.weight : $0.offset < $1.offset }.map(\.element)
    }

    private func longestSuffix(_ name: UnsafeRawBufferPointer, caseSensitiveToo: Bool) -> [Candidate] {
        let longest = Int(word(.maxSuffix))
        guard name.count > 0 else { return [] }
        for start in max(0, name.count - longest)..<name.count {
            let found = entries(table: 6, key: UnsafeRawBufferPointer(rebasing: name[start...]), caseSensitiveToo: caseSensitiveToo)
            if !found.isEmpty { return found }
        }
        return []
    }

    private func patternMatches(lowerName: UnsafeRawBufferPointer, name: UnsafeRawBufferPointer) -> [Candidate] {
        var result: [Candidate] = []
        let count = min(Int(word(.patternCount)), buffer.count / 16)
        let lowerText = String(decoding: lowerName, as: UTF8.self), text = String(decoding: name, as: UTF8.self)
        for i in 0..<count {
            let flags = at(patternBase, 4 * i + 3)
            guard let m = mime(at(patternBase, 4 * i + 2)) else { continue }
            let pattern = String(decoding: bytes(at(patternBase, 4 * i), at(patternBase, 4 * i + 1)), as: UTF8.self)
            if fnmatch(pattern, flags & 0x100 != 0 ? text : lowerText, 0) == 0 { result.append(Candidate(mime: m, weight: flags & 0xFF)) }
        }
        return result
    }

    // MARK: Magic

    /// The first magic rule, in priority order, that the data satisfies: its MIME type and priority.
    func magicMatch(_ data: UnsafeRawBufferPointer) -> (mime: MIME, priority: Int)? {
        let count = min(Int(word(.magicCount)), buffer.count / 16)
        for i in 0..<count {
            let first = at(magicBase, 4 * i + 2), n = at(magicBase, 4 * i + 3)
            if anyMatches(first, n, data, depth: 0), let m = mime(at(magicBase, 4 * i + 1)) {
                return (m, at(magicBase, 4 * i))
            }
        }
        return nil
    }

    private func anyMatches(_ first: Int, _ count: Int, _ data: UnsafeRawBufferPointer, depth: Int) -> Bool {
        guard depth < ContentTypingLayout.maximumDepth else { return false }
        let total = matchletCount
        guard first >= 0, count >= 0, first <= total, count <= total - first else { return false }
        for i in first..<(first + count) {
            let m = i * ContentTypingLayout.matchletWords
            guard matchletHolds(m, data) else { continue }
            let childCount = at(matchletBase, m + 6)
            if childCount == 0 || anyMatches(at(matchletBase, m + 5), childCount, data, depth: depth + 1) { return true }
        }
        return false
    }

    private func matchletHolds(_ m: Int, _ data: UnsafeRawBufferPointer) -> Bool {
        let start = at(matchletBase, m), length = at(matchletBase, m + 1)
        let value = bytes(at(matchletBase, m + 2), at(matchletBase, m + 3))
        let maskOffset = at(matchletBase, m + 4)
        let mask = maskOffset == Int(RegistryImageLayout.none) ? nil : bytes(maskOffset, value.count)
        guard value.count > 0, mask == nil || mask!.count == value.count else { return false }
        var offset = start
        let end = start + min(length, data.count)
        let first = value[0], firstMask = mask?[0] ?? 0xFF
        while offset < end {
            // Most offsets fail on the first byte: test it before a whole comparison.
            if offset < data.count, data[offset] & firstMask != first & firstMask { offset += 1; continue }
            if offset + value.count > data.count { return false }
            var equal = true
            if let mask {
                for j in 0..<value.count where value[j] & mask[j] != data[offset + j] & mask[j] { equal = false; break }
            } else {
                equal = memcmp(value.baseAddress!, data.baseAddress! + offset, value.count) == 0
            }
            if equal { return true }
            offset += 1
        }
        return false
    }

    // MARK: Hierarchy

    /// Whether `a` is `b` or a subclass of it in shared-mime-info's own hierarchy, as GIO's
    /// `xdg_mime_mime_type_subclass` decides: equal; `b` is text/plain and `a` a `text/*` type;
    /// `b` is application/octet-stream and `a` no `inode/*` type; or through `sub-class-of`.
    func isSubclass(_ a: MIME, of b: MIME) -> Bool {
        if a == b { return true }
        if b == plainText, flags(a) & 1 != 0 { return true }
        if b == unknown, flags(a) & 2 == 0 { return true }
        var seen: Set<MIME> = [a]
        var stack: [MIME] = [a]
        while let next = stack.popLast(), seen.count < 4096 {
            for p in parents(next) {
                if p == b { return true }
                if seen.insert(p).inserted { stack.append(p) }
            }
        }
        return false
    }

    /// The `sub-class-of` parents of a MIME type.
    func parents(_ m: MIME) -> [MIME] {
        guard m >= 0, m < mimeCount else { return [] }
        let start = at(mimeBase, 6 * m + 3), n = min(at(mimeBase, 6 * m + 4), 256)
        return (0..<n).compactMap { mime(poolWord(start + $0)) }
    }
}
