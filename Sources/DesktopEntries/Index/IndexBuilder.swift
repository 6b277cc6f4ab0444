import Hashing
import SystemCalls

/// Reads every desktop entry, association file and MIME database file the locations name, and
/// compiles them into the index's bytes (``IndexLayout``). This is the only place that parses
/// them; a query reads the compiled bytes.
struct IndexBuilder {
    let locations: DesktopLocations

    private var words: [UInt32] = []
    private var pool: [UInt8] = []
    private var poolIndex: [ExactString: UInt32] = [:]

    struct Source { var path: String; var status: FileStatus? }
    private var sources: [Source] = []
    private struct FolderID: Hashable { var folder: Int; var id: ExactString }
    private struct FolderIdentity: Hashable { var device: UInt64; var inode: UInt64 }
    /// The folders on the current path of the scan.
    private var visiting: Set<FolderIdentity> = []
    private var seen: Set<FolderID> = []

    struct App {
        var folder: Int
        var source: Int
        var id: String
        var path: String
        var entry: DesktopEntry?
        var problem: String?
    }

    struct Tweak {
        var mime: String
        var folder: Int
        var kind: IndexLayout.TweakKind
        var id: String
        var source: Int
        var line: Int
        /// The type as the line wrote it (an alias of ``mime``, or ``mime`` itself).
        var written: String
    }

    /// The watcher's token to record (``IndexWatch``): asked for before anything was read.
    let watchToken: UInt64
    /// Off for ``collectSources()``: folders are walked and files looked at, nothing is parsed.
    private var parsesEntries = true

    /// An index built before for the same locations: a desktop file whose source it recorded
    /// with the status the file has now is taken from it instead of being read and parsed again.
    /// The check is the freshness check's, file by file, so the result is the index a full build
    /// would write (`IndexTests` compares the bytes); after one edit a rebuild costs the stats,
    /// the changed files and the association files, not every file.
    private let previous: DesktopAppIndex?

    init(locations: DesktopLocations, watchToken: UInt64 = 0, reusing previous: DesktopAppIndex? = nil) {
        self.locations = locations
        self.watchToken = watchToken
        self.previous = previous.flatMap { $0.isBuilt(for: locations) ? $0 : nil }
    }

    /// Every file and folder an index of the locations is built from (the folders walked as
    /// ``build()`` walks them, then the MIME database files and the association files), each
    /// with its status, without parsing any: what ``IndexWatcher`` watches. `IndexTests` checks
    /// that the list is the one ``build()`` records.
    mutating func collectSources() -> [Source] {
        parsesEntries = false
        var apps: [App] = []
        for (f, folder) in locations.folders.enumerated() where !folder.isConfiguration {
            scan(folder.path, prefix: "", folder: f, into: &apps)
        }
        for file in MIMEHierarchy.files(in: locations.mimeFolders) { _ = addSource(file) }
        for folder in locations.folders {
            for (path, _) in locations.associationFiles(in: folder) { _ = addSource(path) }
        }
        return sources
    }

    /// How many desktop files the last ``build()`` took from the previous index (tests).
    private(set) var reusedEntries = 0

    /// The sources recorded by the last ``build()`` (tests).
    var recordedSources: [Source] { sources }

    /// Everything read and compiled.
    mutating func build() -> [UInt8] {
        var apps: [App] = []
        // Data folders: every .desktop file, recursively; subfolders add `NAME-` to the ID.
        for (f, folder) in locations.folders.enumerated() where !folder.isConfiguration {
            scan(folder.path, prefix: "", folder: f, into: &apps)
        }
        let hierarchy = MIMEHierarchy(folders: locations.mimeFolders)
        for file in MIMEHierarchy.files(in: locations.mimeFolders) { _ = addSource(file) }
        var tweaks: [Tweak] = []
        for (f, folder) in locations.folders.enumerated() {
            tweaks += folderTweaks(f, folder, apps: apps, hierarchy: hierarchy)
        }
        return serialize(apps: apps, tweaks: tweaks, hierarchy: hierarchy)
    }

