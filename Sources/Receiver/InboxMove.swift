import CSystemShims
import Handlers
import Logging
import Synchronization
import UniformTypes
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Moves complete files out of one app's `Documents/Inbox` into its `Documents/` (or another
/// working folder), through directory descriptors so that a swapped folder or a planted link
/// cannot redirect the move.
///
/// One move (same file system): open the entry without following links, accept only a regular
/// file with one link, at most `sizeLimit` bytes, that no other process has open for writing (a
/// read lease is refused while one does); drop set-id and sticky bits and make it 0644; `fsync`
/// it; `renameat2(RENAME_NOREPLACE)` into `Documents/` under its name or the first free
/// `name-N.ext` (within NAME_MAX); then `fsync` `Documents/` and the Inbox. The entries of a pass
/// are moved in batches (group commit): every file flushed, one journal transaction, the renames,
/// one flush per folder, one completion transaction. A rename moves the one inode, so a file is
/// in exactly one folder at every instant: a crash at any step leaves it in the Inbox (moved again
/// at the next pass) or in `Documents/` (gone from the Inbox), never both and never neither.
///
/// Across file systems (`EXDEV`) a move is a copy: the entry is first claimed by a rename inside
/// the Inbox (`.inboxd-ID.claimed`, so that two receivers never copy one file), copied into
/// `.inboxd-ID.partial` in the working folder and flushed, linked under its final name (`link`
/// never replaces), the folder flushed and the name journaled (`copied`); only then are the
/// temporary name and the Inbox copy removed.
///
/// With a ``Manifest``, each move is journaled (see there) and ``recover()`` settles moves a crash
/// interrupted. Every flush goes through ``flush`` (a ``FlushLayer``).
public struct InboxMover {
    /// What happened to one Inbox entry.
    public enum Outcome: Sendable, Equatable {
        /// Moved into `Documents/` under this name.
        case moved(String)
        /// Left in place for a later pass: why (still being written, a transient error).
        case deferred(String)
        /// Left in place, never to be moved as is: why (not a regular file, several links, too large).
        case refused(String)
        /// Moved into `Library/Quarantine/` under this name (with a manifest): why.
        case quarantined(String, storedAs: String)
    }

    /// Bundle-identifier prefixes of the senders whose documents are accepted (the open request's
    /// `SourceApplication`); empty: any sender, and files without a request.
    public var allowedSenders: [String] = []

    /// What the app's policy says of a regular file that passed the checks.
    public struct Judgement: Sendable, Equatable {
        /// The document's type identifier, recorded in the manifest.
        public var type: String?
        /// Why it is refused; `nil` to accept it.
        public var refusal: String?

        /// A judgement.
        public init(type: String?, refusal: String? = nil) {
            self.type = type
            self.refusal = refusal
        }
    }

    /// The app's own rule for a regular file that passed the checks, given its name and the
    /// descriptor it was opened and judged as (the receiver's type policy); none: accept, type
    /// unknown.
    public var policy: (@Sendable ([UInt8], Int32) -> Judgement)?

    /// The app's container.
    public var container: AppContainer
    /// The working folder files are moved into: the container's `Documents/` unless configured.
    public var destination: String
    /// How files and folders are flushed (`fsync`; a test double in the power-loss tests).
    public var flush: FlushLayer = .system
    /// Where recovery says what it settled (notice).
    public var logger = Logger(label: "inboxd")
    /// Files larger than this are refused.
    public var sizeLimit: Int64
    /// The journal and record of moves, if kept.
    public var manifest: Manifest?
    /// For crash-injection tests: `INBOXD_CRASH_AT` = `intent`, `renamed`, `flushed`, `copying`
    /// (half of a cross-file-system copy written) or `copied` (the copy linked and journaled, the
    /// Inbox copy still there) makes the process kill itself with SIGKILL at that step of its first move.
    let crashPoint: String?

    /// A mover for `container`'s Inbox.
    public init(container: AppContainer, sizeLimit: Int64 = 1 << 32, manifest: Manifest? = nil) {
        self.container = container
        destination = container.documents
        self.sizeLimit = sizeLimit
        self.manifest = manifest
        crashPoint = getenv("INBOXD_CRASH_AT").map { String(cString: $0) }
    }

