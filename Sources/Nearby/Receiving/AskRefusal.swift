import SystemCalls

/// Why an ask was refused: the answer ``AskPolicy`` gives, as a value. Its description is the
/// reason the person at the receiver reads; ``publicReason`` is what the sender, who may be
/// anyone, is told (no local folder).
enum AskRefusal: Sendable, Equatable, CustomStringConvertible {
    /// An item is larger than the receiver takes (its safe name, the limit in bytes).
    case tooLarge(name: String, limit: Int64)
    /// A file system the items land on lacks room (its folder, the bytes asked and free).
    case noSpace(folder: String, asked: Int64, free: Int64)
    /// The sender asked too often, or already has a question waiting (``AskLimits``).
    case limited(AskLimits.Refusal)
    /// Nobody is there to accept an unpaired sender.
    case nobodyToAsk
    /// The person said no.
    case declined
    /// Nobody answered within so many seconds.
    case unanswered(seconds: Int)
    /// The sender stopped waiting before the person answered.
    case senderGone
    /// The receiver stopped while the question was open.
    case receiverStopped

    /// The reason, for the person at the receiver.
    var description: String {
        switch self {
        case .tooLarge(let name, let limit): "\(name) is larger than this device takes (\(limit) bytes)"
        case .noSpace(let folder, let asked, let free):
            "not enough free space in \(folder) (\(SizeText.of(asked)) asked, \(SizeText.of(free)) free)"
        case .limited(let refusal): refusal.reason
        case .nobodyToAsk: "the sender is not paired and nobody is here to accept"
        case .declined: "declined"
        case .unanswered(let seconds): "nobody answered within \(seconds) s"
        case .senderGone: "the sender stopped waiting"
        case .receiverStopped: "the receiver stopped"
        }
    }

    /// The reason, for the sender: the same words, without the receiver's folders.
    var publicReason: String {
        switch self {
        case .noSpace(_, let asked, let free): "not enough free space on this device (\(SizeText.of(asked)) asked, \(SizeText.of(free)) free)"
        default: description
        }
    }
}