    private mutating func addSource(_ path: String) -> Int {
        sources.append(Source(path: path, status: FileSystem.status(path)))
        return sources.count - 1
    }

    private mutating func scan(_ directory: String, prefix: String, folder: Int, into apps: inout [App]) {
        let source = addSource(directory)
        guard let status = sources[source].status, status.kind == .directory else { return }
        // A link back to a folder already being read (applications/loop -> ..) is read once: GIO
        // follows such links without a guard; a query must never loop.
        guard visiting.insert(FolderIdentity(device: status.device, inode: status.inode)).inserted else { return }
        defer { visiting.remove(FolderIdentity(device: status.device, inode: status.inode)) }
        // Files first, then subfolders: the sources of one folder stay together, which is what
        // lets the freshness check stat them relative to the open folder.
        var subfolders: [String] = []
        for name in FileSystem.entries(of: directory).sorted() {
            let path = directory + "/" + name
            if name.hasSuffix(".desktop") {
                let id = prefix + name
                // Two files for one ID in one folder (kde4-a.desktop and kde4/a.desktop): the first
                // in name order is kept.
                if !seen.insert(FolderID(folder: folder, id: ExactString(id))).inserted { continue }
                let fileSource = addSource(path)
                guard parsesEntries else { continue }
                if let app = previousApp(id: id, folder: folder, path: path, status: sources[fileSource].status) {
                    apps.append(App(folder: folder, source: fileSource, id: id, path: path, entry: app.entry,
                                    problem: app.entry == nil ? app.problem : nil))
                    reusedEntries += 1
                    continue
                }
                do {
                    let file = try KeyFile(contentsOf: path)
                    apps.append(App(folder: folder, source: fileSource, id: id, path: path,
                                    entry: DesktopEntry(id: id, path: path, file: file, locales: locations.locales), problem: nil))
                } catch {
                    apps.append(App(folder: folder, source: fileSource, id: id, path: path, entry: nil, problem: error.description))
                }
                // Replaced or edited while it was read: recorded as missing, so that the index is
                // stale for the next query and this entry is never reused.
                if let before = sources[fileSource].status, !(FileSystem.status(path)?.isSameFile(as: before) ?? false) {
                    sources[fileSource].status = nil
                }
            } else if FileSystem.isDirectory(path) {
                subfolders.append(name)
            }
        }
        for name in subfolders { scan(directory + "/" + name, prefix: prefix + name + "-", folder: folder, into: &apps) }
    }

    /// The app the previous index recorded for this file, when the file still has the status
    /// recorded then and was parsed: a file that could not be read may be readable now with the
    /// same status (a `chmod`, a descriptor limit in the watcher), so it is read again.
    private func previousApp(id: String, folder: Int, path: String, status: FileStatus?) -> DesktopApp? {
        guard let previous, status?.kind == .regular,
              let record = previous.records(for: id).first(where: { previous.recordFolder($0) == folder }),
              previous.source(previous.recordSource(record), matches: status) else { return nil }
        let app = previous.app(record)
        return app.path == path && app.entry != nil ? app : nil
    }

