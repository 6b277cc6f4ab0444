/// What an app does with a document type (`CFBundleTypeRole`), as LaunchServices knows the values.
public enum HandlerRole: String, Sendable, Hashable, CaseIterable {
    /// Reads and writes.
    case editor = "Editor"
    /// Reads only.
    case viewer = "Viewer"
    /// Provides runtime services; does not open documents.
    case shell = "Shell"
    /// A Quick Look generator: makes previews, does not open documents.
    case quickLookGenerator = "QLGenerator"
    /// Declares the type without using it.
    case none = "None"

    /// The role when the key is absent: Editor (real Info.plists often omit it, and LaunchServices
    /// then offers the app as an editor).
    public static let whenAbsent = HandlerRole.editor

    /// Whether the role lets the app open documents: Editor and Viewer do.
    public var opensDocuments: Bool { self == .editor || self == .viewer }
}
