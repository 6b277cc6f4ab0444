import ProcessTables
import Synchronization
import SystemCalls

/// The processes that coordinate with each other: those that map one coordination table (a
/// folder per user by default). Holds this process's presenters and runs the thread that calls
/// them when another process reads, writes, moves or deletes what they present.
public final class CoordinationSpace: Sendable {
    /// The folder of the table.
    public let directory: String

    /// The space of the default folder: `$DOCUMENT_INTERCHANGE_NOTIFY_DIR`, else
    /// `$XDG_RUNTIME_DIR/document-interchange`, else `/tmp/document-interchange-UID`.
    public static let shared = CoordinationSpace(directory: defaultDirectory())

    /// The default folder (the same one as the notification table's).
    public static func defaultDirectory() -> String {
        InterprocessFolder.defaultPath()
    }

    /// A space over the table in `directory` (created with mode 0700 when missing).
    public init(directory: String) {
        self.directory = directory
    }

    struct LocalPresenter: Sendable {
        var presenter: any FilePresenter
        var slot: Int
        var path: String
    }

    struct State: Sendable {
        var table: CoordinationTable?
        var identity: (process: Int, generation: UInt32)?
        var presenters: [UInt64: LocalPresenter] = [:]
        var nextID: UInt64 = 0
        var reacquirers: [UInt64: @Sendable () -> Void] = [:]
        var deliveryThread: UInt = 0
        var startFailure: CoordinationError?
    }

    let state = Mutex(State())
    /// The delivery thread's start, once per process.
    let deliveryStart = StartOnce<CoordinationError>()

    func table() throws(CoordinationError) -> CoordinationTable {
        if let table = state.withLock({ $0.table }) { return table }
        do throws(SystemCallError) {
            try InterprocessFolder.prepare(directory)
            let table = try CoordinationTable(path: directory + "/coordination.table")
            return state.withLock { state in
                if let current = state.table { return current }
                state.table = table
                return table
            }
        } catch {
            throw .system(error)
        }
    }

    /// The id under which `presenter` is registered here.
    func localID(of presenter: any FilePresenter) -> UInt64? {
        state.withLock { $0.presenters.first { $0.value.presenter === presenter }?.key }
    }

    /// Whether the calling thread is this space's delivery thread (a presenter method calling back).
    var onDeliveryThread: Bool { state.withLock { $0.deliveryThread == BackgroundThread.current } }

    // MARK: Presenters

    func add(_ presenter: any FilePresenter, timeout: Double) throws(CoordinationError) {
        // A presenter with no item (yet) presents nothing: Apple's sends it no messages either.
        guard localID(of: presenter) == nil, let presented = presenter.presentedItemPath else { return }
        let path = try ItemPath(presented)
        let table = try table()
        try startDelivery(table, timeout: timeout)
        guard let identity = state.withLock({ $0.identity }) else { throw .system(SystemCallError(.thread, errno: .noSuchProcess)) }
        let id = state.withLock { state -> UInt64 in state.nextID += 1; return state.nextID }
        let slot = try table.locked(timeout: timeout) { () throws(CoordinationError) -> Int in
            try table.addPresenter(process: identity.process, generation: identity.generation, localID: id, hashes: path.hashes)
        }
        state.withLock { $0.presenters[id] = LocalPresenter(presenter: presenter, slot: slot, path: path.path) }
    }

    func remove(_ presenter: any FilePresenter, timeout: Double) throws(CoordinationError) {
        guard let id = localID(of: presenter), let entry = state.withLock({ $0.presenters.removeValue(forKey: id) }) else { return }
        let table = try table()
        try table.locked(timeout: timeout) { () throws(CoordinationError) in table.removePresenter(entry.slot) }
    }

    /// Every presenter registered in this process.
    var presenters: [any FilePresenter] { state.withLock { $0.presenters.values.map(\.presenter) } }

    // MARK: Delivery

    private func startDelivery(_ table: CoordinationTable, timeout: Double) throws(CoordinationError) {
        try deliveryStart.run { () throws(CoordinationError) in
            do throws(SystemCallError) {
                try BackgroundThread.startAndWait { [self] ready in self.deliveryLoop(table, timeout: timeout, ready: ready) }
            } catch {
                throw .system(error)
            }
            if let failure = state.withLock({ $0.startFailure }) { throw failure }
        }
    }

