import Synchronization

/// The last request avahi-daemon refused after a responder started, for other threads to read.
final class AvahiProblems: Sendable {
    private let last = Mutex<String?>(nil)

    /// Notes `problem`, one sentence.
    func note(_ problem: String) { last.withLock { $0 = problem } }

    /// The last one noted.
    var text: String? { last.withLock { $0 } }
}
