/// How an app ranks itself for a document type (`LSHandlerRank`).
public enum HandlerRank: String, Sendable, Hashable, CaseIterable {
    /// The app created the type.
    case owner = "Owner"
    /// A normal handler (also when the key is absent).
    case `default` = "Default"
    /// A secondary handler.
    case alternate = "Alternate"
    /// Never opens the type.
    case none = "None"

    /// The rank when the key is absent.
    public static let whenAbsent = HandlerRank.default

    /// Lower sorts first: Owner, Default, Alternate, None.
    public var order: Int { HandlerRank.allCases.firstIndex(of: self)! }
}
