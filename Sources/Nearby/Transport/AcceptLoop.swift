import NIOCore
import Synchronization

/// A listening socket's accept loop that ends by closing, never by dropping a connection.
///
/// NIO stops the process for a connection it wrapped and nobody used ("Deinited NIOAsyncWriter
/// without calling finish()"), and a server that stops while connections arrive makes such
/// connections: accepted and wrapped in the child initializer, then never handed out, because the
/// listening socket's stream has ended (seen when LocalSend devices answered a discovery that had
/// just ended). So each wrapped connection is adopted here as it is made (``adopt(_:)``) and held
/// until it is served; cancelling ``run(_:serve:)`` closes the listening socket and every open
/// connection, then closes, through its own `executeThenClose`, each one adopted but never served.
final class AcceptLoop<Connection: Sendable>: Sendable {
    let channelOf: @Sendable (Connection) -> any Channel
    let discard: @Sendable (Connection) async -> Void
    /// Wrapped but not yet served, by channel.
    let adopted = Mutex<[ObjectIdentifier: Connection]>([:])
    /// Being served, by channel.
    let open = Mutex<[ObjectIdentifier: any Channel]>([:])
    let stopping = Atomic<Bool>(false)
    /// Seconds connections being served get, once the loop stops, to finish what they do.
    let grace: Double

    /// - Parameters:
    ///   - channel: a connection's channel.
    ///   - discard: closes a connection that will not be served (its `executeThenClose` with an
    ///     empty body).
    ///   - grace: seconds a connection being served gets to finish once the loop stops: a
    ///     LocalSend discovery that had what it wanted cut off the `register` replies it was
    ///     writing, and the PyPI peer's multicast task ends for good at such a failure.
    init(channel: @escaping @Sendable (Connection) -> any Channel, grace: Double = 0, discard: @escaping @Sendable (Connection) async -> Void) {
        channelOf = channel
        self.grace = grace
        self.discard = discard
    }

    /// Holds a connection just wrapped in the child initializer until it is served or discarded.
    func adopt(_ connection: Connection) -> Connection {
        let child = channelOf(connection)
        adopted.withLock { $0[ObjectIdentifier(child)] = connection }
        if stopping.load(ordering: .relaxed) {
            // Made after the loop stopped: closed through its own scope at once.
            child.close(promise: nil)
            discardAdopted()
        }
        return connection
    }

    /// Marks `connection` as handed out (its server serves it now); returns its key.
    @discardableResult
    func take(_ connection: Connection) -> ObjectIdentifier {
        let key = ObjectIdentifier(channelOf(connection))
        adopted.withLock { $0[key] = nil }
        return key
    }

    /// Closes, each through its own scope as NIO wants, the connections adopted but never handed
    /// out (for a server that stopped taking connections).
    func discardAdopted() {
        stopping.store(true, ordering: .relaxed)
        let leftOver = adopted.withLock { pending in
            defer { pending.removeAll() }
            return Array(pending.values)
        }
        if !leftOver.isEmpty { Task { [discard] in for connection in leftOver { await discard(connection) } } }
    }

    /// Serves each connection of `server` with `serve` (which must use the connection's
    /// `executeThenClose`), until the calling task is cancelled or the socket closes.
    func run(_ server: NIOAsyncChannel<Connection, Never>, serve: @escaping @Sendable (Connection) async -> Void) async throws {
        guard grace > 0 else {
            // Structured: the loop and its connections run where the caller runs (an unstructured
            // task would leave a caller's task executor for the shared pool, which the test suite's
            // blocking helpers starved: receivers stopped answering in a full run); cancelling the
            // caller ends them all, and what was adopted but not handed out is closed here.
            defer { discardAdopted() }
            try await server.executeThenClose { inbound in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in inbound {
                        take(connection)
                        group.addTask { await serve(connection) }
                    }
                }
            }
            return
        }
        // With a grace: the loop in a task of its own, so that cancelling the caller closes the
        // listening socket at once but lets open connections finish their replies.
        let loop = Task {
            try await server.executeThenClose { inbound in
                await withDiscardingTaskGroup { group in
                    do {
                        for try await connection in inbound {
                            let key = take(connection)
                            open.withLock { $0[key] = channelOf(connection) }
                            if stopping.load(ordering: .relaxed) { channelOf(connection).close(promise: nil) }
                            group.addTask {
                                await serve(connection)
                                self.open.withLock { $0[key] = nil }
                            }
                        }
                    } catch {}
                }
            }
        }
        defer { discardAdopted() }
        try await withTaskCancellationHandler {
            try await loop.value
        } onCancel: {
            stopping.store(true, ordering: .relaxed)
            server.channel.close(promise: nil)
            let closeAll = { @Sendable [self] in for child in self.open.withLock({ Array($0.values) }) { child.close(promise: nil) } }
            if grace > 0 {
                let grace = grace
                Task {
                    try? await Task.sleep(for: .seconds(grace))
                    closeAll()
                }
            } else {
                closeAll()
            }
        }
    }
}