    /// The associations of one folder, in GIO's order: the files of ``DesktopLocations/associationFiles(in:)``,
    /// then (for a data folder) the folder's own `MimeType=` claims, sorted by desktop-file ID as
    /// `update-desktop-database` writes them. An addition is dropped when the folder already
    /// removed the app for the type, and a removal when it already added it (GIO's
    /// `expand_strv` with a blocklist).
    private mutating func folderTweaks(_ f: Int, _ folder: DesktopLocations.Folder, apps: [App], hierarchy: MIMEHierarchy) -> [Tweak] {
        var added: [String: [Tweak]] = [:], removed: [String: [Tweak]] = [:], defaults: [String: [Tweak]] = [:]
        // The same lists as sets, for the membership tests (hundreds of apps claim image/png).
        var addedIDs: [String: Set<String>] = [:], removedIDs: [String: Set<String>] = [:], defaultIDs: [String: Set<String>] = [:]
        var order: [String] = []
        var known: Set<String> = []
        func note(_ mime: String) { if known.insert(mime).inserted { order.append(mime) } }
        for (path, tweaksAllowed) in locations.associationFiles(in: folder) {
            let source = addSource(path)
            guard sources[source].status?.kind == .regular, let file = try? KeyFile(contentsOf: path) else { continue }
            let list = MimeAppsList(file, path: path)
            if tweaksAllowed {
                for line in list.lines(.added) {
                    let mime = hierarchy.unalias(line.mimeType)
                    note(mime)
                    for id in line.desktopIDs where !(addedIDs[mime]?.contains(id) ?? false) && !(removedIDs[mime]?.contains(id) ?? false) {
                        added[mime, default: []].append(Tweak(mime: mime, folder: f, kind: .added, id: id, source: source, line: line.line, written: line.mimeType))
                        addedIDs[mime, default: []].insert(id)
                    }
                }
                for line in list.lines(.removed) {
                    let mime = hierarchy.unalias(line.mimeType)
                    note(mime)
                    for id in line.desktopIDs where !(removedIDs[mime]?.contains(id) ?? false) && !(addedIDs[mime]?.contains(id) ?? false) {
                        removed[mime, default: []].append(Tweak(mime: mime, folder: f, kind: .removed, id: id, source: source, line: line.line, written: line.mimeType))
                        removedIDs[mime, default: []].insert(id)
                    }
                }
            }
            for line in list.lines(.defaults) {
                let mime = hierarchy.unalias(line.mimeType)
                note(mime)
                for id in line.desktopIDs where !(defaultIDs[mime]?.contains(id) ?? false) {
                    defaults[mime, default: []].append(Tweak(mime: mime, folder: f, kind: .defaults, id: id, source: source, line: line.line, written: line.mimeType))
                    defaultIDs[mime, default: []].insert(id)
                }
            }
        }
        if !folder.isConfiguration {
            // What `update-desktop-database` writes into the folder's `mimeinfo.cache`: each
            // type as the `MimeType=` lines wrote it (aliases too), its claimants by ID, the
            // types sorted by their bytes. GIO reads those lines in that order and appends each
            // to the list of its unaliased type, once per app: so `application/pdf`'s own
            // claimants come before apps that claim only its alias `image/pdf`. A few hundred
            // types are claimed thousands of times: each is checked and unaliased once.
            var claims: [String: [Int]] = [:]
            var canonical: [String: String?] = [:]
            func canonicalName(_ mime: String) -> String? {
                if let known = canonical[mime] { return known }
                let name = DesktopEntry.isValidMIMEType(mime) ? hierarchy.unalias(mime) : nil
                canonical[mime] = .some(name)
                return name
            }
            // Per app, the unaliased types it names under their own name (the row quotes that
            // name when it has it, wherever an alias put the row).
            var ownNames: [Int: Set<String>] = [:]
            for (index, app) in apps.enumerated() where app.folder == f {
                guard let entry = app.entry, entry.isInMIMECache else { continue }
                var seen: Set<String> = []
                for mime in entry.mimeTypes where seen.insert(mime).inserted {
                    guard let name = canonicalName(mime) else { continue }
                    claims[mime, default: []].append(index)
                    if name == mime { ownNames[index, default: []].insert(name) }
                }
            }
            // Claimants in ID order: the apps' ranks by ID, compared as numbers.
            var rank = [Int](repeating: 0, count: apps.count)
            let folderApps = apps.indices.filter { apps[$0].folder == f }
            for (position, index) in folderApps.sorted(by: { Self.less(apps[$0].id, apps[$1].id) }).enumerated() { rank[index] = position }
            var claimed: [String: Set<Int>] = [:]
            for (written, claimants) in claims.sorted(by: { Self.less($0.key, $1.key) }) {
                let mime = canonicalName(written)!
                note(mime)
                let (listed, blocked) = (addedIDs[mime] ?? [], removedIDs[mime] ?? [])
                var rows: [Tweak] = []
                rows.reserveCapacity(claimants.count)
                for index in claimants.sorted(by: { rank[$0] < rank[$1] }) where claimed[mime, default: []].insert(index).inserted {
                    let app = apps[index]
                    guard listed.isEmpty || !listed.contains(app.id), blocked.isEmpty || !blocked.contains(app.id) else { continue }
                    let name = ownNames[index]?.contains(mime) == true ? mime : written
                    rows.append(Tweak(mime: mime, folder: f, kind: .claimed, id: app.id, source: app.source, line: app.entry?.mimeTypeLine ?? 0,
                                      written: name))
                }
                added[mime, default: []] += rows
            }
        }
        return order.flatMap { (added[$0] ?? []) + (removed[$0] ?? []) + (defaults[$0] ?? []) }
    }

