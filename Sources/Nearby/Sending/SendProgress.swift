/// What a sender reports as it goes.
public enum SendProgress: Sendable {
    /// Connected; the receiver's certificate matched.
    case connected(Fingerprint)
    /// A person on the receiving device is being asked (repeated while they decide).
    case waiting
    /// The receiver answered the ask; per item the bytes it already held.
    case answered(accepted: Bool, held: [Int64])
    /// Bytes of an item sent so far (counting those held before), of its size.
    case bytes(item: Int, sent: Int64, of: Int64)
    /// The receiver delivered an item.
    case delivered(item: Int, destination: String)
}

/// What a send did.
public struct SendReport: Sendable {
    /// Per item: where the receiver put it (`nil`: not delivered).
    public var destinations: [String?]
    /// Bytes sent in this run (not counting what the receiver already held).
    public var bytesSent: Int64
    /// Bytes the receiver held from an earlier, interrupted run.
    public var bytesResumed: Int64
    /// Whether every item was delivered.
    public var complete: Bool { destinations.allSatisfy { $0 != nil } }
}
