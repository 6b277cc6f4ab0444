import NIOCore
import Synchronization

/// A listening socket's accept loop that ends by closing, never by dropping connections: the loop
/// runs in a task of its own, and cancelling the caller closes the listening socket and every
/// connection still open, then waits for the loop to serve (and so close) each connection it had
/// accepted. A loop ended by cancellation instead leaves connections that were accepted and
/// wrapped but not yet handed out, and NIO stops the process for such a channel ("Deinited
/// NIOAsyncWriter without calling finish()": seen when LocalSend devices answered a discovery
/// that had just ended).
enum AcceptLoop {
    /// Serves each connection of `server` with `serve` (which must use the connection's
    /// `executeThenClose`), until the calling task is cancelled or the socket closes.
    /// - Parameter channel: the connection's channel, for closing it on the way out.
    static func run<Connection: Sendable>(_ server: NIOAsyncChannel<Connection, Never>, channel: @escaping @Sendable (Connection) -> any Channel,
                                          serve: @escaping @Sendable (Connection) async -> Void) async throws {
        let state = State()
        let loop = Task {
            try await server.executeThenClose { inbound in
                await withDiscardingTaskGroup { group in
                    do {
                        for try await connection in inbound {
                            let child = channel(connection)
                            state.open.withLock { $0[ObjectIdentifier(child)] = child }
                            if state.stopping.load(ordering: .relaxed) { child.close(promise: nil) }
                            group.addTask {
                                await serve(connection)
                                state.open.withLock { $0[ObjectIdentifier(child)] = nil }
                            }
                        }
                    } catch {}
                }
            }
        }
        try await withTaskCancellationHandler {
            try await loop.value
        } onCancel: {
            state.stopping.store(true, ordering: .relaxed)
            server.channel.close(promise: nil)
            for child in state.open.withLock({ Array($0.values) }) { child.close(promise: nil) }
        }
    }

    /// The connections open, and whether the loop is stopping.
    final class State: Sendable {
        let open = Mutex<[ObjectIdentifier: any Channel]>([:])
        let stopping = Atomic<Bool>(false)
    }
}
