import SystemCalls

/// Why a pasteboard call failed, in one sentence that names the pasteboard, file or type.
public enum PasteboardError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A name that cannot be stored.
    case invalidName(String, reason: String)
    /// No such pasteboard, or none this client may see (the two are not told apart).
    case notFound(PasteboardName)
    /// The name is taken by a pasteboard this client may not see.
    case nameTaken(PasteboardName)
    /// System pasteboards cannot be removed.
    case systemPasteboard(PasteboardName)
    /// A write larger than the limit.
    case tooLarge(PasteboardName, bytes: Int64, limit: Int64)
    /// More items, or more representations in one item, than the limit.
    case tooMany(PasteboardName, what: String, count: Int, limit: Int)
    /// A type identifier that cannot be stored.
    case invalidType(String, reason: String)
    /// The same type twice in one item.
    case duplicateType(String, item: Int)
    /// A stored generation that is not what this library writes: where, and what is wrong.
    case damaged(path: String, offset: Int?, keyPath: String?, reason: String)
    /// The device root was named but does not exist.
    case rootMissing(String)
    /// Another desktop bridge already serves this root on this display (its lock file).
    case bridgeAlreadyRunning(String)
    /// A system call failed.
    case system(SystemCallError)

    /// One sentence.
    public var description: String {
        switch self {
        case .invalidName(let name, let reason): "invalid pasteboard name '\(name)': \(reason)"
        case .notFound(let name): "no pasteboard named '\(name)'"
        case .nameTaken(let name): "the pasteboard name '\(name)' is taken by another team's pasteboard"
        case .systemPasteboard(let name): "the system pasteboard '\(name)' cannot be removed"
        case .tooLarge(let name, let bytes, let limit): "pasteboard '\(name)': \(bytes) bytes is more than the limit of \(limit) bytes"
        case .tooMany(let name, let what, let count, let limit): "pasteboard '\(name)': \(count) \(what) is more than the limit of \(limit)"
        case .invalidType(let type, let reason): "invalid pasteboard type '\(type)': \(reason)"
        case .duplicateType(let type, let item): "item \(item) has the type '\(type)' twice"
        case .damaged(let path, let offset, let keyPath, let reason):
            "damaged pasteboard file \(path)" + (offset.map { " at byte \($0)" } ?? "") + (keyPath.map { " (\($0))" } ?? "") + ": \(reason)"
        case .rootMissing(let path): "the device root \(path) does not exist"
        case .bridgeAlreadyRunning(let path): "another pasteboardd already serves this device root on this display (it holds \(path))"
        case .system(let error): error.description
        }
    }
}
