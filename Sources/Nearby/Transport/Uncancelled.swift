/// Runs `body` to its end even when the calling task is cancelled, and returns what it returns.
///
/// For the last words of a connection when the receiver stops: the answer that tells a sender it
/// was declined. NIO's async writer throws at once in a cancelled task, so the sender saw only a
/// closed connection ("closed the connection", exit 2) instead of "declined" (exit 1).
func uncancelled<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await Task { try await body() }.value
}
