import PropertyLists

/// How large an activity's `userInfo` may be, measured as the binary property list that carries it.
/// Apple's guidance is to keep it to 3 KB or less (larger payloads make Handoff slow; send more over
/// continuation streams); past that it is offered with a warning. Past ``limit`` it is refused:
/// a bound of ours, since every paired device keeps the offer in memory.
public enum UserInfoSize {
    /// Apple's guidance: 3 KB.
    public static let advised = 3 * 1024
    /// Refused past this: 64 KiB.
    public static let limit = 64 * 1024

    /// What a `userInfo` of `size` bytes gets.
    public enum Verdict: Sendable, Equatable {
        /// Within Apple's guidance.
        case fine
        /// Over the guidance: offered, with a warning.
        case large
        /// Over the limit: not offered.
        case refused
    }

    /// The size of `userInfo` as it travels.
    public static func size(of userInfo: PropertyList) -> Int { BinaryPropertyListWriter().write(userInfo).count }

    /// The verdict for `size` bytes.
    public static func verdict(_ size: Int) -> Verdict { size > limit ? .refused : size > advised ? .large : .fine }
}
