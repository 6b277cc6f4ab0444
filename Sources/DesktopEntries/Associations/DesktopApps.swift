import Hashing
import SystemCalls

/// The installed desktop applications and the user's and system's associations, answered from
/// the compiled index (``DesktopAppIndex``), which is checked for freshness and rebuilt when
/// anything it was built from changed.
///
/// Two kinds of answer:
/// - GIO's, reproduced exactly for the same files (``applications(for:)`` is
///   `g_app_info_get_all_for_type`, ``gioDefault(for:)`` is `g_app_info_get_default_for_type`),
///   except that `mimeinfo.cache` is never read: each folder's `MimeType=` claims are taken from
///   the desktop files themselves, in the order `update-desktop-database` would write them;
/// - ours (``userDefault(for:)``): only `[Default Applications]` lines make a default, so a hidden
///   helper that sorts first is never chosen by accident.
public struct DesktopApps: Sendable {
    /// Where the index came from in this process.
    public enum IndexOrigin: Sendable, Hashable {
        /// Mapped from the cache: it was fresh.
        case cached(String)
        /// Mapped from the cache without looking at its sources: the running watcher
        /// (``IndexWatcher``) vouched that none changed since they were last found unchanged.
        case vouched(String)
        /// Rebuilt (it was missing, damaged, built for other locations or stale) and written to the cache.
        case rebuilt(String)
        /// Built in memory: the cache folder could not be written.
        case inMemory
    }

    /// The locations read.
    public let locations: DesktopLocations
    /// The index.
    public let index: DesktopAppIndex
    /// Where the index came from.
    public let origin: IndexOrigin
    /// Finds programs for `TryExec=` and `Exec=` (GIO does not count an entry whose program is not installed).
    let findProgram: @Sendable (String) -> String?
    /// Whether a watcher (``IndexWatcher``) for these locations runs: one is bound to their name,
    /// whether or not it vouched for anything this time (it may be busy, or short of watches).
    public let watcherRuns: Bool

    /// Whether starting a watcher would spare later queries more than it costs: none runs, the
    /// index is a cached file (where the watcher's token is recorded), its freshness check looks
    /// at ``WatcherAutostart/threshold`` files and folders or more, and every location is an
    /// absolute path (queries never ask about others: ``IndexWatch/ask(for:)``).
    public var wouldGainFromWatcher: Bool {
        guard !watcherRuns, index.sourceCount >= WatcherAutostart.threshold, locations.isAbsolute else { return false }
        if case .inMemory = origin { return false }
        return true
    }

    /// The cache folder: `$XDG_CACHE_HOME/document-interchange`, else `~/.cache/document-interchange`.
    public static var defaultCacheDirectory: String {
        if let xdg = Environment.value("XDG_CACHE_HOME"), xdg.hasPrefix("/") { return xdg + "/document-interchange" }
        return Environment.home + "/.cache/document-interchange"
    }

    /// The index file for `locations` in `cacheDirectory` (one per set of locations).
    public static func indexPath(for locations: DesktopLocations, in cacheDirectory: String) -> String {
        cacheDirectory + "/desktop-apps-" + locationsHash(locations) + ".index"
    }

    /// A short name for a set of locations: FNV-1a of ``DesktopLocations/key`` (the index file's)
    /// or of another of its keys, in hexadecimal.
    static func locationsHash(_ locations: DesktopLocations, key: KeyPath<DesktopLocations, String> = \.key) -> String {
        String(FNV1a64.hash(locations[keyPath: key]), radix: 16)
    }

    /// Loads the applications of `locations`: maps the cached index when it is fresh, else
    /// rebuilds it and replaces the cached file atomically (or keeps it in memory when the cache
    /// folder cannot be written).
    /// - Parameter findProgram: finds a program on `PATH` (default: this process's `PATH`).
    public init(locations: DesktopLocations = .current(), cacheDirectory: String? = defaultCacheDirectory,
                findProgram: (@Sendable (String) -> String?)? = nil) {
        self.locations = locations
        self.findProgram = findProgram ?? { Environment.findExecutable($0) }
        if let cacheDirectory {
            let path = Self.indexPath(for: locations, in: cacheDirectory)
            // Asked first: whatever changes after the answer changes the token again.
            let answer = IndexWatch.ask(for: locations)
            let token = answer.token
            watcherRuns = answer != .noWatcher
            let cached = DesktopAppIndex(path: path).flatMap { $0.isBuilt(for: locations) ? $0 : nil }
            if let cached {
                if let token, cached.watchToken == token {
                    index = cached
                    origin = .vouched(path)
                    return
                }
                if cached.isFresh {
                    if let token { cached.recordWatchToken(token) }
                    index = cached
                    origin = .cached(path)
                    return
                }
            }
            // Stale: its entries of unchanged files are reused.
            var builder = IndexBuilder(locations: locations, watchToken: token ?? 0, reusing: cached)
            let bytes = builder.build()
            if (try? FileSystem.makeDirectories(cacheDirectory)) != nil, (try? AtomicFile.write(bytes, to: path)) != nil,
               let written = DesktopAppIndex(path: path) {
                index = written
                origin = .rebuilt(path)
                return
            }
            index = DesktopAppIndex(bytes: bytes)!
            origin = .inMemory
        } else {
            watcherRuns = false
            var builder = IndexBuilder(locations: locations)
            index = DesktopAppIndex(bytes: builder.build())!
            origin = .inMemory
        }
    }

