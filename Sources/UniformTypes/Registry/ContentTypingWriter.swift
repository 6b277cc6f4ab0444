/// Builds the section from ``ContentTypingInput``, given each identifier's type number.
struct ContentTypingWriter {
    private var bytes: [UInt8] = []
    private var pool: [UInt32] = []

    private mutating func text(_ s: [UInt8]) -> (UInt32, UInt32) {
        let offset = UInt32(bytes.count)
        bytes += s
        return (offset, UInt32(s.count))
    }

    /// Each key's list goes into the pool; the table (``RegistryImageLayout/hashTable(_:)``)
    /// maps the key to where its list starts.
    private mutating func hashTable(_ entries: [String: [(UInt32, UInt32)]]) -> [UInt32] {
        var placed: [(key: String, value: UInt32)] = []
        for key in entries.keys.sorted() {
            let list = entries[key]!
            let (o, l) = text(Array(key.utf8))
            placed.append((key, UInt32(pool.count)))
            pool += [o, l, UInt32(list.count)]
            for (mime, weight) in list { pool += [mime, weight] }
        }
        return RegistryImageLayout.hashTable(placed)
    }

    static func section(_ input: ContentTypingInput, number: (String) -> Int?) -> [UInt8] {
        guard !input.isEmpty else { return [] }
        var w = ContentTypingWriter()
        return w.write(input, number: number)
    }

    private mutating func write(_ input: ContentTypingInput, number: (String) -> Int?) -> [UInt8] {
        // MIME numbers, in the input's order.
        var mimeNumber: [String: UInt32] = [:]
        var entries: [ContentTypingInput.MIMEEntry] = []
        for e in input.mimeTypes where mimeNumber[e.name.lowercased()] == nil && number(e.identifier) != nil {
            mimeNumber[e.name.lowercased()] = UInt32(entries.count)
            entries.append(e)
        }
        var mimeWords: [UInt32] = []
        for e in entries {
            let (o, l) = text(Array(e.name.utf8))
            let parents = e.parents.compactMap { mimeNumber[$0.lowercased()] }
            let start = UInt32(pool.count)
            pool += parents
            mimeWords += [o, l, UInt32(number(e.identifier)!), start, UInt32(parents.count),
                          (e.isText ? 1 : 0) | (e.isInode ? 2 : 0) | (e.isMIMEType ? 0 : 4) | (e.isStandIn ? 8 : 0)]
        }

        var literals: [String: [(UInt32, UInt32)]] = [:], suffixes: [String: [(UInt32, UInt32)]] = [:]
        var patterns: [UInt32] = []
        var maxSuffix = 0
        for g in input.globs {
            guard let mime = mimeNumber[g.mimeType.lowercased()] else { continue }
            let flags = UInt32(g.weight) | (g.caseSensitive ? 0x100 : 0)
            // Case-insensitive globs are stored lower-cased (ASCII only, as xdgmime folds names).
            let stored = g.caseSensitive ? g.pattern : String(decoding: g.pattern.utf8.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }, as: UTF8.self)
            switch MIMEGlob(pattern: stored).kind {
            case .literal:
                if !(literals[stored]?.contains { $0.0 == mime } ?? false) { literals[stored, default: []].append((mime, flags)) }
            case .suffix(let suffix):
                if !(suffixes[suffix]?.contains { $0.0 == mime } ?? false) { suffixes[suffix, default: []].append((mime, flags)) }
                maxSuffix = max(maxSuffix, suffix.utf8.count)
            case .pattern:
                let (o, l) = text(Array(stored.utf8))
                patterns += [o, l, mime, flags]
            }
        }
        let literalTable = hashTable(literals)
        let suffixTable = hashTable(suffixes)

        // Magic: by priority (highest first), then by MIME type, as update-mime-database sorts them.
        var magicWords: [UInt32] = [], matchlets: [UInt32] = []
        var maxExtent = 0
        func add(_ matches: [MIMEMagicMatch]) -> UInt32 {
            // Siblings are contiguous; children are written after, and patched in.
            let first = matchlets.count / ContentTypingLayout.matchletWords
            for m in matches {
                let (vo, vl) = text(m.value)
                let mo = m.mask.map { text($0).0 } ?? RegistryImageLayout.none
                matchlets += [UInt32(m.rangeStart), UInt32(m.rangeLength), vo, vl, mo, 0, UInt32(m.children.count)]
            }
            for (i, m) in matches.enumerated() where !m.children.isEmpty {
                let start = add(m.children)
                matchlets[(first + i) * ContentTypingLayout.matchletWords + 5] = start
            }
            return UInt32(first)
        }
        let sorted = input.magic.enumerated().sorted { a, b in
            if a.element.priority != b.element.priority { return a.element.priority > b.element.priority }
            if a.element.mimeType != b.element.mimeType { return Array(a.element.mimeType.utf8).lexicographicallyPrecedes(b.element.mimeType.utf8) }
            return a.offset < b.offset
        }.map(\.element)
        for m in sorted {
            guard let mime = mimeNumber[m.mimeType.lowercased()] else { continue }
            let first = add(m.matches)
            magicWords += [UInt32(m.priority), mime, first, UInt32(m.matches.count)]
            maxExtent = max(maxExtent, m.matches.map(\.extent).max() ?? 0)
        }
        func plusOne(_ name: String) -> UInt32 { mimeNumber[name].map { $0 + 1 } ?? 0 }

        // Assemble.
        typealias Word = ContentTypingLayout.HeaderWord
        var header = [UInt32](repeating: 0, count: ContentTypingLayout.headerWords)
        func set(_ word: Word, _ value: UInt32) { header[word.rawValue] = value }
        var body: [UInt32] = []
        let base = ContentTypingLayout.headerWords * 4
        func place(_ words: [UInt32], _ offset: Word, _ countWord: Word, count: Int) {
            set(offset, UInt32(base + 4 * body.count))
            set(countWord, UInt32(count))
            body += words
        }
        set(.magic, ContentTypingLayout.magic)
        place(mimeWords, .mimeOffset, .mimeCount, count: entries.count)
        place(literalTable, .literalOffset, .literalCount, count: literalTable.count / 2)
        place(suffixTable, .suffixOffset, .suffixCount, count: suffixTable.count / 2)
        place(patterns, .patternOffset, .patternCount, count: patterns.count / 4)
        place(magicWords, .magicOffset, .magicCount, count: magicWords.count / 4)
        place(matchlets, .matchletOffset, .matchletCount, count: matchlets.count / ContentTypingLayout.matchletWords)
        place(pool, .poolOffset, .poolCount, count: pool.count)
        set(.bytesOffset, UInt32(base + 4 * body.count))
        set(.bytesCount, UInt32(bytes.count))
        set(.maxExtent, UInt32(maxExtent))
        set(.maxSuffix, UInt32(maxSuffix))
        set(.plainText, plusOne("text/plain"))
        set(.octetStream, plusOne("application/octet-stream"))
        set(.desktopEntry, plusOne("application/x-desktop"))
        set(.zeroSize, plusOne("application/x-zerosize"))
        var out: [UInt8] = []
        out.reserveCapacity(base + 4 * body.count + bytes.count)
        for word in header + body { withUnsafeBytes(of: word.littleEndian) { out += $0 } }
        out += bytes
        return out
    }
}
