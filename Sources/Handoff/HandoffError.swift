/// What went wrong with an activity, saying what and where.
public enum HandoffError: Error, Equatable, CustomStringConvertible {
    /// A kept or received offer does not hold what it must (the key named).
    case malformed(String)
    /// `userInfo` holds something a property list cannot (the key path named).
    case notAPropertyList(String)
    /// `userInfo` is larger than ``UserInfoSize/limit`` (its size in bytes).
    case tooLarge(Int)
    /// A file operation failed.
    case system(String)

    public var description: String {
        switch self {
        case .malformed(let what): "the activity is malformed: \(what)"
        case .notAPropertyList(let what): "userInfo is not a property list: \(what)"
        case .tooLarge(let size): "userInfo is \(size) bytes, over the limit of \(UserInfoSize.limit) bytes"
        case .system(let what): what
        }
    }
}
