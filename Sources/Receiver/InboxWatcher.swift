import Handlers
import Logging
import SystemCalls

/// Watches a device root's Inboxes and moves what arrives, until SIGTERM or SIGINT (the move in
/// progress is finished first). Apps whose container appears later (a first delivery, a new
/// registration) are picked up as they appear, and the root itself may start empty.
///
/// Watch first, then scan: each Inbox gets an inotify watch (close after writing, moved in,
/// created, for `link()` and `O_TMPFILE` + `linkat()` arrivals that never close under their
/// final name) before its first pass, so nothing arriving in between is missed; so does its
/// `Library/OpenRequests/` (a request arriving is worth a pass), the root (for `Containers/`) and
/// `Containers/` (for new apps). Any event for an Inbox triggers a pass over it (a pass is
/// idempotent, so duplicate events cost nothing); the queue overflowing (`IN_Q_OVERFLOW`)
/// triggers a pass over every Inbox; a watch that is lost (the folder deleted or replaced) is set
/// again and followed by a pass; and every Inbox is passed over every `rescanInterval` seconds,
/// which also retries files that were still being written.
public struct InboxWatcher {
    /// What the watcher serves.
    public var receiver: DeviceReceiver
    /// Called with each pass's outcomes.
    public var report: (String, [EntryOutcome]) -> Void

    /// A watcher for `receiver`'s apps.
    public init(receiver: DeviceReceiver, report: @escaping (String, [EntryOutcome]) -> Void) {
        self.receiver = receiver
        self.report = report
    }

    /// Why a pass runs.
    enum Trigger: String {
        case start, event, request, overflow, watchLost = "watch-lost", rescan, appeared
    }

    /// What a watch descriptor stands for.
    enum Watched: Hashable {
        case root, containers, inbox(String), requests(String)
    }

    /// Runs until SIGTERM or SIGINT.
    /// - Throws: ``ReceiverError`` when inotify or the signal descriptor cannot be set up, or the
    ///   root cannot be created.
    public func run() throws(ReceiverError) {
        let logger = receiver.logger
        let root = receiver.options.root
        let signals: SignalDescriptor, inotify: Inotify
        do {
            signals = try SignalDescriptor(SignalDescriptor.termination)
            inotify = try Inotify()
            // A default root not set up yet is the service's own to create; a named one exists.
            try FileSystem.makeDirectories(root.path)
        } catch { throw .system(error) }
        var watches: [Int32: Watched] = [:]
        var movers: [String: InboxMover] = [:]
        let inboxEvents: InotifyEvents = [.closedAfterWriting, .movedIn, .created, .attributesChanged, .selfDeleted, .selfMoved, .onlyFolder]
        let folderEvents: InotifyEvents = [.created, .movedIn, .onlyFolder]

        func watch(_ path: String, _ what: Watched, _ events: InotifyEvents) {
            do { watches[try inotify.watch(path, for: events)] = what } catch {
                if error.errno != .noSuchFileOrDirectory { logger.warning("cannot watch", metadata: ["path": "\(path)", "error": "\(error)"]) }
            }
        }
        /// Adds the apps that have a container now and are not served yet.
        func discover() -> [String] {
            var added: [String] = []
            for app in receiver.apps() where movers[app] == nil {
                do {
                    let mover = try receiver.mover(for: app)
                    movers[app] = mover
                    watch(mover.container.inbox, .inbox(app), inboxEvents)
                    watch(mover.container.openRequests, .requests(app), [.closedAfterWriting, .movedIn, .onlyFolder])
                    added.append(app)
                } catch {
                    logger.error("cannot serve app", metadata: ["app": "\(app)", "error": "\(error)"])
                }
            }
            return added
        }
        func pass(_ app: String, _ trigger: Trigger) {
            guard var mover = movers[app] else { return }
            mover.policy = receiver.policy(for: app)
            do {
                let results = try mover.moveAll()
                logger.debug("pass", metadata: ["app": "\(app)", "trigger": "\(trigger.rawValue)", "entries": "\(results.count)"])
                if !results.isEmpty { report(app, results) }
            } catch {
                logger.error("pass failed", metadata: ["app": "\(app)", "error": "\(error)"])
            }
        }

        watch(root.path, .root, folderEvents)
        watch(root.containersDirectory, .containers, folderEvents)
        for app in discover() { pass(app, .start) }
        logger.info("watching", metadata: ["root": "\(root.path)", "apps": "\(movers.count)", "rescan": "\(receiver.options.rescanInterval)"])
        var lastFullPass = Clock.monotonic()
        let interval = receiver.options.rescanInterval
        while true {
            let ready: [Bool]
            do {
                ready = try Poll.readable([signals.descriptor, inotify.descriptor], timeout: max(0, interval - (Clock.monotonic() - lastFullPass)))
            } catch { throw .system(error) }
            if ready[0] { return }   // SIGTERM or SIGINT: no move is in progress here
            var due: [String: Trigger] = [:]
            var rediscover = false
            // The whole queue is read before any pass: one pass serves a burst of events, and an
            // overflow at the end of a long queue is seen at once.
            if ready[1] {
                let events: [InotifyEvent]
                do { events = try inotify.pendingEvents() } catch { throw .system(error) }
                for event in events {
                    if event.events.contains(.overflow) {
                        logger.notice("event queue overflowed: passing over every Inbox")
                        for app in movers.keys { due[app] = .overflow }
                        rediscover = true
                        continue
                    }
                    guard let what = watches[event.watch] else { continue }
                    switch what {
                    case .root:
                        if event.name == Array("Containers".utf8) { watch(root.containersDirectory, .containers, folderEvents); rediscover = true }
                    case .containers:
                        rediscover = true
                    case .requests(let app):
                        if due[app] == nil { due[app] = .request }
                    case .inbox(let app):
                        if due[app] == nil { due[app] = .event }
                        if !event.events.isDisjoint(with: [.ignored, .selfDeleted, .selfMoved]) {
                            logger.notice("watch lost: setting it again", metadata: ["app": "\(app)"])
                            watches[event.watch] = nil
                            inotify.remove(event.watch)
                            if let mover = movers[app] {
                                try? mover.container.create()
                                watch(mover.container.inbox, .inbox(app), inboxEvents)
                            }
                            due[app] = .watchLost
                        }
                    }
                }
            }
            if rediscover { for app in discover() { due[app] = .appeared } }
            if Clock.monotonic() - lastFullPass >= interval {
                for app in discover() { due[app] = .appeared }
                for app in movers.keys where due[app] == nil { due[app] = .rescan }
                lastFullPass = Clock.monotonic()
            }
            for (app, trigger) in due.sorted(by: { $0.key < $1.key }) { pass(app, trigger) }
        }
    }
}
