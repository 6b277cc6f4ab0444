import NIOCore

/// When a connection's next socket read waits a moment instead of starting at once: after a read
/// that brought less than `smallRead` bytes, that is from a sender slower than we read.
///
/// Why: on a veth link (and loopback) the kernel processes what a sender writes on the sender's
/// own CPU, including waking the receiving thread. A receiver that drains every piece and sleeps
/// again is woken once per piece, and each wake-up is charged to the sender. `perf record` on the
/// PyPI LocalSend sender (4 KiB pieces) put 5.6 % of its samples in waking our receiver against
/// 2.0 % in waking its own (uvicorn, busier, was more often awake), and the sender's CPU is what
/// limits that transfer. Waiting 2 ms lets the kernel queue the pieces that come meanwhile (the
/// receive window holds far more) and read them in one go, without a wake-up per piece. A sender
/// faster than us fills each read and waits at most once per body (NIO's first reads are small).
/// The measurements are in docs/nearby.md (LocalSend figures); 1 ms and 4 ms measured alike.
struct ReadPacing: Sendable {
    /// A read that brought fewer bytes than this makes the next one wait.
    let smallRead: Int
    /// How long the next read waits.
    let wait: TimeAmount

    /// The pacing for request bodies taken by ``HeldBodyHandler``.
    static let body = ReadPacing(smallRead: 32 * 1024, wait: .milliseconds(2))

    /// Whether the read after one that brought `bytes` body bytes waits.
    func waits(after bytes: Int) -> Bool { bytes < smallRead }
}
