/// A desktop file found in one of the ``DesktopLocations`` folders, with its entry when it could
/// be parsed.
public struct DesktopApp: Sendable, Hashable {
    /// The desktop-file ID.
    public var id: String
    /// The file.
    public var path: String
    /// The folder it was found in.
    public var folder: DesktopLocations.Folder
    /// That folder's place in the order (0 is the most important).
    public var folderIndex: Int
    /// The parsed entry; `nil` when the file is not a valid key file.
    public var entry: DesktopEntry?
    /// Why the file cannot be used as an application (a parse error, a wrong type), if so.
    public var problem: String?

    /// The name to show: `Name=`, else the ID without `.desktop`.
    public var name: String { entry?.name ?? (id.hasSuffix(".desktop") ? String(id.dropLast(8)) : id) }

    /// Whether the app runs sandboxed and receives documents through the document portal: an
    /// exported Flatpak app (`X-Flatpak=`) or a Snap (`X-SnapInstanceName=`).
    public var sandbox: Sandbox? {
        if let id = entry?.flatpakID { return .flatpak(appID: id) }
        if let name = entry?.snapInstanceName { return .snap(instanceName: name) }
        return nil
    }

    /// A sandbox an app runs in.
    public enum Sandbox: Sendable, Hashable, CustomStringConvertible {
        /// A Flatpak app with this application ID.
        case flatpak(appID: String)
        /// A Snap with this instance name.
        case snap(instanceName: String)

        /// The application ID the document portal grants access to (`snap.NAME` for Snaps).
        public var portalAppID: String {
            switch self {
            case .flatpak(let id): id
            case .snap(let name): "snap." + name
            }
        }

        /// "Flatpak org.gnome.Evince", "Snap okular".
        public var description: String {
            switch self {
            case .flatpak(let id): "Flatpak \(id)"
            case .snap(let name): "Snap \(name)"
            }
        }
    }
}
