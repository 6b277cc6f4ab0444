// Which registry the Apple-shaped calls answer from, and when it is read again. Everything that
// knows where a device's registry lives is in this file (DeviceRoot, TypeCatalog, RegistryStore),
// so that it follows those APIs to another module with an import change.

import AppRegistry
import Logging
import Synchronization
import SystemCalls
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
    /// The source of every call without a registry, made from the environment on first use.
    public static let source = TypeRegistrySource.fromEnvironment()

    /// The registry the calls without one use now.
    public static var current: TypeRegistry { source.registry }

    /// The registry with the numbers of Apple's constants in it.
    static var snapshot: RegistrySnapshot { source.snapshot }

    /// Answers from `root` and `catalog` from now on (a test's temporary device, an app that keeps
    /// its own). Types made before keep their registry and compare with new ones by identifier.
    /// `mimeDirectories`: the shared MIME database's folders (`nil`: the machine's; `[]`: none,
    /// which answers as macOS does for every extension its catalog does not know: a dynamic type).
    public static func use(root: DeviceRoot, catalog: String?, mimeDirectories: [String]? = nil) {
        source.use(root: root, catalog: catalog, mimeDirectories: mimeDirectories)
    }

    /// Answers from `registry` from now on, never reading it again.
    public static func use(_ registry: TypeRegistry) { source.use(registry) }

    /// Reads the registry again at the next call instead of at the next check.
    public static func reload() { source.reload() }
}

/// A device root's registry, kept current for a long-running process: mapped on first use, and
/// looked at again when ``refreshInterval`` has passed since the last look, which costs what a
/// query's freshness check costs (four `stat` calls and one directory read, docs/types.md).
public final class TypeRegistrySource: Sendable {
    /// How long an answer is trusted before the sources are looked at again.
    public let refreshInterval: Duration
    private let interval: UInt64

    private struct State {
        var root: DeviceRoot
        var catalog: String?
        /// The shared MIME database's folders; `nil` for the machine's.
        var mimeDirectories: [String]?
        /// A registry given by ``use(_:)``: answered as it is, never read again.
        var fixed: Bool
        var snapshot: RegistrySnapshot?
        var nextCheck: UInt64
    }
    // One lock for where the registry comes from and the registry itself: each call without a
    // registry takes it once (two locks per call were a third of `UTType(filenameExtension:)`).
    private let state: Mutex<State>
    private static let log = Logger(label: "UniformTypeIdentifiers")

    /// A source for `root`, `catalog` and the shared MIME database in `mimeDirectories` (`nil`:
    /// the machine's); nothing is read until the first ``registry``.
    public init(root: DeviceRoot, catalog: String?, mimeDirectories: [String]? = nil, refreshInterval: Duration = .seconds(1)) {
        self.refreshInterval = refreshInterval
        let (seconds, attoseconds) = refreshInterval.components
        interval = UInt64(max(seconds, 0)) &* 1_000_000_000 &+ UInt64(max(attoseconds, 0) / 1_000_000_000)
        state = Mutex(State(root: root, catalog: catalog, mimeDirectories: mimeDirectories, fixed: false, snapshot: nil, nextCheck: 0))
    }

    /// The device root and catalog the tools would use (see ``DefaultTypeRegistry``).
    public static func fromEnvironment() -> TypeRegistrySource {
        let root = DeviceRoot.resolve(explicit: nil)
        return TypeRegistrySource(root: root, catalog: TypeCatalog.forPrograms(on: root))
    }

    /// The device root.
    public var root: DeviceRoot { state.withLock { $0.root } }
    /// The catalog folder, if any.
    public var catalog: String? { state.withLock { $0.catalog } }

    /// Answers from `root`, `catalog` and the shared MIME database in `mimeDirectories` (`nil`:
    /// the machine's) from the next call on.
    public func use(root: DeviceRoot, catalog: String?, mimeDirectories: [String]? = nil) {
        state.withLock { state in
            state = State(root: root, catalog: catalog, mimeDirectories: mimeDirectories, fixed: false, snapshot: nil, nextCheck: 0)
        }
    }

    /// Answers from `registry` from now on, never reading it again.
    public func use(_ registry: TypeRegistry) {
        let snapshot = RegistrySnapshot(registry)
        state.withLock { state in
            state.fixed = true
            state.snapshot = snapshot
        }
    }

    /// The registry, read again first when the refresh interval has passed and a source changed.
    public var registry: TypeRegistry { snapshot.registry }

    /// The registry and the numbers of Apple's constants in it.
    var snapshot: RegistrySnapshot {
        state.withLock { state in
            let now = Self.coarseNanoseconds()
            if let snapshot = state.snapshot {
                if state.fixed || now < state.nextCheck { return snapshot }
                state.nextCheck = now &+ interval
                if RegistryStore.isCurrent(snapshot.registry, root: state.root, catalog: state.catalog, mimeDirectories: state.mimeDirectories) { return snapshot }
            }
            let snapshot = RegistrySnapshot(Self.open(root: state.root, catalog: state.catalog, mimeDirectories: state.mimeDirectories))
            state.snapshot = snapshot
            state.nextCheck = now &+ interval
            return snapshot
        }
    }

    /// Reads the registry again at the next use, whatever the interval.
    public func reload() {
        state.withLock { state in
            state.fixed = false
            state.snapshot = nil
        }
    }

    /// A monotonic time that is cheap to read: every call without a registry reads it, and
    /// `ContinuousClock.now` was a tenth of the time of `UTType(filenameExtension:)`. Its
    /// resolution (a few milliseconds) is plenty for a one-second interval.
    private static func coarseNanoseconds() -> UInt64 { Clock.coarseMonotonicNanoseconds() }

    private static func open(root: DeviceRoot, catalog: String?, mimeDirectories: [String]?) -> TypeRegistry {
        do {
            return try RegistryStore.open(root: root, catalog: catalog, mimeDirectories: mimeDirectories)
        } catch {
            // RegistryStore falls back to a registry compiled in memory when it cannot write, so
            // this is a device root that cannot even be read; answer with no declared types
            // (dynamic types still work) rather than fail every call.
            log.error("cannot open the type registry of \(root.path): \(error)")
            return TypeRegistry(declarations: [])
        }
    }
}

/// A registry with the numbers of Apple's constants in it, looked up once when it is opened, so
/// that `UTType.png` costs an array read instead of a lookup by identifier.
final class RegistrySnapshot: Sendable {
    let registry: TypeRegistry
    /// The number of each entry of `UTType.constantTable`, or -1 when the registry lacks it.
    let constantNumbers: [TypeRegistry.TypeID]

    init(_ registry: TypeRegistry) {
        self.registry = registry
        constantNumbers = UTType.constantTable.map { registry.number(of: $0.identifier) ?? -1 }
    }
}
