import SystemCalls

/// The compiled index of every desktop entry and association file of some ``DesktopLocations``,
/// memory-mapped from the cache (or held in memory when just built), with its freshness check.
///
/// Freshness: the index lists every file and folder it was built from, with its inode, size and
/// modification time, and every file it looked for and did not find (each `mimeapps.list`
/// location, the `applications` folders, the MIME database files). It is current when each of
/// them still stats the same: adding, removing or renaming an entry changes its folder's time; an
/// edit in place changes the file's. That is one `stat` per file per query (2,650 files: about
/// 2 ms), and nothing is parsed.
public final class DesktopAppIndex: Sendable {
    enum Storage: Sendable {
        case mapped(MappedFile)
        /// A copy this object allocated and frees.
        case owned
    }

    let storage: Storage
    let base: Int
    let count: Int
    /// Where the index was read from (`nil`: built in this process).
    public let file: String?

    /// Reads an index from bytes; `nil` when they are not a well-formed index.
    init?(bytes: [UInt8]) {
        storage = .owned
        let copy = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        if !bytes.isEmpty { bytes.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) } }
        base = Int(bitPattern: copy)
        count = bytes.count
        file = nil
        guard isWellFormed else { return nil }
    }

    /// Maps the index file at `path`; `nil` when it is missing or not a well-formed index.
    init?(path: String) {
        guard let mapped = try? MappedFile(path: path) else { return nil }
        storage = .mapped(mapped)
        base = Int(bitPattern: mapped.base)
        count = mapped.count
        file = path
        guard isWellFormed else { return nil }
    }

    deinit {
        if case .owned = storage { UnsafeMutableRawPointer(bitPattern: base)?.deallocate() }
    }

    // MARK: raw access (bounds-checked)

    func word(_ index: Int) -> UInt32 {
        guard index >= 0, (index + 1) * 4 <= count else { return 0 }
        return UnsafeRawPointer(bitPattern: base)!.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self).littleEndian
    }

    func header(_ word: IndexLayout.HeaderWord) -> Int { Int(self.word(word.rawValue)) }

    var poolStart: Int { header(.poolOffset) }

    /// The string referenced by the two words at `index`.
    func string(at index: Int) -> String? {
        let offset = word(index), length = word(index + 1)
        guard offset != IndexLayout.none, let bytes = bytes(offset: Int(offset), length: Int(length)) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    func bytes(offset: Int, length: Int) -> UnsafeRawBufferPointer? {
        let start = poolStart + offset
        guard offset >= 0, length >= 0, start + length <= count else { return nil }
        return UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: base)! + start, count: length)
    }

    /// Compares the string at `index` with `key`, bytewise.
    func compare(at index: Int, _ key: String) -> Int {
        let offset = word(index), length = word(index + 1)
        guard offset != IndexLayout.none, let stored = bytes(offset: Int(offset), length: Int(length)) else { return -1 }
        var key = key
        return key.withUTF8 { k in
            let n = min(stored.count, k.count)
            for i in 0..<n where stored[i] != k[i] { return stored[i] < k[i] ? -1 : 1 }
            return stored.count == k.count ? 0 : (stored.count < k.count ? -1 : 1)
        }
    }

    var isWellFormed: Bool {
        guard count >= IndexLayout.HeaderWord.allCases.count * 4,
              word(0) == IndexLayout.magic.0, word(1) == IndexLayout.magic.1, word(2) == IndexLayout.version else { return false }
        let tables: [(IndexLayout.HeaderWord, IndexLayout.HeaderWord, Int)] = [
            (.sourceCount, .sourceOffset, IndexLayout.sourceWords), (.folderCount, .folderOffset, IndexLayout.folderWords),
            (.appCount, .appOffset, IndexLayout.AppWord.allCases.count), (.tweakCount, .tweakOffset, IndexLayout.tweakWords),
            (.aliasCount, .aliasOffset, IndexLayout.pairWords), (.parentCount, .parentOffset, IndexLayout.pairWords),
        ]
        for (countWord, offsetWord, width) in tables {
            let (n, offset) = (header(countWord), header(offsetWord))
            guard n >= 0, offset >= 0, (offset + n * width) * 4 <= poolStart else { return false }
        }
        return poolStart + header(.poolLength) == count
    }

    /// The number of files and folders the freshness check looks at.
    public var sourceCount: Int { header(.sourceCount) }

    func sourcePath(_ index: Int) -> String? {
        guard index >= 0, index < header(.sourceCount) else { return nil }
        return string(at: header(.sourceOffset) + index * IndexLayout.sourceWords)
    }

    // MARK: folders

    var folderCount: Int { header(.folderCount) }

    func folder(_ index: Int) -> DesktopLocations.Folder? {
        guard index >= 0, index < folderCount else { return nil }
        let at = header(.folderOffset) + index * IndexLayout.folderWords
        return DesktopLocations.Folder(path: string(at: at) ?? "", isConfiguration: word(at + 2) == 1, origin: string(at: at + 3) ?? "")
    }

    // MARK: apps

    /// How many desktop files the index holds (every folder's, masked ones included).
    public var appCount: Int { header(.appCount) }

    func appWordIndex(_ record: Int, _ word: IndexLayout.AppWord) -> Int {
        header(.appOffset) + record * IndexLayout.AppWord.allCases.count + word.rawValue
    }

    /// The records for desktop-file ID `id`, one per folder that has it, most important first.
    func records(for id: String) -> Range<Int> {
        var low = 0, high = appCount
        while low < high {
            let mid = (low + high) / 2
            if compare(at: appWordIndex(mid, .id0), id) < 0 { low = mid + 1 } else { high = mid }
        }
        var end = low
        while end < appCount && compare(at: appWordIndex(end, .id0), id) == 0 { end += 1 }
        return low..<end
    }

    func recordFolder(_ record: Int) -> Int { Int(word(appWordIndex(record, .folder))) }

    /// The source (``IndexLayout``'s sources table) record `record` was read from.
    func recordSource(_ record: Int) -> Int { Int(word(appWordIndex(record, .source))) }

    /// The desktop-file ID of record `record`.
    func recordID(_ record: Int) -> String { string(at: appWordIndex(record, .id0)) ?? "" }

    /// Decodes one record.
    func app(_ record: Int) -> DesktopApp {
        func s(_ w: IndexLayout.AppWord) -> String? { string(at: appWordIndex(record, w)) }
        func list(_ w: IndexLayout.AppWord) -> [String]? {
            let at = appWordIndex(record, w)
            guard word(at) != IndexLayout.none, let joined = bytes(offset: Int(word(at)), length: Int(word(at + 1))) else { return nil }
            // Split the mapped bytes, not a String made of them first: an app's lists (`MimeType=`,
            // `Categories=`) are most of what decoding it costs.
            guard !joined.isEmpty else { return [] }
            // Indexed loops over the bytes: the `count(where:)` and enumerated `where` loops
            // they replace cost 131,000 of the 3.35 M instructions of `openin --list --json` at
            // 400 desktop files (90 lists of 18 apps), these 84,000 (callgrind).
            var separators = 0, i = 0
            while i < joined.count {
                if joined[i] == IndexLayout.listSeparator { separators += 1 }
                i += 1
            }
            var values: [String] = []
            values.reserveCapacity(separators + 1)
            var start = 0
            i = 0
            while i < joined.count {
                if joined[i] == IndexLayout.listSeparator {
                    values.append(String(decoding: UnsafeRawBufferPointer(rebasing: joined[start..<i]), as: UTF8.self))
                    start = i + 1
                }
                i += 1
            }
            values.append(String(decoding: UnsafeRawBufferPointer(rebasing: joined[start...]), as: UTF8.self))
            return values
        }
        let flags = IndexLayout.AppFlags(rawValue: word(appWordIndex(record, .flags)))
        let folderIndex = recordFolder(record)
        var entry: DesktopEntry?
        if flags.contains(.parsed) {
            entry = DesktopEntry(
                id: s(.id0) ?? "", path: s(.path0) ?? "", type: s(.type0), name: s(.name0), genericName: s(.genericName0), icon: s(.icon0),
                exec: s(.exec0), execProgram: s(.execProgram0), tryExec: s(.tryExec0), workingDirectory: s(.workingDirectory0), terminal: flags.contains(.terminal),
                hidden: flags.contains(.hidden), noDisplay: flags.contains(.noDisplay), onlyShowIn: list(.onlyShowIn0), notShowIn: list(.notShowIn0),
                mimeTypes: list(.mimeTypes0) ?? [], mimeTypeLine: Int(word(appWordIndex(record, .mimeTypeLine))),
                dbusActivatable: flags.contains(.dbusActivatable), noFuse: flags.contains(.noFuse), startupNotify: flags.contains(.startupNotify),
                categories: list(.categories0) ?? [], flatpakID: s(.flatpak0), snapInstanceName: s(.snap0),
                execLine: Int(word(appWordIndex(record, .execLine))), problems: list(.problems0) ?? [], unusable: s(.problem0))
        }
        return DesktopApp(id: s(.id0) ?? "", path: s(.path0) ?? "", folder: folder(folderIndex) ?? .init(path: "", isConfiguration: false, origin: ""),
                          folderIndex: folderIndex, entry: entry, problem: entry == nil ? s(.problem0) : entry?.unusable)
    }

    // MARK: associations

    /// One row of a folder's associations for a type.
    struct Tweak {
        var folder: Int
        var kind: IndexLayout.TweakKind
        var id: String
        var source: Int
        var line: Int
        /// The app records of ``id`` (empty: no desktop file has that ID).
        var records: Range<Int>
        /// The type as the line wrote it: an alias of the row's type, or the type itself.
        var written: String
    }

    /// The association rows for the (unaliased) type `mime`, in GIO's order.
    func tweaks(for mime: String) -> [Tweak] {
        let n = header(.tweakCount), start = header(.tweakOffset), width = IndexLayout.tweakWords
        var low = 0, high = n
        while low < high {
            let mid = (low + high) / 2
            if compare(at: start + mid * width, mime) < 0 { low = mid + 1 } else { high = mid }
        }
        var result: [Tweak] = []
        var i = low
        while i < n && compare(at: start + i * width, mime) == 0 {
            let at = start + i * width
            func w(_ field: IndexLayout.TweakWord) -> Int { at + field.rawValue }
            let first = Int(word(w(.firstRecord))), records = Int(word(w(.recordCount)))
            result.append(Tweak(folder: Int(word(w(.folder))), kind: IndexLayout.TweakKind(rawValue: word(w(.kind))) ?? .added,
                                id: string(at: w(.id0)) ?? "", source: Int(word(w(.source))), line: Int(word(w(.line))),
                                records: first <= appCount && records <= appCount - first ? first..<(first + records) : 0..<0,
                                written: string(at: w(.written0)) ?? mime))
            i += 1
        }
        return result
    }

    /// The canonical name of `mime`.
    func unalias(_ mime: String) -> String {
        let n = header(.aliasCount), start = header(.aliasOffset), width = IndexLayout.pairWords
        var low = 0, high = n
        while low < high {
            let mid = (low + high) / 2
            let c = compare(at: start + mid * width, mime)
            if c == 0 { return string(at: start + mid * width + 2) ?? mime }
            if c < 0 { low = mid + 1 } else { high = mid }
        }
        return mime
    }

    /// The declared parents of `mime`, in file order.
    func parents(of mime: String) -> [String] {
        let n = header(.parentCount), start = header(.parentOffset), width = IndexLayout.pairWords
        var low = 0, high = n
        while low < high {
            let mid = (low + high) / 2
            if compare(at: start + mid * width, mime) < 0 { low = mid + 1 } else { high = mid }
        }
        var result: [String] = []
        var i = low
        while i < n && compare(at: start + i * width, mime) == 0 {
            if let parent = string(at: start + i * width + 2) { result.append(parent) }
            i += 1
        }
        return result
    }

    /// `mime` (unaliased) and its declared ancestors, breadth-first: the types GIO tries in turn.
    public func chain(_ mime: String) -> [String] {
        var result = [unalias(mime)]
        var i = 0
        while i < result.count {
            for parent in parents(of: result[i]) {
                let canonical = unalias(parent)
                if !result.contains(canonical) { result.append(canonical) }
            }
            i += 1
        }
        return result
    }
}

