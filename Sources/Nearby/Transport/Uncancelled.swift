/// Runs `body` to its end even when the calling task is cancelled, and returns what it returns.
///
/// For the last words of a connection when the receiver stops: the answer that tells a sender it
/// was declined. NIO's async writer throws at once in a cancelled task, so the sender saw only a
/// closed connection ("closed the connection", exit 2) instead of "declined" (exit 1). Only a
/// cancelled task hands the work to a task of its own: an unstructured task leaves the caller's
/// task executor for the shared pool, which the test suite's blocking helpers starve (every
/// LocalSend reply written that way came too late in a full run).
func uncancelled<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
    guard Task.isCancelled else { return try await body() }
    return try await Task { try await body() }.value
}