    // MARK: apps

    /// Why record `record` does not load as GIO would load it, or `nil` when it does: it must
    /// parse, be an Application, and its `TryExec=` and `Exec=` programs must be installed.
    /// - Parameter found: programs already looked up in this query (hundreds of apps name a few programs).
    func loadProblem(_ app: DesktopApp, found: inout [String: Bool]) -> String? {
        guard let entry = app.entry else { return app.problem ?? "it cannot be parsed" }
        if let unusable = entry.unusable { return unusable }
        func installed(_ program: String) -> Bool {
            if let known = found[program] { return known }
            let result = findProgram(program) != nil
            found[program] = result
            return result
        }
        if let tryExec = entry.tryExec, !tryExec.isEmpty, !installed(tryExec) { return "its TryExec=\(tryExec) is not installed" }
        if let program = entry.execProgram, !installed(program) { return "its program \(program) is not installed" }
        return nil
    }

    func loadProblem(_ app: DesktopApp) -> String? {
        var found: [String: Bool] = [:]
        return loadProblem(app, found: &found)
    }

    /// The app GIO would create for `id` (`g_desktop_app_info_new`): the first folder whose file
    /// loads; `nil` when none does or that file is `Hidden=true`.
    public func app(_ id: String) -> DesktopApp? {
        var found: [String: Bool] = [:]
        return app(id, found: &found)
    }

    func app(_ id: String, found: inout [String: Bool]) -> DesktopApp? {
        app(records: index.records(for: id), found: &found)
    }

    /// The app of the records of one desktop-file ID (an association row links to them).
    func app(records: Range<Int>, found: inout [String: Bool]) -> DesktopApp? {
        for record in records {
            let app = index.app(record)
            if loadProblem(app, found: &found) == nil { return app.entry?.hidden == true ? nil : app }
        }
        return nil
    }

    /// The file of `id` in the most important folder that has one, whether or not it loads.
    public func file(_ id: String) -> DesktopApp? {
        index.records(for: id).first.map(index.app)
    }

    /// Whether a desktop-file ID names an app, and if not, why: a value to decide on, with a
    /// sentence for messages.
    public enum Availability: Sendable, Hashable, CustomStringConvertible {
        /// It loads and is not hidden.
        case available(String)
        /// No folder has a desktop file of that ID (the folders looked in).
        case missing(String, folders: [String])
        /// Its file does not load (the file, and why).
        case unloadable(path: String, problem: String)
        /// `Hidden=true`: the app is deleted.
        case hidden(path: String)

        /// One sentence.
        public var description: String {
            switch self {
            case .available(let id): "\(id) is available"
            case .missing(let id, let folders): "no desktop file \(id) in \(folders.joined(separator: ", "))"
            case .unloadable(let path, let problem): "\(path): \(problem)"
            case .hidden(let path): "\(path) has Hidden=true (the app is deleted)"
            }
        }
    }

    /// Whether `name` has the form of a desktop-file ID (`org.gnome.Evince.desktop`): the suffix
    /// the Desktop Entry Specification gives every application's file, which no bundle
    /// identifier a user would type carries.
    public static func isDesktopFileID(_ name: String) -> Bool { name.hasSuffix(".desktop") }

    /// Whether `id` is an app (missing, hidden, not loadable).
    public func availability(_ id: String) -> Availability {
        let records = index.records(for: id)
        guard !records.isEmpty else { return .missing(id, folders: locations.folders.filter { !$0.isConfiguration }.map(\.path)) }
        for record in records {
            let app = index.app(record)
            if let problem = loadProblem(app) { return .unloadable(path: app.path, problem: problem) }
            if app.entry?.hidden == true { return .hidden(path: app.path) }
        }
        return .available(id)
    }

    /// Why `id` is not an app, for messages (``availability(_:)``'s sentence).
    public func whyNotAvailable(_ id: String) -> String { availability(id).description }

    /// Every app GIO would list (`g_app_info_get_all`): each ID once, from its most important
    /// folder, loadable and not hidden; sorted by ID.
    public func allApps() -> [DesktopApp] {
        var result: [DesktopApp] = []
        var record = 0
        while record < index.appCount {
            let id = index.recordID(record)
            let range = index.records(for: id)
            if let app = app(id) { result.append(app) }
            record = max(range.upperBound, record + 1)
        }
        return result
    }

