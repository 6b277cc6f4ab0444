import SystemCalls

/// An app's container on a device root, in the iOS layout:
/// `Containers/<bundle-id>/Documents/`, `Documents/Inbox/`, `Library/`, `tmp/`.
///
/// Files delivered to the Inbox are read-only (mode 0444): the app reads and deletes them there,
/// and moves them out before working on them.
public struct AppContainer: Sendable, Hashable {
    /// The bundle identifier it belongs to.
    public var bundleIdentifier: String
    /// The container folder (absolute when the device root is).
    public var path: String

    /// The container of `bundleIdentifier` on `root`.
    /// - Throws: ``AppRegistryError/invalidBundleIdentifier(_:)`` for an identifier that is not a
    ///   plain folder name (``BundleIdentifier/canNameFolder(_:)``).
    public init(bundleIdentifier: String, on root: DeviceRoot) throws(AppRegistryError) {
        guard BundleIdentifier.canNameFolder(bundleIdentifier) else { throw .invalidBundleIdentifier(bundleIdentifier) }
        self.bundleIdentifier = bundleIdentifier
        path = root.containersDirectory + "/" + bundleIdentifier
    }

    /// `Documents/`: the app's working storage.
    public var documents: String { path + "/Documents" }
    /// `Documents/Inbox/`: where documents from other apps arrive.
    public var inbox: String { path + "/Documents/Inbox" }
    /// `Library/`.
    public var library: String { path + "/Library" }
    /// `Library/Preferences/`: the app's own defaults (`ID.plist`, docs/app-groups.md).
    public var preferences: String { path + "/Library/Preferences" }
    /// `Library/OpenRequests/`: one property list per open request.
    public var openRequests: String { path + "/Library/OpenRequests" }
    /// `Library/Quarantine/`: what the receiver refused, with the reason in its manifest.
    public var quarantine: String { path + "/Library/Quarantine" }
    /// `Library/Manifest.sqlite`: the receiver's journal and record of moves.
    public var manifest: String { path + "/Library/Manifest.sqlite" }
    /// `tmp/`: where deliveries are written before they are renamed into the Inbox.
    public var temporary: String { path + "/tmp" }

    /// Whether the container folder exists.
    public var exists: Bool { FileSystem.isDirectory(path) }

    /// Creates the folders that are missing.
    public func create() throws(AppRegistryError) {
        for folder in [documents, inbox, library, openRequests, temporary] {
            do { try FileSystem.makeDirectories(folder) } catch { throw .system(error) }
        }
    }

    /// The bundle identifiers of every container on `root`, sorted (hidden names left out).
    public static func identifiers(on root: DeviceRoot) -> [String] {
        FileSystem.entries(of: root.containersDirectory).filter { !$0.hasPrefix(".") }.sorted()
    }
}
