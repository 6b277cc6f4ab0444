import CSystemShims
import Handlers
import Logging
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Watches Inboxes and moves what arrives, until SIGTERM or SIGINT (the move in progress is
/// finished first).
///
/// Watch first, then scan: each Inbox gets an inotify watch (close after writing, moved in,
/// created, for `link()` and `O_TMPFILE` + `linkat()` arrivals that never close under their
/// final name) before its first pass, so nothing arriving in between is missed. Any event for an
/// Inbox triggers a pass over it (a pass is idempotent, so duplicate events cost nothing); the
/// queue overflowing (`IN_Q_OVERFLOW`) triggers a pass over every Inbox; a watch that is lost
/// (the folder deleted or replaced) is set again and followed by a pass; and every Inbox is passed
/// over every `rescanInterval` seconds, which also retries files that were still being written.
public struct InboxWatcher {
    /// The movers, one per Inbox.
    public var movers: [InboxMover]
    /// Seconds between full passes.
    public var rescanInterval: Double
    /// Called with each pass's outcomes.
    public var report: (AppContainer, [(name: [UInt8], outcome: InboxMover.Outcome)]) -> Void
    /// Where the watcher says what it does: each pass and why it ran (debug), lost watches and
    /// queue overflows (notice).
    public var logger: Logger

    /// A watcher over `movers`' Inboxes.
    public init(movers: [InboxMover], rescanInterval: Double = 5, logger: Logger = Logger(label: "inboxd"),
                report: @escaping (AppContainer, [(name: [UInt8], outcome: InboxMover.Outcome)]) -> Void) {
        self.movers = movers
        self.rescanInterval = rescanInterval
        self.logger = logger
        self.report = report
    }

    /// Why a pass runs.
    enum Trigger: String {
        case start, event, overflow, watchLost = "watch-lost", rescan
    }

    /// Runs until SIGTERM or SIGINT.
    /// - Throws: ``HandlerError`` when inotify or the signal descriptor cannot be set up.
    public func run() throws(HandlerError) {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        sigprocmask(SIG_BLOCK, &signals, nil)
        let signalFD = di_signalfd(&signals)
        guard signalFD >= 0 else { throw .system("signalfd", errno) }
        defer { close(signalFD) }
        let inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0 else { throw .system("inotify_init1", errno) }
        defer { close(inotify) }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
        var watches: [Int32: Int] = [:]
        func watch(_ index: Int) {
            try? movers[index].container.create()
            let wd = inotify_add_watch(inotify, movers[index].container.inbox, mask)
            if wd >= 0 { watches[wd] = index } else {
                logger.warning("cannot watch", metadata: ["inbox": "\(movers[index].container.inbox)", "errno": "\(errno)"])
            }
        }
        func pass(_ index: Int, _ trigger: Trigger) {
            do {
                let results = try movers[index].moveAll()
                logger.debug("pass", metadata: ["inbox": "\(movers[index].container.inbox)", "trigger": "\(trigger.rawValue)", "entries": "\(results.count)"])
                if !results.isEmpty { report(movers[index].container, results) }
            } catch {
                logger.error("pass failed", metadata: ["inbox": "\(movers[index].container.inbox)", "error": "\(error)"])
            }
        }
        for index in movers.indices { watch(index); pass(index, .start) }
        var lastFullPass = Delivery.now()
        let bufferSize = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            var fds = [pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0), pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)]
            let wait = max(0, rescanInterval - (Delivery.now() - lastFullPass))
            let ready = poll(&fds, 2, Int32(wait * 1000))
            if ready < 0 && errno != EINTR { throw .system("poll", errno) }
            if fds[0].revents != 0 { return }   // SIGTERM or SIGINT: no move is in progress here
            var due: [Int: Trigger] = [:]
            // The whole queue is read before any pass: one pass serves a burst of events, and an
            // overflow at the end of a long queue is seen at once.
            while fds[1].revents != 0 {
                let n = read(inotify, buffer, bufferSize)
                if n <= 0 { break }
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= n {
                    let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                    if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                        logger.notice("event queue overflowed: passing over every Inbox")
                        for index in movers.indices { due[index] = .overflow }
                    } else if let index = watches[event.wd] {
                        if due[index] == nil { due[index] = .event }
                        if event.mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                            logger.notice("watch lost: setting it again", metadata: ["inbox": "\(movers[index].container.inbox)"])
                            watches[event.wd] = nil
                            inotify_rm_watch(inotify, event.wd)
                            watch(index)
                            due[index] = .watchLost
                        }
                    }
                    offset += MemoryLayout<inotify_event>.size + Int(event.len)
                }
            }
            if Delivery.now() - lastFullPass >= rescanInterval {
                for index in movers.indices where due[index] == nil { due[index] = .rescan }
                lastFullPass = Delivery.now()
            }
            for (index, trigger) in due.sorted(by: { $0.key < $1.key }) { pass(index, trigger) }
        }
    }
}
