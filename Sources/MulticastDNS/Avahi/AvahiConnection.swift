import CAvahi
import Synchronization
import SystemCalls

/// A libavahi-client connection to the machine's avahi-daemon, with its own event thread
/// (`AvahiThreadedPoll`): what an Avahi-backed responder or browser publishes and browses through.
///
/// libavahi-client is not thread-safe: every call into it happens on the poll's thread (in a
/// callback, where the poll's lock is held) or inside ``withLock(_:)``. Hence `@unchecked
/// Sendable`: the C objects are guarded by that lock, not by Swift.
final class AvahiConnection: @unchecked Sendable {
    /// The outcome of connecting, read by the thread that waits for it.
    private enum Progress { case waiting, running, failed(String) }

    private let poll: OpaquePointer
    /// Set once in ``connect(timeout:)``, freed in ``close()``.
    private(set) var client: OpaquePointer?
    private let progress = Mutex<Progress>(.waiting)
    /// The thread running a callback now (0 when none): ``withLock(_:)`` called from inside a
    /// callback must not take the poll's lock again, which is not recursive.
    private let dispatchingThread = Atomic<UInt>(0)
    /// Whether the client and poll are freed. Held while another thread works under the poll's
    /// lock, so that a close cannot free them in between; never taken on the poll's thread, which
    /// a close waits for.
    private let closed = Mutex(false)
    /// Called once, on the poll's thread with its lock held, when the daemon goes away after the
    /// connection was running (it stopped or restarted, or the bus did).
    private var onFailure: (@Sendable (String) -> Void)?

    /// The repeating timers of ``every(_:_:)``, kept until the poll (which frees their timeouts)
    /// is freed.
    private var timers: [RepeatingTimer] = []

    private init(poll: OpaquePointer) {
        self.poll = poll
    }

    /// Connects to avahi-daemon over the system bus (`DBUS_SYSTEM_BUS_ADDRESS` when set, as
    /// libdbus reads it) and waits up to `timeout` seconds for the daemon's running state
    /// (`AVAHI_CLIENT_S_RUNNING`: its host name is established, so entry groups can be committed).
    /// Without a bus or a daemon on it, avahi_client_new fails at once. The corresponding C
    /// functions are `avahi_threaded_poll_new`, `avahi_client_new` and `avahi_threaded_poll_start`.
    static func connect(timeout: Double) throws(MulticastDNSError) -> AvahiConnection {
        guard let poll = avahi_threaded_poll_new() else { throw .avahiUnavailable(reason: "out of memory") }
        let connection = AvahiConnection(poll: poll)
        var error: Int32 = 0
        // The first state arrives from inside avahi_client_new, before it returns: the callback
        // works from its arguments, never from `client`.
        let client = avahi_client_new(avahi_threaded_poll_get(poll), AvahiClientFlags(rawValue: 0), { client, state, userdata in
            guard let userdata else { return }
            let connection = Unmanaged<AvahiConnection>.fromOpaque(userdata).takeUnretainedValue()
            connection.dispatch { connection.changed(state, client: client) }
        }, Unmanaged.passUnretained(connection).toOpaque(), &error)
        // close() frees what there is (stopping a poll that never started does nothing), once.
        guard let client else {
            connection.close()
            throw .avahiUnavailable(reason: AvahiConnection.text(of: error))
        }
        connection.client = client
        guard avahi_threaded_poll_start(poll) == 0 else {
            connection.close()
            throw .avahiUnavailable(reason: "the poll thread did not start")
        }
        let deadline = Clock.monotonic() + timeout
        while true {
            switch connection.progress.withLock({ $0 }) {
            case .running:
                return connection
            case .failed(let reason):
                connection.close()
                throw .avahiUnavailable(reason: reason)
            case .waiting:
                if Clock.monotonic() >= deadline {
                    connection.close()
                    throw .avahiUnavailable(reason: "the daemon did not reach its running state within \(timeout) s")
                }
                Clock.sleep(0.002)
            }
        }
    }

    /// Calls `handler` once when the daemon goes away (it stopped or restarted, or the bus did):
    /// on the poll's thread with its lock held, or at once on this thread when it has already.
    func onFailure(_ handler: @escaping @Sendable (String) -> Void) {
        let failed: String?? = withLock {
            if case .failed(let reason) = progress.withLock({ $0 }) { return reason }
            onFailure = handler
            return nil
        }
        if let failed = failed ?? nil { handler(failed) }
    }

    /// Runs `body` with the poll's lock held (at once when called from a callback, which holds it
    /// already); `nil` without running it once the connection is closed, when there is nothing
    /// left to call. The corresponding C functions are `avahi_threaded_poll_lock` and `…_unlock`.
    func withLock<T>(_ body: () -> T) -> T? {
        if isPollThread { return body() }
        return closed.withLock { closed -> T? in
            guard !closed else { return nil }
            avahi_threaded_poll_lock(poll)
            defer { avahi_threaded_poll_unlock(poll) }
            return body()
        }
    }

    /// Calls `body` every `seconds` on the poll's thread with its lock held (a callback), until the
    /// connection closes. The corresponding C function is the poll's `timeout_new`, re-armed with
    /// `timeout_update` after each call.
    func every(_ seconds: Double, _ body: @escaping @Sendable () -> Void) {
        withLock {
            let timer = RepeatingTimer(connection: self, milliseconds: UInt32(seconds * 1000), body: body)
            guard let api = avahi_threaded_poll_get(poll), let create = api.pointee.timeout_new else { return }
            var due = timeval()
            avahi_elapse_time(&due, timer.milliseconds, 0)
            timer.api = api
            timer.timeout = create(api, &due, { timeout, userdata in
                guard let userdata else { return }
                let timer = Unmanaged<RepeatingTimer>.fromOpaque(userdata).takeUnretainedValue()
                timer.connection?.dispatch { timer.body() }
                var next = timeval()
                avahi_elapse_time(&next, timer.milliseconds, 0)
                timer.api?.pointee.timeout_update?(timeout, &next)
            }, Unmanaged.passUnretained(timer).toOpaque())
            timers.append(timer)
        }
    }

