/// Bounds on what reading and decoding an archive may cost, so that a hostile archive gets an
/// error instead of exhausting the stack, memory or time.
public struct KeyedArchiveLimits: Sendable, Hashable {
    /// How deeply objects may nest through references (an array in an array counts two).
    /// Decoding recurses once per level, so this bounds the stack.
    public var maximumDepth: Int = 512

    /// The most objects `$objects` may hold.
    public var maximumObjects: Int = 1 << 22

    /// The largest input, in bytes.
    public var maximumBytes: Int = 1 << 30

    /// The most objects one decode may produce when a shared object is counted once per
    /// reference to it: a few hundred objects that each refer twice to the next expand to
    /// 2^n, which a consumer walking the result would never finish.
    public var maximumDecodedObjects: Int = 1 << 20

    /// Creates the default limits.
    public init() {}
}
