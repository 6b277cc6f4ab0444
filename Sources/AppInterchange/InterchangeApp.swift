import AppRegistry
import Handlers
import SystemCalls
import UniformTypes
import URLSchemes

/// An app taking part in interchange: who it is (its registered bundle, its container on the
/// device root), the requests that reach it (``IncomingRequest``: URLs and documents, with sender
/// and annotation) and what it can send (open a URL, hand a document to another app, ask what can
/// take a document). No Foundation is needed by the app.
///
/// ```swift
/// let app = try InterchangeApp.current(fallbackIdentifier: "com.example.person-editor")
/// if let request = try app.launchRequest() { … }          // started by a request
/// for await request in app.requests() { … }              // running: URLs and documents as they come
/// if app.canOpen("person-viewer://") { try app.open("person-viewer://x-callback-url/exportPerson") }
/// ```
public struct InterchangeApp: Sendable {
    /// The environment variable a launched app finds its bundle identifier in.
    public static let identityVariable = LaunchCommand.identityVariable

    /// The app as registered (Info.plist read through the app model).
    public let bundle: AppBundle
    /// Its container on the device root.
    public let container: AppContainer
    /// The device root.
    public let root: DeviceRoot
    /// The type catalog the device's registry is compiled with.
    public let catalog: String

    /// The bundle identifier.
    public var bundleIdentifier: String { bundle.bundleIdentifier }

    /// The registered app `bundleIdentifier` on `root` (else ``currentRoot()``). Its container is
    /// created when missing.
    /// - Throws: ``InterchangeError`` when the root or the catalog is missing, or the app is not registered.
    public init(bundleIdentifier: String, root: DeviceRoot? = nil) throws(InterchangeError) {
        let root = root ?? Self.currentRoot()
        guard root.exists else { throw .noDeviceRoot(root.path) }
        self.root = root
        do { catalog = try TypeCatalog.requiredForPrograms(on: root) } catch { throw .app(error) }
        let registry: TypeRegistry
        do { registry = try RegistryStore.open(root: root, catalog: catalog) } catch { throw .app(error) }
        guard let bundle = AppBundle.registered(bundleIdentifier, in: registry) else { throw .app(.notRegistered(bundleIdentifier)) }
        self.bundle = bundle
        do {
            container = try AppContainer(bundleIdentifier: bundleIdentifier, on: root)
            try container.create()
        } catch { throw .app(error) }
    }

    /// The app this process is: `DI_BUNDLE_IDENTIFIER` (the launcher names it when a request
    /// starts the app), else the identifier of the bundle it was started from (``MainBundle``:
    /// an app run by hand as `ROOT/Apps/X.app/bin/x`), else `fallbackIdentifier` (the
    /// identifier the program was built with); on `root`, else ``currentRoot()``.
    public static func current(fallbackIdentifier: String? = nil, root: DeviceRoot? = nil) throws(InterchangeError) -> InterchangeApp {
        let named = Environment.value(identityVariable).flatMap { $0.isEmpty ? nil : $0 }
        guard let identifier = named ?? MainBundle.current?.bundleIdentifier ?? fallbackIdentifier else {
            throw .unknownIdentity
        }
        return try InterchangeApp(bundleIdentifier: identifier, root: root)
    }

    /// The device root this process works on: `DOCUMENT_INTERCHANGE_ROOT` when set (by the
    /// launcher, or the user: it is explicit), else the root the bundle it was started from is
    /// installed on (``MainBundle/deviceRoot``), else the user's (the XDG data folder).
    public static func currentRoot() -> DeviceRoot {
        let resolved = DeviceRoot.resolve(explicit: nil)
        guard resolved.origin == .userDefault, let installed = MainBundle.current?.deviceRoot else { return resolved }
        return installed
    }

    /// The device's registry as it is now (rebuilt when an app was registered since).
    public func registry() throws(InterchangeError) -> TypeRegistry {
        do { return try RegistryStore.open(root: root, catalog: catalog) } catch { throw .app(error) }
    }

    /// Who handles which scheme, with the user's defaults.
    func schemeDirectory() throws(InterchangeError) -> SchemeDirectory {
        let defaults: SchemeDefaults
        do { defaults = try SchemeDefaults(root: root) } catch { throw .handler(error) }
        return SchemeDirectory(registry: try registry(), defaults: defaults)
    }
}