    /// Whether the caller is a callback of this connection, on the poll's thread.
    var isPollThread: Bool { dispatchingThread.load(ordering: .acquiring) == BackgroundThread.current }

    /// Runs a callback's Swift side, noting its thread for ``withLock(_:)``.
    func dispatch(_ body: () -> Void) {
        let previous = dispatchingThread.exchange(BackgroundThread.current, ordering: .acquiringAndReleasing)
        body()
        dispatchingThread.store(previous, ordering: .releasing)
    }

    private func changed(_ state: AvahiClientState, client: OpaquePointer?) {
        if state == AVAHI_CLIENT_S_RUNNING {
            progress.withLock { if case .waiting = $0 { $0 = .running } }
        } else if state == AVAHI_CLIENT_FAILURE {
            let reason = AvahiConnection.text(of: client.map { avahi_client_errno($0) } ?? Int32(AVAHI_ERR_FAILURE))
            let wasRunning = progress.withLock { progress -> Bool in
                defer { progress = .failed(reason) }
                if case .running = progress { return true }
                return false
            }
            if wasRunning, let onFailure {
                self.onFailure = nil
                onFailure(reason)
            }
        }
        // S_REGISTERING and S_COLLISION: the daemon is (re)establishing its own host name. Our
        // entries name our host labels, not the daemon's name, so they stay as they are (Avahi's
        // examples reset theirs here because their SRV records point at the daemon's name).
    }

    /// The last error of the client, as text. The corresponding C function is `avahi_client_errno`.
    var lastError: String {
        let text: String?? = withLock { client.map { AvahiConnection.text(of: avahi_client_errno($0)) } }
        return (text ?? nil) ?? "the connection is closed"
    }

    /// Stops the poll's thread and frees the client, and with it every entry group and browser
    /// left (the daemon withdraws a freed group's records with goodbyes). Called from a callback,
    /// it does this on a thread of its own and returns at once: stopping joins the poll's thread.
    /// Calling it again does nothing. The corresponding C functions are `avahi_threaded_poll_stop`,
    /// `avahi_client_free` and `avahi_threaded_poll_free`.
    func close() {
        if isPollThread {
            do {
                try BackgroundThread.start { [self] in release() }
            } catch {
                // No thread to spare: the poll's thread ends after this callback instead, and
                // the client is left to the process's exit.
                avahi_threaded_poll_quit(poll)
            }
            return
        }
        release()
    }

    private func release() {
        closed.withLock { closed in
            guard !closed else { return }
            closed = true
            free()
        }
    }

    private func free() {
        avahi_threaded_poll_stop(poll)
        if let client { avahi_client_free(client) }
        client = nil
        avahi_threaded_poll_free(poll)
    }

    deinit {
        // Owners close explicitly; this is the last resort, and cannot hand itself to a thread.
        if !isPollThread { release() }
    }

    /// Avahi's sentence for an error code. The corresponding C function is `avahi_strerror`.
    static func text(of error: Int32) -> String {
        guard let text = avahi_strerror(error) else { return "error \(error)" }
        return String(cString: text)
    }

    /// The interface index Avahi takes: the index itself, or `AVAHI_IF_UNSPEC` for every interface.
    static func interfaceIndex(_ index: UInt32?) -> Int32 {
        index.map { Int32(bitPattern: $0) } ?? Int32(AVAHI_IF_UNSPEC)
    }
}

extension AvahiStringList {
    /// The strings of a TXT list, in the list's order. The corresponding C functions are
    /// `avahi_string_list_get_next`, `…_get_text` and `…_get_size`.
    static func strings(of list: UnsafeMutablePointer<AvahiStringList>?) -> [[UInt8]] {
        var strings: [[UInt8]] = []
        var next = list
        while let item = next {
            let size = avahi_string_list_get_size(item)
            if let text = avahi_string_list_get_text(item) {
                strings.append(Array(UnsafeBufferPointer(start: text, count: size)))
            } else {
                strings.append([])
            }
            next = avahi_string_list_get_next(item)
        }
        return strings
    }

    /// A new list of `strings`, in their order, for avahi_string_list_free. The corresponding C
    /// function is `avahi_string_list_add_arbitrary` (which prepends: hence the reversed order).
    static func make(_ strings: [[UInt8]]) -> UnsafeMutablePointer<AvahiStringList>? {
        var list: UnsafeMutablePointer<AvahiStringList>?
        for string in strings.reversed() {
            list = string.withUnsafeBufferPointer { avahi_string_list_add_arbitrary(list, $0.baseAddress, $0.count) }
        }
        return list
    }
}

/// A timer of ``AvahiConnection/every(_:_:)``: what its C callback needs, by an unretained
/// pointer the connection keeps alive. Made under the poll's lock and read only by its callbacks,
/// on the poll's thread.
private final class RepeatingTimer {
    weak var connection: AvahiConnection?
    let milliseconds: UInt32
    let body: @Sendable () -> Void
    var api: UnsafePointer<AvahiPoll>?
    var timeout: OpaquePointer?

    init(connection: AvahiConnection, milliseconds: UInt32, body: @escaping @Sendable () -> Void) {
        self.connection = connection
        self.milliseconds = milliseconds
        self.body = body
    }
}
