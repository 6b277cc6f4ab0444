import UniformTypes

/// An app's container on a device root, in the iOS layout:
/// `Containers/<bundle-id>/Documents/`, `Documents/Inbox/`, `Library/`, `tmp/`.
///
/// Files delivered to the Inbox are read-only (mode 0444): the app reads and deletes them there,
/// and moves them out before working on them.
public struct AppContainer: Sendable, Hashable {
    /// The container folder.
    public var path: String

    /// The container of `bundleIdentifier` on `root`.
    /// - Throws: ``HandlerError/refused(_:)`` for an identifier that is not a plain folder name.
    public init(bundleIdentifier: String, on root: DeviceRoot) throws(HandlerError) {
        guard !bundleIdentifier.isEmpty, bundleIdentifier != ".", bundleIdentifier != "..",
              !bundleIdentifier.contains("/"), !bundleIdentifier.utf8.contains(0) else {
            throw .refused("\"\(bundleIdentifier)\" cannot name a container")
        }
        path = root.path + "/Containers/" + bundleIdentifier
    }

    /// `Documents/`: the app's working storage.
    public var documents: String { path + "/Documents" }
    /// `Documents/Inbox/`: where documents from other apps arrive.
    public var inbox: String { path + "/Documents/Inbox" }
    /// `Library/`.
    public var library: String { path + "/Library" }
    /// `Library/OpenRequests/`: one property list per open request.
    public var openRequests: String { path + "/Library/OpenRequests" }
    /// `tmp/`: where deliveries are written before they are renamed into the Inbox.
    public var temporary: String { path + "/tmp" }

    /// Creates the folders that are missing.
    public func create() throws(HandlerError) {
        for folder in [documents, inbox, library, openRequests, temporary] { try FileSystem.makeFolders(folder) }
    }
}
