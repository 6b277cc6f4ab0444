#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The folder that stands for a device: registered apps, the compiled type registry, and (for the
/// handler and receiver engines) each app's container.
///
/// ```
/// ROOT/Apps/NAME          a registered app: an .app bundle, a link to one, or a link to an Info.plist
/// ROOT/UTIs/              optional: a catalog that replaces the built-in one for this device
/// ROOT/registry.bin       the compiled registry, rebuilt when any source changes
/// ```
///
/// Chosen, in order: `--root DIR`, the `DOCUMENT_INTERCHANGE_ROOT` environment variable,
/// `$XDG_DATA_HOME/document-interchange`, `~/.local/share/document-interchange`.
public struct DeviceRoot: Sendable, Hashable {
    /// The root folder.
    public var path: String

    /// A device root at `path`.
    public init(path: String) { self.path = path }

    /// The environment variable that names a device root.
    public static let environmentVariable = "DOCUMENT_INTERCHANGE_ROOT"

    /// The root the tools use: `explicit` if given, else from the environment, else the XDG default.
    public static func resolve(explicit: String?) -> DeviceRoot {
        if let explicit { return DeviceRoot(path: explicit) }
        if let env = environment(environmentVariable), !env.isEmpty { return DeviceRoot(path: env) }
        if let xdg = environment("XDG_DATA_HOME"), xdg.hasPrefix("/") { return DeviceRoot(path: xdg + "/document-interchange") }
        return DeviceRoot(path: (environment("HOME") ?? "/tmp") + "/.local/share/document-interchange")
    }

    static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    /// Where registered apps are.
    public var appsDirectory: String { path + "/Apps" }
    /// The compiled registry file.
    public var registryFile: String { path + "/registry.bin" }
    /// A catalog that replaces the built-in one for this device, if present.
    public var catalogDirectory: String { path + "/UTIs" }
}
