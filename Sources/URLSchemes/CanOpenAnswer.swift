import AppRegistry

/// What `canOpenURL` answers for one sender, and why (`openurl --can --explain`). Only the sender's
/// question is gated: opening a URL is not (as on iOS, where `openURL` needs no query entry).
public enum CanOpenAnswer: Sendable, Hashable, CustomStringConvertible {
    /// Yes: the sender lists the scheme and this app handles it.
    case yes(scheme: String, handler: String)
    /// The sender does not list the scheme in `LSApplicationQueriesSchemes`.
    case notQueried(scheme: String, sender: String)
    /// The sender lists it, but past the entries that count (its position, 1-based).
    case pastQueryLimit(scheme: String, sender: String, position: Int)
    /// The sender lists it, but no registered app handles it.
    case noHandler(scheme: String)
    /// The sender is not a registered app, so it declares no queried schemes.
    case unknownSender(String)

    /// Whether the answer is yes.
    public var canOpen: Bool { if case .yes = self { true } else { false } }

    /// The reason, in one sentence.
    public var description: String {
        switch self {
        case .yes(let scheme, let handler): "yes: \(handler) handles \(scheme)"
        case .notQueried(let scheme, let sender): "no: \(sender) does not list \(scheme) in LSApplicationQueriesSchemes"
        case .pastQueryLimit(let scheme, let sender, let position):
            "no: \(sender) lists \(scheme) at position \(position) of LSApplicationQueriesSchemes; only the first \(AppBundle.queriedSchemesLimit) count"
        case .noHandler(let scheme): "no: no registered app handles \(scheme)"
        case .unknownSender(let sender): "no: \(sender) is not a registered app, so it lists no queried schemes"
        }
    }
}