    func crash(at point: String) {
        if crashPoint == point { raise(SIGKILL) }
    }

    /// Settles the moves a crash interrupted (rows still `moving` or `copied` whose process is
    /// gone; another receiver's move in progress is left alone). Each file is found where the
    /// crash left it:
    /// - still in the Inbox under its name, one link: the rename did not happen; the row is
    ///   dropped and the file will be moved again;
    /// - in the working folder (found by inode): the row becomes `stored`; when the same inode is
    ///   also still linked in the Inbox (case 8), that Inbox name is removed;
    /// - a cross-file-system copy: a partial copy is deleted (case 9) and a claimed Inbox file gets
    ///   its name back; a copy that was linked under its final name is kept and the Inbox copy
    ///   removed;
    /// - nowhere: the app deleted it from the Inbox, as it may; the row is dropped.
    public func recover() throws(HandlerError) {
        guard let manifest else { return }
        let pending = try manifest.entries(status: "moving") + manifest.entries(status: "copied")
        guard !pending.isEmpty else { return }
        let inbox = open(container.inbox, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        let target = open(destination, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        defer {
            if inbox >= 0 { _ = flush.folder(inbox); close(inbox) }
            if target >= 0 { _ = flush.folder(target); close(target) }
        }
        for entry in pending where !isInProgress(entry) {
            let stored = try settle(entry, inbox: inbox, target: target, in: manifest)
            logger.notice("settled an interrupted move", metadata: [
                "inbox": "\(container.inbox)", "name": "\(Self.displayName(entry.originalName))", "journal": "\(entry.status)",
                "row": "\(entry.id)", "sha256": "\(entry.sha256)", "outcome": "\(stored.map { "stored as \($0)" } ?? "back in the Inbox or gone")",
            ])
            if target >= 0 { _ = flush.folder(target) }
            if inbox >= 0 { _ = flush.folder(inbox) }
            try manifest.finish(entry.id, storedAs: stored, time: Delivery.now())
        }
    }

    /// Journal rows of moves this process is carrying out right now (a failed flush leaves a row
    /// open that this same process settles at its next pass).
    static let inFlight = Mutex<Set<Int64>>([])

    /// Whether a journaled move is still being carried out: by a live other process, or by this
    /// one in a batch not yet finished.
    func isInProgress(_ entry: Manifest.Entry) -> Bool {
        if entry.ownerPID == getpid() && entry.ownerStart == Manifest.ownStart {
            return Self.inFlight.withLock { $0.contains(entry.id) }
        }
        return ProcessIdentity.isRunning(entry.ownerPID, startedAt: entry.ownerStart)
    }

    /// Where an interrupted move left its file: the name it has in the working folder, or `nil`
    /// when it is (back) in the Inbox or gone. Removes the copies that must not stay.
    ///
    /// A crash may cut this short too, so each step leaves what the next attempt reaches the same
    /// conclusion from: a complete copy is journaled as `copied` before anything is removed, and a
    /// claimed file is given its name back before its partial copy goes.
    func settle(_ entry: Manifest.Entry, inbox: Int32, target: Int32, in manifest: Manifest) throws(HandlerError) -> String? {
        let partial = Self.partialName(String(entry.id))
        var stored: String? = entry.status == "copied" ? entry.storedName : nil
        var copy = stat()
        let hasPartial = target >= 0 && Self.withCString(partial, { fstatat(target, $0, &copy, AT_SYMLINK_NOFOLLOW) }) == 0
        // Linked under its final name: the copy was complete and flushed before the link.
        if stored == nil, hasPartial, copy.st_nlink > 1,
           let name = find(inode: UInt64(copy.st_ino), device: UInt64(copy.st_dev), size: entry.size, in: target, except: partial) {
            try manifest.markCopied(entry.id, storedAs: name)
            stored = name
        }
        // The Inbox copy: under its name, or under the claim of a cross-file-system move. Once a
        // copy is complete, only the claim is looked at: the original is gone by then, and its
        // inode number may already belong to a new delivery under the same name.
        var source: [UInt8]?
        var sourceLinks = 0
        let candidates = stored == nil ? [entry.originalName, Self.claimName(String(entry.id))] : [Self.claimName(String(entry.id))]
        for name in candidates where inbox >= 0 {
            var info = stat()
            if Self.withCString(name, { fstatat(inbox, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0,
               UInt64(info.st_ino) == entry.inode, UInt64(info.st_dev) == entry.device {
                source = name
                sourceLinks = Int(info.st_nlink)
                break
            }
        }
        func removePartial() { if hasPartial { _ = Self.withCString(partial) { unlinkat(target, $0, 0) } } }
        if let stored {
            removePartial()
            if let source { _ = Self.withCString(source) { unlinkat(inbox, $0, 0) } }
            return stored
        }
        if let source {
            // The same inode in both folders (a rename a power loss half kept): the working
            // folder's name is the one to keep.
            if sourceLinks > 1, target >= 0,
               let other = find(inode: entry.inode, device: entry.device, size: entry.size, in: target, except: nil) {
                _ = Self.withCString(source) { unlinkat(inbox, $0, 0) }
                return other
            }
            if source != entry.originalName { Self.giveBack(source, from: inbox, to: inbox, as: entry.originalName) }
            removePartial()   // a copy cut short (case 9)
            return nil
        }
        removePartial()
        guard target >= 0 else { return nil }
        return find(inode: entry.inode, device: entry.device, size: entry.size, in: target, except: nil)
    }

    /// Whether `name` in the folder `fd` is the file `info` describes, not followed: the same
    /// inode, and (as a freed inode number is soon given to a new file) the same type, size and
    /// modification time. The change time is not compared: a rename changes it.
    static func holds(_ name: [UInt8], in fd: Int32, _ info: stat) -> Bool {
        var now = stat()
        return withCString(name, { fstatat(fd, $0, &now, AT_SYMLINK_NOFOLLOW) }) == 0
            && now.st_ino == info.st_ino && now.st_dev == info.st_dev && now.st_mode & S_IFMT == info.st_mode & S_IFMT
            && now.st_size == info.st_size && now.st_mtim.tv_sec == info.st_mtim.tv_sec && now.st_mtim.tv_nsec == info.st_mtim.tv_nsec
    }

    /// Moves `name` back into the Inbox under `original` or its first free `original-N`.
    static func giveBack(_ name: [UInt8], from folder: Int32, to inbox: Int32, as original: [UInt8]) {
        for attempt in 0..<100_000 {
            let back = suffixed(original, attempt)
            let renamed = withCString(name) { old in withCString(back) { new in di_rename_noreplace(folder, old, inbox, new) } }
            if renamed == 0 || errno != EEXIST { return }
        }
    }

    /// The name under which `inode` is linked in the folder `fd`, if any.
    /// `size`, when given, must match too (an inode number is reused once its file is deleted).
    func find(inode: UInt64, device: UInt64, size: Int64? = nil, in fd: Int32, except skipped: [UInt8]?) -> String? {
        for name in Self.names(inDirectory: fd) where name != skipped {
            var candidate = stat()
            if Self.withCString(name, { fstatat(fd, $0, &candidate, AT_SYMLINK_NOFOLLOW) }) == 0,
               UInt64(candidate.st_ino) == inode, UInt64(candidate.st_dev) == device,
               size.map({ $0 == Int64(candidate.st_size) }) ?? true { return Self.displayName(name) }
        }
        return nil
    }

    /// Moves every entry present now, in name order; each entry's outcome.
    /// - Throws: ``HandlerError`` when the Inbox or `Documents/` cannot be opened.
    /// Entry names are kept as bytes: a hostile name need not be valid UTF-8 and must reach the
    /// system calls unchanged. ``displayName(_:)`` makes one printable.
    public func moveAll() throws(HandlerError) -> [(name: [UInt8], outcome: Outcome)] {
        try container.create()
        try recover()
        let inbox = open(container.inbox, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard inbox >= 0 else { throw .system("cannot open \(container.inbox)", errno) }
        defer { close(inbox) }
        let documents = open(destination, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard documents >= 0 else { throw .system("cannot open \(destination)", errno) }
        defer { close(documents) }
        // Files other receivers have claimed for a copy in progress are theirs.
        let unfinished = ((try? manifest?.entries(status: "moving")) ?? []) + ((try? manifest?.entries(status: "copied")) ?? [])
        let claimed = Set(unfinished.map { Self.claimName(String($0.id)) })
        let requests = manifest == nil ? [:] : OpenRequests.all(in: container)
        var results: [([UInt8], Outcome)] = []
        var batch: [Ready] = []
        for name in Self.names(inDirectory: inbox).sorted(by: { $0.lexicographicallyPrecedes($1) }) where !claimed.contains(name) {
            switch prepare(name, from: inbox, requests: requests) {
            case .ready(let item):
                batch.append(item)
                if batch.count >= batchSize { results += commit(batch, from: inbox, to: documents); batch = [] }
            case .done(let outcome):
                results.append((name, outcome))
            case .refuse(let reason, let judged, let type):
                // A second link may be a sender's own name about to be removed: give it time.
                if manifest != nil, !(reason.hasSuffix(Self.linkedElsewhere) && changedRecently(name, in: inbox)) {
                    results.append((name, quarantine(name, judged: judged, type: type, from: inbox, reason: reason)))
                } else {
                    results.append((name, .refused(reason)))
                }
            }
        }
        results += commit(batch, from: inbox, to: documents)
        return results.sorted { $0.0.lexicographicallyPrecedes($1.0) }
    }

    static let linkedElsewhere = " (a link to a file elsewhere)"

    /// Files moved together: one journal transaction, then each rename, then one flush per folder
    /// and one completion transaction (group commit). Bounds the open descriptors of a pass; 1
    /// makes each move durable before the next starts.
    public var batchSize = 256

    /// An Inbox entry that passed every check, flushed and still open.
    struct Ready {
        var name: [UInt8]
        var fd: Int32
        var info: stat
        var sha256: String
        var request: OpenRequests.Request?
        var type: String?
    }

    enum Prepared {
        case ready(Ready)
        case done(Outcome)
        /// Refused: why, the entry as it was judged (what quarantine may move), its type if known.
        case refuse(String, judged: stat, type: String?)
    }

    /// Checks one entry and flushes it: the steps of a move before the rename.
    func prepare(_ name: [UInt8], from inbox: Int32, requests: [String: OpenRequests.Request]) -> Prepared {
        // O_NOATIME (allowed for the file's owner): reading it for the checksum leaves its inode
        // clean; with the access time dirtied, every flush cost twice as much (measured).
        let flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC
        var fd = Self.withCString(name) { openat(inbox, $0, flags | di_o_noatime) }
        if fd < 0 && errno == EPERM { fd = Self.withCString(name) { openat(inbox, $0, flags) } }
        if fd < 0 {
            switch errno {
            case ELOOP: return judgeUnopened(name, in: inbox, as: S_IFLNK, "a symbolic link")
            case ENOENT: return .done(.deferred("gone before it could be opened"))
            case ENXIO: return judgeUnopened(name, in: inbox, as: S_IFIFO, "a socket or FIFO without a writer")
            default: return .done(.deferred("cannot open: \(String(cString: strerror(errno)))"))
            }
        }
        func fail(_ outcome: Outcome) -> Prepared { close(fd); return .done(outcome) }
        var type: String?
        func refuse(_ reason: String) -> Prepared { close(fd); return .refuse(reason, judged: info, type: type) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return fail(.deferred("cannot stat: \(String(cString: strerror(errno)))")) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return refuse("a folder")
        case S_IFIFO: return refuse("a FIFO")
        case S_IFCHR, S_IFBLK: return refuse("a device node")
        default: return refuse("not a regular file")
        }
        guard info.st_nlink == 1 else { return refuse("\(info.st_nlink) hard links" + Self.linkedElsewhere) }
        guard Int64(info.st_size) <= sizeLimit else { return refuse("\(info.st_size) bytes, over the limit of \(sizeLimit)") }
        let judgement = policy?(name, fd)
        type = judgement?.type
        if let reason = judgement?.refusal { return refuse(reason) }
        let request = requests[Self.displayName(name)]
        if !allowedSenders.isEmpty {
            guard let sender = request?.sender else { return refuse("no open request names its sender") }
            guard allowedSenders.contains(where: { sender.hasPrefix($0) }) else { return refuse("its sender \(sender) is not allowed") }
        }
        if di_no_other_writer(fd) != 0 && errno == EAGAIN { return fail(.deferred("still open for writing")) }
        // Only when needed: a mode change dirties the inode, and its fsync then costs a journal commit.
        if info.st_mode & 0o7777 != 0o644 {
            guard fchmod(fd, 0o644) == 0 else { return fail(.deferred("cannot set its mode: \(String(cString: strerror(errno)))")) }
        }
        var digest = ""
        if manifest != nil {
            guard let sum = FileDigest.sha256(of: fd, size: Int(info.st_size)) else { return fail(.deferred("cannot read it: \(String(cString: strerror(errno)))")) }
            digest = sum
        }
        guard flush.file(fd) == 0 else { return fail(.deferred("fsync failed: \(String(cString: strerror(errno)))")) }
        return .ready(Ready(name: name, fd: fd, info: info, sha256: digest, request: request, type: type))
    }

    /// An entry that could not be opened (a link, a FIFO or socket): refused as `reason` when
    /// it still is of that `kind` (sockets count as FIFOs), else left for a fresh look.
    func judgeUnopened(_ name: [UInt8], in inbox: Int32, as kind: mode_t, _ reason: String) -> Prepared {
        var info = stat()
        guard Self.withCString(name, { fstatat(inbox, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0 else { return .done(.deferred("gone before it could be opened")) }
        let found = info.st_mode & S_IFMT
        guard found == kind || (kind == S_IFIFO && found == S_IFSOCK) else { return .done(.deferred("changed while it was checked")) }
        return .refuse(reason, judged: info, type: nil)
    }

    /// Journals, renames (or copies) and flushes a batch of prepared entries.
    func commit(_ batch: [Ready], from inbox: Int32, to documents: Int32) -> [([UInt8], Outcome)] {
        guard !batch.isEmpty else { return [] }
        defer { for item in batch { close(item.fd) } }
        var ids: [Int64?] = Array(repeating: nil, count: batch.count)
        if let manifest {
            do {
                ids = try manifest.transaction { () throws(HandlerError) -> [Int64?] in
                    var result: [Int64?] = []
                    for item in batch {
                        let arrived = Double(item.info.st_ctim.tv_sec) + Double(item.info.st_ctim.tv_nsec) / 1e9
                        result.append(try manifest.beginMove(name: item.name, planned: Self.displayName(item.name),
                                                             size: Int64(item.info.st_size), sha256: item.sha256,
                                                             inode: UInt64(item.info.st_ino), device: UInt64(item.info.st_dev), time: arrived,
                                                             sender: item.request?.sender, annotation: item.request?.annotation, type: item.type))
                    }
                    return result
                }
            } catch {
                return batch.map { ($0.name, .deferred("\(error)")) }
            }
            crash(at: "intent")
        }
        let journaled = ids.compactMap { $0 }
        Self.inFlight.withLock { $0.formUnion(journaled) }
        defer { Self.inFlight.withLock { $0.subtract(journaled) } }
        var outcomes: [Outcome] = []
        var crossing: [Int] = []   // on another file system: copied below
        for (k, item) in batch.enumerated() {
            if let renamed = rename(item.name, expecting: item.info, from: inbox, to: documents) {
                if case .moved = renamed { crash(at: "renamed") }
                outcomes.append(renamed)
            } else {
                crossing.append(k)
                outcomes.append(.deferred("not copied"))
            }
        }
        var copies: [Int: Copy] = [:]
        if !crossing.isEmpty {
            let batchStart = Int(Delivery.now() * 1e6)
            let tokens = Dictionary(uniqueKeysWithValues: crossing.map { k in (k, ids[k].map { String($0) } ?? "p\(getpid())-\(batchStart)-\(k)") })
            // Claims first, made durable together: after a power loss the original is under its
            // claim, where recovery looks for it once the copy is complete.
            var claimed: [Int] = []
            for k in crossing {
                if let failure = claim(batch[k], token: tokens[k]!, in: inbox) { outcomes[k] = .deferred(failure) } else { claimed.append(k) }
            }
            if !claimed.isEmpty, flush.folder(inbox) != 0 {
                let why = "flushing the Inbox failed: \(String(cString: strerror(errno)))"
                for k in claimed { Self.giveBack(Self.claimName(tokens[k]!), from: inbox, to: inbox, as: batch[k].name); outcomes[k] = .deferred(why) }
                claimed = []
            }
            for k in claimed {
                switch copy(batch[k], token: tokens[k]!, from: inbox, to: documents) {
                case .done(let done): copies[k] = done; outcomes[k] = .moved(done.stored); crash(at: "renamed")
                case .failed(let why): outcomes[k] = .deferred(why)
                }
            }
        }
        let movedAny = outcomes.contains { if case .moved = $0 { true } else { false } }
        guard !movedAny || flush.folder(documents) == 0 else {
            // Renamed but not known durable: the rows stay `moving`, settled by the next start.
            return zip(batch, outcomes).map { item, outcome in
                if case .moved = outcome { (item.name, .deferred("moved, but flushing the working folder failed")) } else { (item.name, outcome) }
            }
        }
        crash(at: "flushed")
        if !copies.isEmpty {
            // The copies are durable under their final names: journal those names before the
            // Inbox copies go, so that recovery keeps the copy and removes the original.
            if let manifest {
                do {
                    try manifest.transaction { () throws(HandlerError) in
                        for (k, done) in copies { if let id = ids[k] { try manifest.markCopied(id, storedAs: done.stored) } }
                    }
                } catch {
                    for k in copies.keys { outcomes[k] = .deferred("copied, but the journal could not record it: \(error)") }
                    return zip(batch, outcomes).map { ($0.name, $1) }
                }
                crash(at: "copied")
            }
            for done in copies.values {
                _ = Self.withCString(done.partial) { unlinkat(documents, $0, 0) }
                _ = Self.withCString(done.claim) { unlinkat(inbox, $0, 0) }
            }
            _ = flush.folder(documents)
        }
        _ = flush.folder(inbox)
        if let manifest {
            let now = Delivery.now()
            try? manifest.transaction { () throws(HandlerError) in
                for (k, outcome) in outcomes.enumerated() {
                    guard let id = ids[k] else { continue }
                    if case .moved(let stored) = outcome { try manifest.finish(id, storedAs: stored, time: now) } else { try manifest.finish(id, storedAs: nil, time: now) }
                }
            }
            // The requests of stored documents are in the manifest now.
            for (item, outcome) in zip(batch, outcomes) {
                if case .moved = outcome, let request = item.request { unlink(request.path) }
            }
        }
        return zip(batch, outcomes).map { ($0.name, $1) }
    }

    /// A finished cross-file-system copy: its final name, and the two temporary names (the
    /// claimed Inbox entry, the copy's spare link) still to remove.
    struct Copy {
        var stored: String
        var claim: [UInt8]
        var partial: [UInt8]
    }

    /// How a copy ended: done, or failed (why) with the file back in the Inbox.
    enum Copied {
        case done(Copy)
        case failed(String)
    }

    /// The Inbox name of a file claimed for a copy, and the copy's name while it is written.
    static func claimName(_ token: String) -> [UInt8] { Array(".inboxd-\(token).claimed".utf8) }
    static func partialName(_ token: String) -> [UInt8] { Array(".inboxd-\(token).partial".utf8) }

    /// Claims an entry for a copy: renames it inside the Inbox to `.inboxd-TOKEN.claimed` (one
    /// receiver wins) and checks that what moved is the judged file. `nil` when claimed, else why not.
    func claim(_ item: Ready, token: String, in inbox: Int32) -> String? {
        let claim = Self.claimName(token)
        let claimed = Self.withCString(item.name) { old in Self.withCString(claim) { new in di_rename_noreplace(inbox, old, inbox, new) } }
        guard claimed == 0 else {
            return errno == ENOENT ? "gone during the move (another receiver took it)" : "cannot claim it: \(String(cString: strerror(errno)))"
        }
        guard Self.holds(claim, in: inbox, item.info) else {
            Self.giveBack(claim, from: inbox, to: inbox, as: item.name)
            return "replaced during the move"
        }
        return nil
    }

    /// Copies a claimed entry into the working folder on another file system: write and flush
    /// `.inboxd-TOKEN.partial`, link it under the first free name. On any failure (ENOSPC,
    /// EDQUOT, EIO…) the partial copy is removed and the file gets its name back in the Inbox.
    func copy(_ item: Ready, token: String, from inbox: Int32, to documents: Int32) -> Copied {
        let claim = Self.claimName(token), partial = Self.partialName(token)
        var created = false
        func undo(_ why: String) -> Copied {
            if created { _ = Self.withCString(partial) { unlinkat(documents, $0, 0) } }
            Self.giveBack(claim, from: inbox, to: inbox, as: item.name)
            return .failed(why)
        }
        let output = Self.withCString(partial) { openat(documents, $0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644) }
        guard output >= 0 else { return undo("cannot create the copy: \(String(cString: strerror(errno)))") }
        created = true
        var failure: String?
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        var offset: off_t = 0
        copying: while true {
            let n = pread(item.fd, buffer, size, offset)
            if n < 0 { if errno == EINTR { continue }; failure = "cannot read it: \(String(cString: strerror(errno)))"; break }
            if n == 0 { break }
            var written = 0
            while written < n {
                let w = write(output, buffer + written, n - written)
                if w < 0 { if errno == EINTR { continue }; failure = "cannot write the copy: \(String(cString: strerror(errno)))"; break copying }
                written += w
            }
            offset += off_t(n)
            if offset >= off_t(item.info.st_size) / 2 { crash(at: "copying") }
        }
        buffer.deallocate()
        if failure == nil {
            // The sender's modification time is kept; the mode is the folder's plain 0644.
            var times = [item.info.st_atim, item.info.st_mtim]
            _ = futimens(output, &times)
            if fchmod(output, 0o644) != 0 { failure = "cannot set the copy's mode: \(String(cString: strerror(errno)))" }
        }
        if failure == nil, flush.file(output) != 0 { failure = "flushing the copy failed: \(String(cString: strerror(errno)))" }
        close(output)
        if let failure { return undo(failure) }
        for attempt in 0..<100_000 {
            let candidate = Self.suffixed(item.name, attempt)
            let linked = Self.withCString(partial) { old in Self.withCString(candidate) { new in linkat(documents, old, documents, new, 0) } }
            if linked == 0 { return .done(Copy(stored: Self.displayName(candidate), claim: claim, partial: partial)) }
            if errno != EEXIST { return undo("cannot name the copy: \(String(cString: strerror(errno)))") }
        }
        return undo("no free name in the working folder")
    }

    /// `renameat2(RENAME_NOREPLACE)` into the working folder under the name or the first free
    /// `name-N`; `nil` when the two folders are on different file systems (`EXDEV`).
    /// A rename moves whatever the name holds now: when that is not the file that was checked
    /// (swapped for a link or another file since, case 21), it goes back to the Inbox.
    func rename(_ name: [UInt8], expecting info: stat, from inbox: Int32, to documents: Int32) -> Outcome? {
        for attempt in 0..<100_000 {
            let candidate = Self.suffixed(name, attempt)
            let renamed = Self.withCString(name) { old in Self.withCString(candidate) { new in di_rename_noreplace(inbox, old, documents, new) } }
            if renamed == 0 {
                guard Self.holds(candidate, in: documents, info) else {
                    Self.giveBack(candidate, from: documents, to: inbox, as: name)
                    return .deferred("replaced during the move")
                }
                return .moved(Self.displayName(candidate))
            }
            switch errno {
            case EEXIST: continue
            case ENOENT: return .deferred("gone during the move (another receiver took it)")
            case EXDEV: return nil
            default: return .deferred("cannot rename: \(String(cString: strerror(errno)))")
            }
        }
        return .deferred("no free name in Documents")
    }

    /// Whether `name` is a regular file whose inode changed in the last two seconds: a writer that
    /// links a file in and then removes its own name is given time (the refusal for its second
    /// link may already be stale) before the file goes to quarantine.
    func changedRecently(_ name: [UInt8], in inbox: Int32) -> Bool {
        var info = stat()
        guard Self.withCString(name, { fstatat(inbox, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0,
              info.st_mode & S_IFMT == S_IFREG else { return false }
        return Delivery.now() - (Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) / 1e9) < 2
    }

    /// Moves a refused entry (whatever it is: a link is moved, not followed) into
    /// `Library/Quarantine/`, never replacing anything, and records why.
    func quarantine(_ name: [UInt8], judged info: stat, type: String?, from inbox: Int32, reason: String) -> Outcome {
        let folder = container.library + "/Quarantine"
        do { try FileSystem.makeDirectories(folder) } catch { return .refused(reason) }
        let target = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard target >= 0 else { return .refused(reason) }
        defer { close(target) }
        for attempt in 0..<100_000 {
            let candidate = Self.suffixed(name, attempt)
            let renamed = Self.withCString(name) { old in Self.withCString(candidate) { new in di_rename_noreplace(inbox, old, target, new) } }
            if renamed == 0 {
                // The entry may have been swapped since it was judged (case 21): what was moved
                // must be what was refused, else it goes back to the Inbox for a fresh look.
                if !Self.holds(candidate, in: target, info) {
                    Self.giveBack(candidate, from: target, to: inbox, as: name)
                    return .deferred("replaced while it was being quarantined")
                }
                _ = flush.folder(target)
                _ = flush.folder(inbox)
                try? manifest?.recordQuarantine(name: name, storedAs: Self.displayName(candidate), type: type, reason: reason,
                                                size: Int64(info.st_size), inode: UInt64(info.st_ino), device: UInt64(info.st_dev),
                                                time: Delivery.now())
                return .quarantined(reason, storedAs: Self.displayName(candidate))
            }
            if errno != EEXIST { return .refused(reason) }
        }
        return .refused(reason)
    }

    /// The entry names of an open directory, as bytes (a duplicate descriptor is read).
    static func names(inDirectory fd: Int32) -> [[UInt8]] {
        let copy = dup(fd)
        guard copy >= 0, let dir = fdopendir(copy) else { return [] }
        defer { closedir(dir) }
        // A duplicate shares the original's offset: an earlier listing left it at the end.
        rewinddir(dir)
        var result: [[UInt8]] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [0x2E] && name != [0x2E, 0x2E] { result.append(name) }
        }
        return result
    }

    /// `name` with the `-N` suffix of attempt `attempt`: through ``Delivery/suffixed(_:_:)`` for a
    /// valid UTF-8 name, byte-wise otherwise; within NAME_MAX either way.
    static func suffixed(_ name: [UInt8], _ attempt: Int) -> [UInt8] {
        if let text = String(validating: name, as: UTF8.self) { return Array(Delivery.suffixed(text, attempt).utf8) }
        guard attempt > 0 else { return name }
        let dot = name.lastIndex(of: 0x2E).flatMap { $0 > 0 ? $0 : nil } ?? name.endIndex
        var stem = Array(name[..<dot]), ext = Array(name[dot...])
        let suffix = Array("-\(attempt)".utf8)
        if ext.count + suffix.count >= 255 { ext = [] }
        while stem.count + suffix.count + ext.count > 255 { stem.removeLast() }
        return stem + suffix + ext
    }

    /// A printable form of a name: valid UTF-8 as it is, other bytes as `\xNN`.
    public static func displayName(_ name: [UInt8]) -> String {
        if let text = String(validating: name, as: UTF8.self) { return text }
        return name.map { $0 < 0x80 && $0 >= 0x20 ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16) }.joined()
    }

    static func withCString<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }
}
