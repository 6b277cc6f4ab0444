/// A desktop file found in one of the ``DesktopLocations`` folders, with its entry when it could
/// be parsed.
///
/// Immutable, and a class: a query passes each app through several tables (associations, the
/// selection, the sheet), and copying an entry's two dozen strings and lists each time was a
/// tenth of `openin --list` with 180 apps.
public final class DesktopApp: Sendable, Hashable {
    /// The desktop-file ID.
    public let id: String
    /// The file.
    public let path: String
    /// The folder it was found in.
    public let folder: DesktopLocations.Folder
    /// That folder's place in the order (0 is the most important).
    public let folderIndex: Int
    /// The parsed entry; `nil` when the file is not a valid key file.
    public let entry: DesktopEntry?
    /// Why the file cannot be used as an application (a parse error, a wrong type), if so.
    public let problem: String?

    /// An app read from `path`.
    public init(id: String, path: String, folder: DesktopLocations.Folder, folderIndex: Int, entry: DesktopEntry?, problem: String?) {
        self.id = id
        self.path = path
        self.folder = folder
        self.folderIndex = folderIndex
        self.entry = entry
        self.problem = problem
    }

    /// Equal when every field is.
    public static func == (a: DesktopApp, b: DesktopApp) -> Bool {
        a === b || (a.id == b.id && a.path == b.path && a.folder == b.folder && a.folderIndex == b.folderIndex
                    && a.entry == b.entry && a.problem == b.problem)
    }

    /// Hashes the file's identity (equal apps have equal IDs, paths and folders).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(path)
        hasher.combine(folderIndex)
    }

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