    /// Byte order (`strcmp`), as `update-desktop-database` sorts.
    static func less(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    // MARK: serializing

    private mutating func string(_ value: String?) -> (UInt32, UInt32) {
        guard let value else { return (IndexLayout.none, IndexLayout.none) }
        let key = ExactString(value)
        if let offset = poolIndex[key] { return (offset, UInt32(value.utf8.count)) }
        let offset = UInt32(pool.count)
        pool += value.utf8
        pool.append(0)
        poolIndex[key] = offset
        return (offset, UInt32(value.utf8.count))
    }

    private mutating func append(_ value: String?) {
        let (offset, length) = string(value)
        words.append(offset)
        words.append(length)
    }

    private func joined(_ list: [String]?) -> String? {
        list.map { String(decoding: Array($0.map { Array($0.utf8) }.joined(separator: [IndexLayout.listSeparator])), as: UTF8.self) }
    }

    private mutating func serialize(apps: [App], tweaks: [Tweak], hierarchy: MIMEHierarchy) -> [UInt8] {
        words = Array(repeating: 0, count: IndexLayout.HeaderWord.allCases.count)
        func set(_ word: IndexLayout.HeaderWord, _ value: Int) { words[word.rawValue] = UInt32(truncatingIfNeeded: value) }
        set(.magic0, Int(IndexLayout.magic.0))
        set(.magic1, Int(IndexLayout.magic.1))
        set(.version, Int(IndexLayout.version))
        let environment = string(locations.key)
        set(.environment0, Int(environment.0))
        set(.environment1, Int(environment.1))
        set(.watchToken0, Int(watchToken & 0xFFFF_FFFF))
        set(.watchToken1, Int(watchToken >> 32))

        set(.sourceCount, sources.count)
        set(.sourceOffset, words.count)
        for source in sources {
            append(source.path)
            let status = source.status
            let inode = status?.inode ?? 0, seconds = UInt64(bitPattern: status?.modified.seconds ?? 0), size = UInt64(status?.size ?? 0)
            words.append(IndexLayout.SourceKind(status).rawValue)
            words.append(UInt32(truncatingIfNeeded: inode))
            words.append(UInt32(truncatingIfNeeded: inode >> 32))
            words.append(UInt32(truncatingIfNeeded: seconds))
            words.append(UInt32(truncatingIfNeeded: seconds >> 32))
            words.append(UInt32(truncatingIfNeeded: status?.modified.nanoseconds ?? 0))
            words.append(UInt32(truncatingIfNeeded: size))
            words.append(UInt32(truncatingIfNeeded: size >> 32))
            let device = status?.device ?? 0
            words.append(UInt32(truncatingIfNeeded: device))
            words.append(UInt32(truncatingIfNeeded: device >> 32))
        }

        set(.folderCount, locations.folders.count)
        set(.folderOffset, words.count)
        for folder in locations.folders {
            append(folder.path)
            words.append(folder.isConfiguration ? 1 : 0)
            append(folder.origin)
        }

        // Sorted as positions: an app carries its whole entry, which a sort would copy around.
        let appOrder = apps.indices.sorted { a, b in
            apps[a].id.utf8.elementsEqual(apps[b].id.utf8) ? apps[a].folder < apps[b].folder : Self.less(apps[a].id, apps[b].id)
        }
        set(.appCount, appOrder.count)
        set(.appOffset, words.count)
        for app in appOrder.lazy.map({ apps[$0] }) {
            let e = app.entry
            var flags: IndexLayout.AppFlags = []
            if let e {
                flags.insert(.parsed)
                if e.terminal { flags.insert(.terminal) }
                if e.hidden { flags.insert(.hidden) }
                if e.noDisplay { flags.insert(.noDisplay) }
                if e.dbusActivatable { flags.insert(.dbusActivatable) }
                if e.noFuse { flags.insert(.noFuse) }
                if e.startupNotify { flags.insert(.startupNotify) }
            }
            words.append(UInt32(app.folder))
            words.append(UInt32(app.source))
            words.append(flags.rawValue)
            append(app.id)
            append(app.path)
            append(app.problem ?? e?.unusable)
            append(e?.type)
            append(e?.name)
            append(e?.genericName)
            append(e?.icon)
            append(e?.exec)
            words.append(UInt32(e?.execLine ?? 0))
            append(e?.tryExec)
            append(e?.workingDirectory)
            append(joined(e?.onlyShowIn))
            append(joined(e?.notShowIn))
            append(joined(e?.mimeTypes ?? []))
            words.append(UInt32(e?.mimeTypeLine ?? 0))
            append(joined(e?.categories ?? []))
            append(e?.flatpakID)
            append(e?.snapInstanceName)
            append(joined(e?.problems ?? []))
            append(e?.execProgram)
        }

        // Grouped by type, each type's rows in GIO's order, then the types sorted: thousands of
        // rows share a few hundred types.
        var rowsByType: [ExactString: [Int]] = [:]
        for (i, tweak) in tweaks.enumerated() { rowsByType[ExactString(tweak.mime), default: []].append(i) }
        let tweakOrder = rowsByType.keys.sorted { Self.less($0.value, $1.value) }.flatMap { rowsByType[$0]! }
        set(.tweakCount, tweakOrder.count)
        set(.tweakOffset, words.count)
        // Each row links to its app's records, so a query finds (and masks) the app of a row
        // without searching the app table by name.
        var recordsByID: [ExactString: (first: Int, count: Int)] = [:]
        for (i, app) in appOrder.lazy.map({ apps[$0] }).enumerated() {
            let id = ExactString(app.id)
            if let known = recordsByID[id] { recordsByID[id] = (known.first, known.count + 1) } else { recordsByID[id] = (i, 1) }
        }
        // In ``IndexLayout/TweakWord`` order.
        for tweak in tweakOrder.lazy.map({ tweaks[$0] }) {
            append(tweak.mime)
            words.append(UInt32(tweak.folder))
            words.append(tweak.kind.rawValue)
            append(tweak.id)
            let records = recordsByID[ExactString(tweak.id)] ?? (0, 0)
            words.append(UInt32(tweak.source))
            words.append(UInt32(tweak.line))
            words.append(UInt32(records.first))
            words.append(UInt32(records.count))
            append(tweak.written)
        }

        let aliases = hierarchy.aliases.sorted { Self.less($0.key, $1.key) }
        set(.aliasCount, aliases.count)
        set(.aliasOffset, words.count)
        for (alias, canonical) in aliases { append(alias); append(canonical) }

        let parents = hierarchy.parents.keys.sorted(by: Self.less).flatMap { child in hierarchy.parents[child]!.map { (child, $0) } }
        set(.parentCount, parents.count)
        set(.parentOffset, words.count)
        for (child, parent) in parents { append(child); append(parent) }

        set(.poolOffset, words.count * 4)
        set(.poolLength, pool.count)
        var bytes = [UInt8]()
        bytes.reserveCapacity(words.count * 4 + pool.count)
        for i in words.indices { words[i] = words[i].littleEndian }
        words.withUnsafeBytes { bytes += $0 }
        bytes += pool
        return bytes
    }
}
