import CSystemShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Signals received as readable data instead of handlers: the signals are blocked and a
/// `signalfd` reports them, so a loop waiting in `poll` sees SIGTERM between two moves, never in
/// the middle of one.
package final class SignalDescriptor: Sendable {
    package let descriptor: OwnedDescriptor

    /// Blocks `signals` (for this thread and the threads it starts) and reports them here. The
    /// corresponding C functions are `sigprocmask` and `signalfd`.
    package init(_ signals: [Int32]) throws(SystemCallError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        sigprocmask(SIG_BLOCK, &mask, nil)
        descriptor = OwnedDescriptor(taking: try invoke(.signalfd) { di_signalfd(&mask) })
    }

    /// The standard shutdown signals: SIGTERM (systemd, kill) and SIGINT (Ctrl-C).
    package static let termination: [Int32] = [SIGTERM, SIGINT]
}
