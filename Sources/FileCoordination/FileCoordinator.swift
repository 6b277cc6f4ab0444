import ProcessTables
import Synchronization
import SystemCalls

/// Coordinated reading and writing of files and folders between processes, with Apple's
/// semantics (`NSFileCoordinator`): readers share an item, a writer excludes every other
/// reader and writer of it, of the items inside it and of the folders above it; presenters
/// (``FilePresenter``) in any process are asked to save before and told after. Waits are
/// first come, first served, and end after ``timeout`` seconds with an error that names the
/// process in the way, whether it is stopped or not (a stopped holder keeps its claim; a dead
/// one loses it at once).
///
/// ```swift
/// let coordinator = FileCoordinator()
/// try coordinator.coordinate(writingItemAt: "/group/notes.plist") { path in
///     try? AtomicWriter.writeContents(bytes, to: path)
/// }
/// ```
///
/// The accessor runs on the calling thread. A coordinator made with a presenter never sends
/// that presenter messages about its own accesses.
public final class FileCoordinator: Sendable {
    /// The presenter whose own accesses these are (it is not told about them).
    public let filePresenter: (any FilePresenter)?
    /// The processes coordinated with.
    public let space: CoordinationSpace
    /// How long to wait for a conflicting access, the table, or a presenter's answer.
    public let timeout: Double
    private let cancelled = Atomic<Bool>(false)

    /// A coordinator for `filePresenter`'s accesses (or nobody's) in `space`.
    public init(filePresenter: (any FilePresenter)? = nil, space: CoordinationSpace = .shared, timeout: Double = 10) {
        self.filePresenter = filePresenter
        self.space = space
        self.timeout = timeout
    }

    // MARK: Presenters

    /// Registers `presenter` (its ``FilePresenter/presentedItemPath``) with every coordinating
    /// process. `NSFileCoordinator.addFilePresenter(_:)`.
    public static func addFilePresenter(_ presenter: any FilePresenter, space: CoordinationSpace = .shared, timeout: Double = 10) throws(CoordinationError) {
        try space.add(presenter, timeout: timeout)
    }

    /// Unregisters `presenter`. `NSFileCoordinator.removeFilePresenter(_:)`.
    public static func removeFilePresenter(_ presenter: any FilePresenter, space: CoordinationSpace = .shared, timeout: Double = 10) throws(CoordinationError) {
        try space.remove(presenter, timeout: timeout)
    }

    /// The presenters registered by this process. `NSFileCoordinator.filePresenters`.
    public static func filePresenters(space: CoordinationSpace = .shared) -> [any FilePresenter] { space.presenters }

    /// Makes accesses not yet started fail with ``CoordinationError/cancelled(path:)``.
    /// `NSFileCoordinator.cancel()`.
    public func cancel() { cancelled.store(true, ordering: .sequentiallyConsistent) }

    // MARK: Coordinating

    /// Reads the item at `path`: waits for writers, asks its presenters to save (unless
    /// ``ReadingOptions/withoutChanges``), then runs `accessor` with the path to read.
    public func coordinate<T>(readingItemAt path: String, options: ReadingOptions = [], byAccessor accessor: (String) -> T) throws(CoordinationError) -> T {
        try coordinate([.reading(path, options: options)]) { paths in accessor(paths[0]) }
    }

    /// Writes the item at `path`: waits for every other access, asks its presenters to save (or
    /// to accommodate a deletion), runs `accessor`, then tells them.
    public func coordinate<T>(writingItemAt path: String, options: WritingOptions = [], byAccessor accessor: (String) -> T) throws(CoordinationError) -> T {
        try coordinate([.writing(path, options: options)]) { paths in accessor(paths[0]) }
    }

    /// Reads one item and writes another as one access (copying, saving a derived file).
    public func coordinate<T>(readingItemAt readPath: String, options readOptions: ReadingOptions = [], writingItemAt writePath: String,
                              options writeOptions: WritingOptions = [], byAccessor accessor: (String, String) -> T) throws(CoordinationError) -> T {
        try coordinate([.reading(readPath, options: readOptions), .writing(writePath, options: writeOptions)]) { paths in accessor(paths[0], paths[1]) }
    }

    /// Writes two items as one access (a move: `.forMoving` and `.forReplacing`).
    public func coordinate<T>(writingItemAt path1: String, options options1: WritingOptions = [], writingItemAt path2: String,
                              options options2: WritingOptions = [], byAccessor accessor: (String, String) -> T) throws(CoordinationError) -> T {
        try coordinate([.writing(path1, options: options1), .writing(path2, options: options2)]) { paths in accessor(paths[0], paths[1]) }
    }

    /// Accesses every item of `intents` as one (no deadlock, whatever the order of the items
    /// in other processes' calls). `NSFileCoordinator.coordinate(with:queue:byAccessor:)`,
    /// run on the calling thread.
    public func coordinate<T>(with intents: [FileAccessIntent], byAccessor accessor: ([String]) -> T) throws(CoordinationError) -> T {
        try coordinate(intents, accessor)
    }