    /// Whether the row's app exists in a folder more important than the row's (GIO then ignores
    /// the folder's associations for it: the more important file replaces it). The row links to
    /// its app's records, most important folder first.
    func isMasked(_ row: DesktopAppIndex.Tweak) -> Bool {
        guard row.folder > 0, let first = row.records.first else { return false }
        return index.recordFolder(first) < row.folder
    }

    // MARK: associations

    /// Where an association comes from.
    public enum Provenance: Sendable, Hashable, CustomStringConvertible {
        /// The app's own `MimeType=` line.
        case claimed(file: String, line: Int)
        /// An `[Added Associations]` line.
        case added(file: String, line: Int)
        /// A `[Default Applications]` line.
        case defaultEntry(file: String, line: Int)

        /// "FILE:LINE [Added Associations]".
        public var description: String {
            switch self {
            case .claimed(let file, let line): "\(file):\(line) MimeType="
            case .added(let file, let line): "\(file):\(line) [Added Associations]"
            case .defaultEntry(let file, let line): "\(file):\(line) [Default Applications]"
            }
        }
    }

    /// An app associated with a type, and how.
    public struct Association: Sendable, Hashable {
        /// The app.
        public var app: DesktopApp
        /// The type of the chain the association names (the asked type or an ancestor).
        public var mimeType: String
        /// Steps from the asked type to ``mimeType`` (0: the type itself).
        public var depth: Int
        /// The line that made it.
        public var provenance: Provenance
        /// The type as that line wrote it: ``mimeType`` itself, or an alias of it (`image/pdf`
        /// for `application/pdf`).
        public var writtenType: String

        /// Whether the line names the type only by an alias (GIO lists such apps after the
        /// folder's apps that name the type itself).
        public var isAliasClaim: Bool { writtenType != mimeType }
    }

    func provenance(_ tweak: DesktopAppIndex.Tweak) -> Provenance {
        let file = index.sourcePath(tweak.source) ?? "?"
        switch tweak.kind {
        case .claimed: return .claimed(file: file, line: tweak.line)
        case .added, .removed: return .added(file: file, line: tweak.line)
        case .defaults: return .defaultEntry(file: file, line: tweak.line)
        }
    }

    /// The apps for `mimeType` and its ancestors, in GIO's order (`g_app_info_get_all_for_type`),
    /// with the types whose `[Removed Associations]` took effect; each app once.
    public func associations(for mimeType: String) -> (apps: [Association], removed: [String: Provenance]) {
        let (hits, blocked) = associatedIDs(for: mimeType)
        var found: [String: Bool] = [:]
        let apps = hits.compactMap { id, depth, mime, row in
            app(records: row.records, found: &found).map { Association(app: $0, mimeType: mime, depth: depth, provenance: provenance(row), writtenType: row.written) }
        }
        return (apps, blocked)
    }

    /// The desktop-file IDs associated with `mimeType` and its ancestors, in GIO's order, before
    /// checking that they load; and the removals that took effect.
    func associatedIDs(for mimeType: String) -> (hits: [(String, Int, String, DesktopAppIndex.Tweak)], removed: [String: Provenance]) {
        var hits: [(String, Int, String, DesktopAppIndex.Tweak)] = []
        var seen: Set<String> = []
        var blocked: [String: Provenance] = [:]
        for (depth, mime) in index.chain(mimeType).enumerated() {
            let rows = index.tweaks(for: mime)
            for folder in 0..<index.folderCount {
                for row in rows where row.folder == folder && (row.kind == .added || row.kind == .claimed) {
                    if blocked[row.id] == nil && !seen.contains(row.id) && !isMasked(row) {
                        hits.append((row.id, depth, mime, row))
                        seen.insert(row.id)
                    }
                }
                for row in rows where row.folder == folder && row.kind == .removed {
                    if blocked[row.id] == nil && !seen.contains(row.id) && !isMasked(row) {
                        blocked[row.id] = provenance(row)
                    }
                }
            }
        }
        return (hits, blocked)
    }

    /// The IDs associated with `mimeType` (GIO's order), without loading the apps.
    public func associatedIDs(for mimeType: String) -> [String] { associatedIDs(for: mimeType).hits.map(\.0) }

    /// The apps for `mimeType` in GIO's order (`g_app_info_get_all_for_type`).
    public func applications(for mimeType: String) -> [Association] { associations(for: mimeType).apps }

    /// `mimeType` unaliased: the name its associations are recorded under.
    public func canonicalMIMEType(_ mimeType: String) -> String { index.unalias(mimeType) }

    /// `mimeType` (unaliased) and its declared ancestors.
    public func chain(_ mimeType: String) -> [String] { index.chain(mimeType) }
}
