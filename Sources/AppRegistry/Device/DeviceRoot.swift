import SystemCalls

/// The folder that stands for a device: registered apps, the compiled type registry, and (for the
/// handler and receiver engines) each app's container.
///
/// ```
/// ROOT/Apps/NAME          a registered app: an .app bundle, a link to one, or a link to an Info.plist
/// ROOT/UTIs/              optional: a catalog that replaces the built-in one for this device
/// ROOT/registry.bin       the compiled registry, rebuilt when any source changes
/// ROOT/Containers/ID/     each app's container (Documents/Inbox, Library, tmp); the app's own
///                         defaults in Library/Preferences/ID.plist
/// ROOT/Groups/GROUP-ID/   each App Group's shared container (mode 0700), beside the apps'
///                         containers: Library/Preferences/GROUP-ID.plist holds the group's
///                         shared defaults (docs/app-groups.md)
/// ROOT/Preferences/       the user's choices (default handlers)
/// ```
///
/// Chosen, in order: `--root DIR`, the `DOCUMENT_INTERCHANGE_ROOT` environment variable,
/// `$XDG_DATA_HOME/document-interchange`, `~/.local/share/document-interchange`. The path is
/// always absolute (a relative one is taken against the working folder), so that everything
/// derived from it (document paths in open requests, `file://` URLs) is absolute too.
public struct DeviceRoot: Sendable, Hashable {
    /// Where the choice of root came from.
    public enum Origin: Sendable, Hashable {
        /// Named on the command line (or by the caller).
        case explicit
        /// The `DOCUMENT_INTERCHANGE_ROOT` environment variable.
        case environment
        /// The user's default under the XDG data folder.
        case userDefault
    }

    /// The root folder, absolute.
    public var path: String
    /// Where the choice came from: a root that does not exist is a mistake when it was named,
    /// and simply not set up yet when it is the user's default.
    public var origin: Origin

    /// A device root at `path` (made absolute).
    public init(path: String, origin: Origin = .explicit) {
        self.path = (try? CurrentProcess.absolutePath(path)) ?? path
        self.origin = origin
    }

    /// The environment variable that names a device root.
    public static let environmentVariable = "DOCUMENT_INTERCHANGE_ROOT"

    /// The root the tools use: `explicit` if given, else from the environment, else the XDG default.
    public static func resolve(explicit: String?) -> DeviceRoot {
        if let explicit { return DeviceRoot(path: explicit, origin: .explicit) }
        if let env = Environment.value(environmentVariable), !env.isEmpty { return DeviceRoot(path: env, origin: .environment) }
        if let xdg = Environment.value("XDG_DATA_HOME"), xdg.hasPrefix("/") {
            return DeviceRoot(path: xdg + "/document-interchange", origin: .userDefault)
        }
        return DeviceRoot(path: Environment.home + "/.local/share/document-interchange", origin: .userDefault)
    }

    static func environment(_ name: String) -> String? { Environment.value(name) }

    /// Whether the root folder exists.
    public var exists: Bool { FileSystem.isDirectory(path) }

    /// Why there is no device root at `path`, for every message that says so: "no device root at
    /// PATH", or "PATH is not a folder" when something else is there (a file given as `--root`).
    public static func absence(at path: String) -> String {
        FileSystem.exists(path) ? "\(path) is not a folder, so not a device root" : "no device root at \(path)"
    }

    /// ``absence(at:)`` for this root.
    public var absence: String { Self.absence(at: path) }

    /// Where registered apps are.
    public var appsDirectory: String { path + "/Apps" }
    /// The compiled registry file.
    public var registryFile: String { path + "/registry.bin" }
    /// A catalog that replaces the built-in one for this device, if present.
    public var catalogDirectory: String { path + "/UTIs" }
    /// Where apps' containers are.
    public var containersDirectory: String { path + "/Containers" }
    /// Where App Groups' shared containers are (`Groups/GROUP-ID`).
    public var groupsDirectory: String { path + "/Groups" }
    /// The user's choices (default handlers).
    public var preferencesDirectory: String { path + "/Preferences" }
}
