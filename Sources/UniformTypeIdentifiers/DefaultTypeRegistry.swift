// Which registry the Apple-shaped calls answer from, and when it is read again. Everything that
// knows where a device's registry lives is in this file (DeviceRoot, TypeCatalog, RegistryStore),
// so that it follows those APIs to another module with an import change.

import Logging
import Synchronization
import UniformTypes

/// The registry that calls without one (`UTType("public.png")`, `UTType.png`,
/// `UTType(filenameExtension: "md")`) answer from: the device root's, with the system catalog.
///
/// Found as the tools find it: the device root from `DOCUMENT_INTERCHANGE_ROOT`, else
/// `$XDG_DATA_HOME/document-interchange` or `~/.local/share/document-interchange`; the catalog from
/// `DOCUMENT_INTERCHANGE_CATALOG`, the root's own `UTIs/`, a `UTIs/` folder beside or above the
/// executable (a build tree, or `PREFIX/share/document-interchange/UTIs`), and last the `UTIs/`
/// folder of the package checkout this module was built from (`.build/checkouts/…` for a package
/// that depends on this one). It is opened on first use (mapped, or compiled and written when
/// stale, as `uti` does) and checked again at most once a second, so a long-running process sees an
/// app registered meanwhile, as LaunchServices' database is live on macOS.
///
/// ```swift
/// DefaultTypeRegistry.use(root: DeviceRoot(path: "/tmp/device"), catalog: "/opt/di/UTIs") // tests
/// let registry = DefaultTypeRegistry.current
/// ```
public enum DefaultTypeRegistry {
    private static let source = Mutex<TypeRegistrySource?>(nil)

    /// The registry the calls without one use now.
    public static var current: TypeRegistry { activeSource.registry }

    /// The source the calls use now, made from the environment on first use.
    public static var activeSource: TypeRegistrySource {
        source.withLock { source in
            if let source { return source }
            let made = TypeRegistrySource.fromEnvironment()
            source = made
            return made
        }
    }

    /// Answers from `root` and `catalog` from now on (a test's temporary device, an app that keeps
    /// its own). Types made before keep their registry and compare with new ones by identifier.
    public static func use(root: DeviceRoot, catalog: String?) {
        use(TypeRegistrySource(root: root, catalog: catalog))
    }

    /// Answers from `source` from now on.
    public static func use(_ source: TypeRegistrySource) {
        self.source.withLock { $0 = source }
    }

    /// Reads the registry again now instead of at the next check.
    public static func reload() { activeSource.reload() }
}

/// A device root's registry, kept current for a long-running process: mapped on first use, and
/// looked at again when ``refreshInterval`` has passed since the last look, which costs what a
/// query's freshness check costs (four `stat` calls and one directory read, docs/types.md).
public final class TypeRegistrySource: Sendable {
    /// The device root.
    public let root: DeviceRoot
    /// The catalog folder, if any.
    public let catalog: String?
    /// How long an answer is trusted before the sources are looked at again.
    public let refreshInterval: Duration

    private struct State {
        var registry: TypeRegistry?
        var nextCheck: ContinuousClock.Instant
    }
    private let state: Mutex<State>
    private static let log = Logger(label: "UniformTypeIdentifiers")

    /// A source for `root` and `catalog`; nothing is read until the first ``registry``.
    public init(root: DeviceRoot, catalog: String?, refreshInterval: Duration = .seconds(1)) {
        self.root = root
        self.catalog = catalog
        self.refreshInterval = refreshInterval
        state = Mutex(State(registry: nil, nextCheck: .now))
    }

    /// The device root and catalog the tools would use (see ``DefaultTypeRegistry``).
    public static func fromEnvironment() -> TypeRegistrySource {
        let root = DeviceRoot.resolve(explicit: nil)
        return TypeRegistrySource(root: root, catalog: TypeCatalog.directory(for: root) ?? packageCatalog)
    }

    /// The `UTIs/` folder of the checkout this file was compiled from, when it still exists: how a
    /// program built against this package with SwiftPM, and its tests, find the catalog without an
    /// installation.
    static var packageCatalog: String? {
        var path = #filePath
        for _ in 0..<3 {
            guard let slash = path.lastIndex(of: "/") else { return nil }
            path = String(path[..<slash])
        }
        return FileSystem.isDirectory(path + "/UTIs") ? path + "/UTIs" : nil
    }

    /// The registry, read again first when the refresh interval has passed and a source changed.
    public var registry: TypeRegistry {
        state.withLock { state in
            let now = ContinuousClock.now
            if let registry = state.registry {
                if now < state.nextCheck { return registry }
                state.nextCheck = now + refreshInterval
                if RegistryStore.fingerprint(root: root, catalog: catalog) == registry.fingerprint { return registry }
            }
            let registry = open()
            state.registry = registry
            state.nextCheck = now + refreshInterval
            return registry
        }
    }

    /// Reads the registry again at the next use, whatever the interval.
    public func reload() {
        state.withLock { $0.registry = nil }
    }

    private func open() -> TypeRegistry {
        do {
            return try RegistryStore.open(root: root, catalog: catalog)
        } catch {
            // RegistryStore falls back to a registry compiled in memory when it cannot write, so
            // this is a device root that cannot even be read; answer with no declared types
            // (dynamic types still work) rather than fail every call.
            Self.log.error("cannot open the type registry of \(root.path): \(error)")
            return TypeRegistry(declarations: [])
        }
    }
}