    private func deliveryLoop(_ table: CoordinationTable, timeout: Double, ready: @Sendable () -> Void) {
        let mailbox: DatagramSocket
        do {
            let identity = try table.locked(timeout: timeout) { () throws(CoordinationError) -> (Int, UInt32) in
                let identity = try table.claimProcessRecord()
                do throws(SystemCallError) { _ = try table.records.mutex(identity.0).lock(timeout: 0.1) } catch { throw .system(error) }
                return identity
            }
            do throws(SystemCallError) { mailbox = try DatagramSocket(name: table.records.mailboxName(process: identity.0, generation: identity.1)) } catch { throw CoordinationError.system(error) }
            state.withLock { state in
                state.identity = identity
                state.deliveryThread = BackgroundThread.current
            }
        } catch {
            state.withLock { $0.startFailure = error as? CoordinationError ?? .system(SystemCallError(.thread, errno: .ioError)) }
            ready()
            return
        }
        ready()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 3 * 4096 + 4 * 1024, alignment: 8)
        while true {
            _ = try? Poll.readable([mailbox.descriptor], timeout: nil)
            while let received = try? mailbox.receive(into: buffer) {
                // Another user could send to the abstract name: their messages are dropped.
                guard received.senderUser == ProcessSignals.userID,
                      let message = PresenterMessage(decoding: UnsafeRawBufferPointer(rebasing: buffer[..<received.count])) else { continue }
                handle(message, table: table, timeout: timeout)
            }
        }
    }

    /// Calls the presenter a message is for.
    private func handle(_ message: PresenterMessage, table: CoordinationTable, timeout: Double) {
        if message.kind == .reacquire {
            state.withLock { $0.reacquirers.removeValue(forKey: message.request) }?()
            return
        }
        guard let entry = state.withLock({ $0.presenters[message.presenter] }) else {
            if message.kind == .prepare { reply(to: message, failure: nil) }
            return
        }
        let presenter = entry.presenter
        let first = String(decoding: message.first, as: UTF8.self)
        let second = String(decoding: message.second, as: UTF8.self)
        switch message.kind {
        case .prepare:
            prepare(presenter, message)
        case .changed:
            presenter.presentedItemDidChange()
        case .moved:
            // The presented item itself, or a folder above it, moved: its new path follows.
            let newPath = entry.path == first ? second : second + entry.path.dropFirst(first.count)
            presenter.presentedItemDidMove(to: newPath)
            let current = (try? ItemPath(presenter.presentedItemPath ?? newPath)) ?? ItemPath(canonical: newPath)
            state.withLock { $0.presenters[message.presenter]?.path = current.path }
            try? table.locked(timeout: timeout) { () throws(CoordinationError) in table.updatePresenter(entry.slot, hashes: current.hashes) }
        case .subitemChanged:
            presenter.presentedSubitemDidChange(at: first)
        case .subitemMoved:
            presenter.presentedSubitem(at: first, didMoveTo: second)
        case .reacquire, .reply:
            break
        }
    }

    /// Saves (or accommodates a deletion), then relinquishes, then answers: each step waits for
    /// the presenter's completion handler, which it may call from any thread, later.
    private func prepare(_ presenter: any FilePresenter, _ message: PresenterMessage) {
        let wanted = PresenterMessage.Preparation(rawValue: message.flags)
        let relinquish: @Sendable () -> Void = { [self] in
            let handOver: @Sendable ((@Sendable () -> Void)?) -> Void = { [self] reacquirer in
                if let reacquirer { state.withLock { $0.reacquirers[message.request] = reacquirer } }
                reply(to: message, failure: nil)
            }
            if wanted.contains(.relinquishToWriter) {
                presenter.relinquishPresentedItem(toWriter: handOver)
            } else if wanted.contains(.relinquishToReader) {
                presenter.relinquishPresentedItem(toReader: handOver)
            } else {
                handOver(nil)
            }
        }
        let afterSave: @Sendable ((any Error)?) -> Void = { [self] error in
            if let error { reply(to: message, failure: "\(error)") } else { relinquish() }
        }
        if wanted.contains(.accommodateDeletion) {
            presenter.accommodatePresentedItemDeletion(completionHandler: afterSave)
        } else if wanted.contains(.save) {
            presenter.savePresentedItemChanges(completionHandler: afterSave)
        } else {
            relinquish()
        }
    }

    private func reply(to message: PresenterMessage, failure: String?) {
        let answer = PresenterMessage(kind: .reply, flags: failure == nil ? 0 : 1, presenter: message.presenter, request: message.request,
                                      third: Array((failure ?? "").utf8.prefix(4096)))
        guard let socket = try? DatagramSocket(name: nil) else { return }
        try? socket.send(answer.encoded, to: message.third, timeout: 1)
    }
}