    /// Says that the item at `oldPath` is being moved (inside a `.forMoving` write).
    /// `item(at:willMoveTo:)`: nothing to do here, kept for the API's shape.
    public func item(at oldPath: String, willMoveTo newPath: String) {}

    /// Tells presenters of the item at `oldPath` (and of items inside it) that it is now at
    /// `newPath`, and presenters of folders above it that a subitem moved. Call it inside the
    /// accessor of a `.forMoving` write, after the move. `item(at:didMoveTo:)`.
    public func item(at oldPath: String, didMoveTo newPath: String) {
        guard let table = try? space.table(), let old = try? ItemPath(oldPath), let new = try? ItemPath(newPath) else { return }
        let own = filePresenter.flatMap(space.localID(of:))
        let related = (try? table.locked(timeout: timeout) { () throws(CoordinationError) -> [CoordinationTable.Presenter] in
            table.presenters(relatedTo: old.hashes)
        }) ?? []
        var messages: [(CoordinationTable.Presenter, PresenterMessage)] = []
        for presenter in related where presenter.localID != own || presenter.process != space.state.withLock({ $0.identity?.process }) {
            let kind: PresenterMessage.Kind = ItemPath.contains(old.hashes, presenter.hashes) ? .moved : .subitemMoved
            messages.append((presenter, PresenterMessage(kind: kind, presenter: presenter.localID, first: Array(old.path.utf8), second: Array(new.path.utf8))))
        }
        send(messages, table: table)
    }

    private func coordinate<T>(_ intents: [FileAccessIntent], _ accessor: ([String]) -> T) throws(CoordinationError) -> T {
        var items: [ItemPath] = []
        for intent in intents {
            if case .reading(let options) = intent.access, options.contains(.resolvesSymbolicLink) {
                items.append(try ItemPath(intent.path))
            } else {
                items.append(try Self.unresolvedLast(intent.path))
            }
        }
        if cancelled.load(ordering: .sequentiallyConsistent) { throw .cancelled(path: intents.first?.path ?? "") }
        let table = try space.table()
        let thread = UInt64(BackgroundThread.current)
        let deadline = Clock.monotonic() + timeout
        // Presenters: asked before, told after; never this coordinator's own.
        let own = filePresenter.flatMap(space.localID(of:))
        let ownProcess = space.state.withLock { $0.identity?.process }
        let presenters = { items.map { table.presenters(relatedTo: $0.hashes).filter { !($0.localID == own && $0.process == ownProcess) } } }
        // One pass under the lock when nothing is in the way: claim, look for a blocker, find presenters.
        let (ticket, claims, blocked, first) = try table.locked(timeout: timeout) { () throws(CoordinationError) in
            let (ticket, claims) = try table.addClaims(zip(items, intents).map { ($0.hashes, $1.isWriting) }, thread: thread)
            let blocked = table.blocker(of: claims, ticket: ticket, thread: thread) != nil
            return (ticket, claims, blocked, blocked ? [] : presenters())
        }
        defer { try? table.locked(timeout: timeout) { () throws(CoordinationError) in table.removeClaims(claims) } }
        var related = first
        if blocked {
            try waitForTurn(table, claims: claims, ticket: ticket, thread: thread, deadline: deadline, shown: intents[0].path)
            related = try table.locked(timeout: max(0, deadline - Clock.monotonic())) { () throws(CoordinationError) in presenters() }
        }
        var asked: [(CoordinationTable.Presenter, PresenterMessage)] = []
        var generator = SystemRandomNumberGenerator()
        for (index, intent) in intents.enumerated() {
            for presenter in related[index] where ItemPath.contains(items[index].hashes, presenter.hashes) {
                var wanted: PresenterMessage.Preparation
                switch intent.access {
                case .reading(let options): wanted = options.contains(.withoutChanges) ? [.relinquishToReader] : [.save, .relinquishToReader]
                case .writing(let options): wanted = options.contains(.forDeleting) ? [.accommodateDeletion, .relinquishToWriter] : [.save, .relinquishToWriter]
                }
                asked.append((presenter, PresenterMessage(kind: .prepare, flags: wanted.rawValue, presenter: presenter.localID, request: generator.next())))
            }
        }
        if !asked.isEmpty { try ask(asked, table: table, deadline: deadline, shown: intents[0].path) }
        let result = accessor(items.map(\.path))
        var told: [(CoordinationTable.Presenter, PresenterMessage)] = asked.map { presenter, message in
            (presenter, PresenterMessage(kind: .reacquire, presenter: presenter.localID, request: message.request))
        }
        for (index, intent) in intents.enumerated() {
            guard case .writing(let options) = intent.access, !options.contains(.forMoving) else { continue }
            for presenter in related[index] {
                if presenter.hashes == items[index].hashes {
                    if !options.contains(.forDeleting) { told.append((presenter, PresenterMessage(kind: .changed, presenter: presenter.localID))) }
                } else if ItemPath.contains(presenter.hashes, items[index].hashes) {
                    told.append((presenter, PresenterMessage(kind: .subitemChanged, presenter: presenter.localID, first: Array(items[index].path.utf8))))
                }
            }
        }
        send(told, table: table)
        return result
    }

