import SystemCalls

/// The resident side of ``IndexWatch``: watches, with inotify, every folder the desktop-app
/// index of some locations is built from (``WatchSet``), and answers queries with a token that
/// changes whenever a change that matters is reported. `openin watch` runs one (the user unit
/// `openin-watch.service`); without it queries check their files themselves, with the same
/// answers.
///
/// The watch set is derived from the sources an index would record now and derived again after
/// every change that matters, until two derivations agree: a folder created while the set was
/// being set up is either listed with its watch in place or reported by its parent's watch,
/// so no folder a later index reads can be left unwatched. A lost event (the kernel's queue
/// overflowed) or a watched folder removed counts as a change.
public final class IndexWatcher {
    /// The locations watched.
    public let locations: DesktopLocations
    private let inotify: Inotify
    private let socket: DatagramSocket
    /// The token queries are answered with (starts at a random odd number; 0 is "unknown").
    private(set) var token: UInt64
    /// The cache folder whose indexes of these locations the watcher keeps current
    /// (``refreshIndexes()``); `nil`: none.
    let cacheDirectory: String?
    /// When the cached indexes are to be brought up to date: a moment after the last change
    /// (``refreshDelay``); `nil` when nothing changed since they last were.
    private var refreshDue: Double?
    /// When the first change since the indexes were last brought up to date came: a stream of
    /// changes puts the refresh off at most ``refreshLatest`` seconds.
    private var changedSince: Double?
    private var set = WatchSet(sources: [])
    /// The paths each watch was asked for (a link and its target share one watch).
    private var foldersOfWatch: [Int32: [String]] = [:]
    private var watchOfFolder: [String: Int32] = [:]
    /// Whether every folder of the set is watched. When one could not be (the user's inotify
    /// watches are used up), the watcher answers "unknown" (token 0) until a later derivation
    /// watches them all, and queries check their files themselves.
    private(set) var isComplete = true

    /// What each watch reports: everything that changes a name's status or a file's bytes, and
    /// the folder itself going away.
    static let events: InotifyEvents = [.created, .deleted, .movedIn, .movedOut, .modified, .closedAfterWriting,
                                        .attributesChanged, .selfDeleted, .selfMoved]

    /// Told when folders cannot be watched, and when they all are again.
    private let report: (String) -> Void

    /// Binds the watcher's name for `locations` and sets up its watches; `report` is told when
    /// some folders cannot be watched, and when all are again. The indexes of these locations in
    /// `cacheDirectory` (the queries' default) are brought up to date after each change.
    /// - Throws: `EADDRINUSE` (``SystemCallError``) when a watcher for the same locations and
    ///   user already runs; other failures of inotify or the socket.
    public init(locations: DesktopLocations = .current(), cacheDirectory: String? = DesktopApps.defaultCacheDirectory,
                report: @escaping (String) -> Void = { _ in }) throws(SystemCallError) {
        self.locations = locations
        self.cacheDirectory = cacheDirectory
        self.report = report
        inotify = try Inotify()
        socket = try DatagramSocket(name: IndexWatch.socketName(for: locations))
        var generator = SystemRandomNumberGenerator()
        token = generator.next() | 1
        rewatch()
    }

    /// The number of folders watched.
    public var folderCount: Int { watchOfFolder.count }

    /// Answers queries and follows changes. Returns when no question came for `idleExit`
    /// seconds (`nil`: never); throws when waiting fails.
    public func run(idleExit: Double? = nil) throws(SystemCallError) {
        var lastQuestion = Clock.monotonic()
        while true {
            let now = Clock.monotonic()
            let idle = idleExit.map { lastQuestion + $0 - now }
            if let idle, idle <= 0 { return }
            if let due = refreshDue, due <= now {
                // Changes that came meanwhile put it off again.
                try follow()
                if let due = refreshDue, due <= Clock.monotonic() { refreshIndexes() }
                continue
            }
            let timeout = [idle, refreshDue.map { $0 - now }].compactMap { $0 }.min()
            let ready = try Poll.readable([inotify.descriptor, socket.descriptor], timeout: timeout)
            if ready[0] { try follow() }
            if ready[1], try answerQuestions() { lastQuestion = Clock.monotonic() }
        }
    }

    /// Answers the questions waiting on the socket (none: returns at once); whether there were any.
    @discardableResult
    func answerQuestions() throws(SystemCallError) -> Bool {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 8)
        defer { buffer.deallocate() }
        var askers: [[UInt8]] = []
        while let received = try socket.receive(into: buffer) {
            guard received.senderUser == ProcessSignals.userID, received.count > 0, received.count < buffer.count else { continue }
            askers.append(Array(UnsafeRawBufferPointer(rebasing: buffer[..<received.count])))
        }
        guard !askers.isEmpty else { return false }
        // Every change finished before a question was sent is queued by now.
        try follow()
        var reply = (isComplete ? token : 0).littleEndian
        for asker in askers {
            withUnsafeBytes(of: &reply) { bytes in _ = try? socket.send(bytes, to: asker) }
        }
        return true
    }

    /// Reads the queued events; a change that matters advances the token and derives the watch
    /// set again.
    func follow() throws(SystemCallError) {
        var changed = false
        while true {
            let events = try inotify.pendingEvents()
            if events.isEmpty { break }
            for event in events where !changed {
                if event.events.contains(.overflow) || event.events.contains(.ignored)
                    || event.events.contains(.selfDeleted) || event.events.contains(.selfMoved) {
                    changed = true
                } else if let folders = foldersOfWatch[event.watch] {
                    let name = String(decoding: event.name, as: UTF8.self)
                    changed = folders.contains { set.matters(name, in: $0) }
                }
            }
        }
        if changed {
            token &+= 1
            if token == 0 { token = 1 }
            let now = Clock.monotonic()
            if changedSince == nil { changedSince = now }
            refreshDue = min(now + Self.refreshDelay, changedSince! + Self.refreshLatest)
            rewatch()
        } else if !isComplete {
            rewatch()
        }
    }

    /// Marks the changes so far as taken in by a refresh that starts (``refreshIndexes()``).
    func refreshStarted() {
        refreshDue = nil
        changedSince = nil
    }

    /// Derives the watch set until two derivations agree, watching each folder before the next
    /// derivation lists it; drops watches no longer needed.
    private func rewatch() {
        var previous: WatchSet?
        var failed: Set<String> = []
        for _ in 0..<8 {
            var builder = IndexBuilder(locations: locations)
            let next = WatchSet(sources: builder.collectSources())
            failed = []
            for folder in next.folders.keys where watchOfFolder[folder] == nil {
                do {
                    let watch = try inotify.watch(folder, for: Self.events)
                    foldersOfWatch[watch, default: []].append(folder)
                    watchOfFolder[folder] = watch
                } catch {
                    failed.insert(folder)
                }
            }
            set = next
            if next == previous { break }
            previous = next
        }
        for (folder, watch) in watchOfFolder where set.folders[folder] == nil {
            watchOfFolder[folder] = nil
            foldersOfWatch[watch]?.removeAll { $0 == folder }
            if foldersOfWatch[watch]?.isEmpty ?? true {
                foldersOfWatch[watch] = nil
                inotify.remove(watch)
            }
        }
        if failed.isEmpty != isComplete {
            isComplete = failed.isEmpty
            report(isComplete ? "every folder is watched again"
                : "cannot watch \(failed.sorted().joined(separator: ", ")); queries check their files themselves until it can")
        }
    }
}
