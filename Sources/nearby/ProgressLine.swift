import Nearby
import SystemCalls
import ToolSupport

/// The sender's progress on a terminal: one line rewritten in place (bytes, rate, time left).
final class ProgressLine: @unchecked Sendable {
    // Only touched from the progress callback, which the sender calls from one task at a time.
    var start = Clock.monotonic()
    let total: Int64
    var done: Int64 = 0
    var shown = false

    init(total: Int64) { self.total = total }

    func update(sent: Int64) {
        done = sent
        let elapsed = max(Clock.monotonic() - start, 0.001)
        let rate = Double(done) / elapsed
        let left = rate > 0 ? Double(total - done) / rate : 0
        Output.errorText("\r\u{1B}[K\(Self.bytes(Double(done))) of \(Self.bytes(Double(total))), \(Self.bytes(rate))/s, \(Int(left.rounded())) s left   ")
        shown = true
    }

    /// The receiver's user is deciding: said once; the rate counts from the answer, not from here.
    func waiting() {
        if !shown { Output.errorText("waiting for the receiving device's user to accept…") }
        shown = true
        start = Clock.monotonic()
    }

    func finish() { if shown { Output.errorText("\n") } }

    static func bytes(_ n: Double) -> String { SizeText.of(n) }
}
