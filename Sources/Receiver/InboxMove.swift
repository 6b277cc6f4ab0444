import CSystemShims
import Handlers
import UniformTypes
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Moves complete files out of one app's `Documents/Inbox` into its `Documents/`, through
/// directory descriptors so that a swapped folder or a planted link cannot redirect the move.
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
/// With a ``Manifest``, each move is journaled (see there) and ``recover()`` settles moves a crash
/// interrupted. Not yet: copies across file systems, quarantine, the type and sender policy, and
/// the watching job (issue #6).
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

    /// The app's own rule for a regular file that passed the checks: `nil` to accept it, else why
    /// not (the receiver's type and sender policy).
    public var accepts: (@Sendable ([UInt8], Int32) -> String?)?

    /// The app's container.
    public var container: AppContainer
    /// Files larger than this are refused.
    public var sizeLimit: Int64
    /// The journal and record of moves, if kept.
    public var manifest: Manifest?
    /// For crash-injection tests: `INBOXD_CRASH_AT` = `intent`, `renamed` or `flushed` makes the
    /// process kill itself with SIGKILL at that step of its first move.
    let crashPoint: String?

    /// A mover for `container`'s Inbox.
    public init(container: AppContainer, sizeLimit: Int64 = 1 << 32, manifest: Manifest? = nil) {
        self.container = container
        self.sizeLimit = sizeLimit
        self.manifest = manifest
        crashPoint = getenv("INBOXD_CRASH_AT").map { String(cString: $0) }
    }

    func crash(at point: String) {
        if crashPoint == point { raise(SIGKILL) }
    }

    /// Settles the moves a crash interrupted (rows still `moving` whose process is gone; another
    /// receiver's move in progress is left alone): the file is in the Inbox under
    /// its name (the rename did not happen: the row is dropped and the file will be moved again),
    /// or in `Documents/` (found by inode: the row becomes `stored`), or neither (the app deleted
    /// it from the Inbox, as it may: the row is dropped).
    public func recover() throws(HandlerError) {
        guard let manifest else { return }
        let pending = try manifest.entries(status: "moving")
        guard !pending.isEmpty else { return }
        for entry in pending where !ProcessIdentity.isRunning(entry.ownerPID, startedAt: entry.ownerStart) {
            var info = stat()
            let inInbox = Self.withCString(Array(container.inbox.utf8) + [0x2F] + entry.originalName) { lstat($0, &info) } == 0
                && UInt64(info.st_ino) == entry.inode && UInt64(info.st_dev) == entry.device
            if inInbox { try manifest.finish(entry.id, storedAs: nil, time: Delivery.now()); continue }
            let documents = open(container.documents, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            var found: [UInt8]?
            if documents >= 0 {
                for name in Self.names(inDirectory: documents) {
                    var candidate = stat()
                    if Self.withCString(name, { fstatat(documents, $0, &candidate, AT_SYMLINK_NOFOLLOW) }) == 0,
                       UInt64(candidate.st_ino) == entry.inode, UInt64(candidate.st_dev) == entry.device { found = name; break }
                }
                fsync(documents)
                close(documents)
            }
            try manifest.finish(entry.id, storedAs: found.map(Self.displayName), time: Delivery.now())
        }
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
        let documents = open(container.documents, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard documents >= 0 else { throw .system("cannot open \(container.documents)", errno) }
        defer { close(documents) }
        var results: [([UInt8], Outcome)] = []
        var batch: [Ready] = []
        for name in Self.names(inDirectory: inbox).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            switch prepare(name, from: inbox) {
            case .ready(let item):
                batch.append(item)
                if batch.count == Self.batchSize { results += commit(batch, from: inbox, to: documents); batch = [] }
            case .done(var outcome):
                // A second link may be a sender's own name about to be removed: give it time.
                if case .refused(let reason) = outcome, manifest != nil,
                   !(reason.hasSuffix(Self.linkedElsewhere) && changedRecently(name, in: inbox)) {
                    outcome = quarantine(name, from: inbox, reason: reason)
                }
                results.append((name, outcome))
            }
        }
        results += commit(batch, from: inbox, to: documents)
        return results.sorted { $0.0.lexicographicallyPrecedes($1.0) }
    }

    static let linkedElsewhere = " (a link to a file elsewhere)"

    /// Files moved together: one journal transaction, then each rename, then one flush per folder
    /// and one completion transaction (group commit). Bounds the open descriptors of a pass.
    static let batchSize = 256

    /// An Inbox entry that passed every check, flushed and still open.
    struct Ready {
        var name: [UInt8]
        var fd: Int32
        var info: stat
        var sha256: String
        var request: OpenRequests.Request?
    }

    enum Prepared {
        case ready(Ready)
        case done(Outcome)
    }

    /// Checks one entry and flushes it: the steps of a move before the rename.
    func prepare(_ name: [UInt8], from inbox: Int32) -> Prepared {
        let fd = Self.withCString(name) { openat(inbox, $0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }
        if fd < 0 {
            switch errno {
            case ELOOP: return .done(.refused("a symbolic link"))
            case ENOENT: return .done(.deferred("gone before it could be opened"))
            case ENXIO: return .done(.refused("a socket or FIFO without a writer"))
            default: return .done(.deferred("cannot open: \(String(cString: strerror(errno)))"))
            }
        }
        func fail(_ outcome: Outcome) -> Prepared { close(fd); return .done(outcome) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return fail(.deferred("cannot stat: \(String(cString: strerror(errno)))")) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return fail(.refused("a folder"))
        case S_IFIFO: return fail(.refused("a FIFO"))
        case S_IFCHR, S_IFBLK: return fail(.refused("a device node"))
        default: return fail(.refused("not a regular file"))
        }
        guard info.st_nlink == 1 else { return fail(.refused("\(info.st_nlink) hard links" + Self.linkedElsewhere)) }
        guard Int64(info.st_size) <= sizeLimit else { return fail(.refused("\(info.st_size) bytes, over the limit of \(sizeLimit)")) }
        if let accepts, let reason = accepts(name, fd) { return fail(.refused(reason)) }
        let request = manifest == nil ? nil : OpenRequests.find(for: Self.displayName(name), in: container)
        if !allowedSenders.isEmpty {
            guard let sender = request?.sender else { return fail(.refused("no open request names its sender")) }
            guard allowedSenders.contains(where: { sender.hasPrefix($0) }) else { return fail(.refused("its sender \(sender) is not allowed")) }
        }
        if di_no_other_writer(fd) != 0 && errno == EAGAIN { return fail(.deferred("still open for writing")) }
        // Only when needed: a mode change dirties the inode, and its fsync then costs a journal commit.
        if info.st_mode & 0o7777 != 0o644 {
            guard fchmod(fd, 0o644) == 0 else { return fail(.deferred("cannot set its mode: \(String(cString: strerror(errno)))")) }
        }
        guard fsync(fd) == 0 else { return fail(.deferred("fsync failed: \(String(cString: strerror(errno)))")) }
        var digest = ""
        if manifest != nil {
            guard let sum = FileDigest.sha256(of: fd) else { return fail(.deferred("cannot read it: \(String(cString: strerror(errno)))")) }
            digest = sum
        }
        return .ready(Ready(name: name, fd: fd, info: info, sha256: digest, request: request))
    }

    /// Journals, renames and flushes a batch of prepared entries.
    func commit(_ batch: [Ready], from inbox: Int32, to documents: Int32) -> [([UInt8], Outcome)] {
        guard !batch.isEmpty else { return [] }
        defer { for item in batch { close(item.fd) } }
        var ids: [Int64?] = Array(repeating: nil, count: batch.count)
        if let manifest {
            do {
                let now = Delivery.now()
                ids = try manifest.transaction { () throws(HandlerError) -> [Int64?] in
                    var result: [Int64?] = []
                    for item in batch {
                        result.append(try manifest.beginMove(name: item.name, planned: Self.displayName(item.name),
                                                             size: Int64(item.info.st_size), sha256: item.sha256,
                                                             inode: UInt64(item.info.st_ino), device: UInt64(item.info.st_dev), time: now,
                                                             sender: item.request?.sender, annotation: item.request?.annotation))
                    }
                    return result
                }
            } catch {
                return batch.map { ($0.name, .deferred("\(error)")) }
            }
            crash(at: "intent")
        }
        var outcomes: [Outcome] = []
        var finished: [(Int64, String?)] = []
        for (k, item) in batch.enumerated() {
            let outcome = rename(item.name, from: inbox, to: documents)
            if case .moved = outcome { crash(at: "renamed") }
            outcomes.append(outcome)
            if let id = ids[k] {
                if case .moved(let stored) = outcome { finished.append((id, stored)) } else { finished.append((id, nil)) }
            }
        }
        guard !outcomes.contains(where: { if case .moved = $0 { true } else { false } }) || fsync(documents) == 0 else {
            // Renamed but not known durable: the rows stay `moving`, settled by the next start.
            return zip(batch, outcomes).map { item, outcome in
                if case .moved = outcome { (item.name, .deferred("moved, but flushing Documents failed")) } else { (item.name, outcome) }
            }
        }
        crash(at: "flushed")
        fsync(inbox)
        if let manifest, !finished.isEmpty {
            let now = Delivery.now()
            try? manifest.transaction { () throws(HandlerError) in
                for (id, stored) in finished { try manifest.finish(id, storedAs: stored, time: now) }
            }
            // The requests of stored documents are in the manifest now.
            for (item, outcome) in zip(batch, outcomes) {
                if case .moved = outcome, let request = item.request { unlink(request.path) }
            }
        }
        return zip(batch, outcomes).map { ($0.name, $1) }
    }

    /// `renameat2(RENAME_NOREPLACE)` into `Documents/` under the name or the first free `name-N`.
    func rename(_ name: [UInt8], from inbox: Int32, to documents: Int32) -> Outcome {
        for attempt in 0..<100_000 {
            let candidate = Self.suffixed(name, attempt)
            let renamed = Self.withCString(name) { old in Self.withCString(candidate) { new in di_rename_noreplace(inbox, old, documents, new) } }
            if renamed == 0 { return .moved(Self.displayName(candidate)) }
            switch errno {
            case EEXIST: continue
            case ENOENT: return .deferred("gone during the move (another receiver took it)")
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
    func quarantine(_ name: [UInt8], from inbox: Int32, reason: String) -> Outcome {
        let folder = container.library + "/Quarantine"
        do { try FileSystem.makeDirectories(folder) } catch { return .refused(reason) }
        let target = open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard target >= 0 else { return .refused(reason) }
        defer { close(target) }
        var info = stat()
        _ = Self.withCString(name) { fstatat(inbox, $0, &info, AT_SYMLINK_NOFOLLOW) }
        for attempt in 0..<100_000 {
            let candidate = Self.suffixed(name, attempt)
            let renamed = Self.withCString(name) { old in Self.withCString(candidate) { new in di_rename_noreplace(inbox, old, target, new) } }
            if renamed == 0 {
                fsync(target)
                fsync(inbox)
                try? manifest?.recordQuarantine(name: name, storedAs: Self.displayName(candidate), reason: reason,
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