extension DesktopEntry {
    /// Rebuilds an entry from the index's fields.
    init(id: String, path: String, type: String?, name: String?, genericName: String?, icon: String?, exec: String?, execProgram: String?, tryExec: String?,
         workingDirectory: String?, terminal: Bool, hidden: Bool, noDisplay: Bool, onlyShowIn: [String]?, notShowIn: [String]?,
         mimeTypes: [String], mimeTypeLine: Int, dbusActivatable: Bool, noFuse: Bool, startupNotify: Bool, categories: [String],
         flatpakID: String?, snapInstanceName: String?, execLine: Int, problems: [String], unusable: String?) {
        self.id = id
        self.path = path
        self.type = type
        self.name = name
        self.genericName = genericName
        self.icon = icon
        self.exec = exec
        self.execProgram = execProgram
        self.tryExec = tryExec
        self.workingDirectory = workingDirectory
        self.terminal = terminal
        self.hidden = hidden
        self.noDisplay = noDisplay
        self.onlyShowIn = onlyShowIn
        self.notShowIn = notShowIn
        self.mimeTypes = mimeTypes
        self.mimeTypeLine = mimeTypeLine
        self.dbusActivatable = dbusActivatable
        self.noFuse = noFuse
        self.startupNotify = startupNotify
        self.categories = categories
        self.flatpakID = flatpakID
        self.snapInstanceName = snapInstanceName
        self.execLine = execLine
        self.problems = problems
        self.unusable = unusable
    }
}
