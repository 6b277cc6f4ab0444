import NIOCore
import Synchronization

/// Returns when `channel` has closed, or at once when the calling task is cancelled (awaiting
/// `closeFuture` alone ignores cancellation: a task group waiting for it never ended while the
/// connection was open).
func closed(_ channel: any Channel) async {
    let once = Mutex<CheckedContinuation<Void, Never>?>(nil)
    let resume: @Sendable () -> Void = { once.withLock { $0.take() }?.resume() }
    await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            once.withLock { $0 = continuation }
            channel.closeFuture.whenComplete { _ in resume() }
            if Task.isCancelled { resume() }
        }
    } onCancel: {
        resume()
    }
}