    /// The path canonical up to its parent, the last component kept as given (a link is
    /// coordinated as itself, not as its target, unless the reader asks to resolve it).
    private static func unresolvedLast(_ path: String) throws(CoordinationError) -> ItemPath {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/"), trimmed != "/" else { return try ItemPath(trimmed) }
        let last = trimmed[trimmed.index(after: slash)...]
        if last == "." || last == ".." || last.isEmpty { return try ItemPath(trimmed) }
        let parent = try ItemPath(slash == trimmed.startIndex ? "/" : String(trimmed[..<slash]))
        return ItemPath(canonical: (parent.path == "/" ? "" : parent.path) + "/" + last)
    }

    /// Waits until no older conflicting claim is left. The wait on a blocker's mutex is cut
    /// into slices of 5 ms: when a blocker ends, its slot may be taken by a newer claim (which
    /// itself waits for us) before we get to its mutex; after each slice the slot is looked at
    /// again, and a slot that holds another claim by then is not waited for.
    private func waitForTurn(_ table: CoordinationTable, claims: [Int], ticket: UInt64, thread: UInt64, deadline: Double, shown: String) throws(CoordinationError) {
        while true {
            guard let blocker = try table.locked(timeout: max(0, deadline - Clock.monotonic()), { () throws(CoordinationError) -> CoordinationTable.Claim? in
                table.blocker(of: claims, ticket: ticket, thread: thread)
            }) else { return }
            while true {
                let remaining = deadline - Clock.monotonic()
                guard remaining > 0 else {
                    throw .timedOut(path: shown, holder: blocker.pid, stopped: ProcessSignals.state(of: blocker.pid) == .stopped, seconds: timeout)
                }
                let outcome: SharedMutex.Acquired?
                do {
                    outcome = try table.claimMutex(blocker.index).lock(timeout: min(remaining, 0.005))
                    table.claimMutex(blocker.index).unlock()
                } catch where error.errno == .timedOut {
                    outcome = nil
                } catch {
                    throw .system(error)
                }
                if let outcome {
                    if outcome == .previousOwnerDied {
                        // Its holder died mid-access: the claim goes.
                        try table.locked(timeout: max(0, deadline - Clock.monotonic())) { () throws(CoordinationError) in table.reapDeadClaims() }
                    }
                    break
                }
                let same = try table.locked(timeout: max(0, deadline - Clock.monotonic())) { () throws(CoordinationError) -> Bool in
                    table.claim(blocker.index)?.ticket == blocker.ticket
                }
                if !same { break }
            }
        }
    }

    /// Sends `prepare` requests and waits for every answer.
    private func ask(_ requests: [(CoordinationTable.Presenter, PresenterMessage)], table: CoordinationTable, deadline: Double, shown: String) throws(CoordinationError) {
        let replies: DatagramSocket
        do { replies = try DatagramSocket(name: nil) } catch { throw .system(error) }
        var waiting: [UInt64: CoordinationTable.Presenter] = [:]
        for (presenter, message) in requests {
            var request = message
            request.third = replies.name
            waiting[request.request] = presenter
            do {
                try replies.send(request.encoded, to: table.records.mailboxName(process: presenter.process, generation: presenter.generation),
                                 timeout: max(0, deadline - Clock.monotonic()))
            } catch where error.errno == .connectionRefused {
                waiting[request.request] = nil
            } catch {
                throw .presenterDidNotRespond(path: shown, process: presenter.pid, request: "prepare", seconds: timeout)
            }
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8192, alignment: 8)
        defer { buffer.deallocate() }
        while let (_, presenter) = waiting.first {
            let remaining = deadline - Clock.monotonic()
            guard remaining > 0 else {
                throw .presenterDidNotRespond(path: shown, process: presenter.pid, request: "save and relinquish", seconds: timeout)
            }
            _ = try? Poll.readable([replies.descriptor], timeout: remaining)
            while let received = try? replies.receive(into: buffer) {
                guard received.senderUser == ProcessSignals.userID,
                      let reply = PresenterMessage(decoding: UnsafeRawBufferPointer(rebasing: buffer[..<received.count])), reply.kind == .reply,
                      let from = waiting.removeValue(forKey: reply.request) else { continue }
                if reply.flags & 1 == 1 { throw .presenterFailed(path: shown, process: from.pid, message: String(decoding: reply.third, as: UTF8.self)) }
            }
        }
    }

    /// Sends one-way messages, best effort (a presenter that died meanwhile is skipped).
    private func send(_ messages: [(CoordinationTable.Presenter, PresenterMessage)], table: CoordinationTable) {
        guard !messages.isEmpty, let socket = try? DatagramSocket(name: nil) else { return }
        for (presenter, message) in messages {
            try? socket.send(message.encoded, to: table.records.mailboxName(process: presenter.process, generation: presenter.generation), timeout: 1)
        }
    }
}
