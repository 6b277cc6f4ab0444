import AppRegistry
import Handlers
import Logging
import SystemCalls
import UniformTypes

/// The receiver of a device root, as a library: what `inboxd` does, callable in-process by an
/// app. It serves every app with a container on the root, or one app, each with its own manifest
/// and the acceptance policy its Info.plist declares (``AcceptancePolicy/declared(by:registry:)``).
///
/// ```swift
/// var options = DeviceReceiver.Options(root: DeviceRoot.resolve(explicit: nil))
/// options.app = "com.example.notes"
/// let receiver = try DeviceReceiver(options)
/// for pass in try receiver.passOnce() { … }
/// ```
public struct DeviceReceiver {
    /// What to serve and how.
    public struct Options: Sendable {
        /// The device root.
        public var root: DeviceRoot
        /// One app's bundle identifier, or every app with a container.
        public var app: String?
        /// Where files go instead of each app's `Documents/` (one app only).
        public var workingFolder: String?
        /// The senders whose documents are accepted.
        public var senders = SenderAllowList()
        /// Larger files are refused.
        public var sizeLimit: Int64 = 1 << 32
        /// Seconds between full passes while watching.
        public var rescanInterval = 5.0
        /// Files moved per group commit.
        public var batchSize = 256

        /// Options for `root`.
        public init(root: DeviceRoot) { self.root = root }
    }

    /// One app's pass.
    public struct AppPass: Sendable {
        public var app: String
        public var outcomes: [EntryOutcome]
    }

    /// One app's state, for `status`.
    public struct AppStatus: Sendable {
        public var app: String
        /// Entries in the Inbox now.
        public var waiting: Int
        /// Manifest rows by status.
        public var counts: [MoveStatus: Int]
    }

    public let options: Options
    /// The type catalog the policies judge with.
    public let catalog: String
    public var logger: Logger

    /// Validates `options`: the root must exist when it was named (a missing default root is
    /// simply not set up yet), the app must be registered or have a container, and a type
    /// catalog must be found.
    public init(_ options: Options, logger: Logger = Logger(label: "inboxd")) throws(ReceiverError) {
        self.options = options
        self.logger = logger
        if options.root.origin != .userDefault && !options.root.exists { throw .noDeviceRoot(options.root.path) }
        do { catalog = try TypeCatalog.required(for: options.root) } catch { throw .app(error) }
        if let app = options.app {
            let container: AppContainer
            do { container = try AppContainer(bundleIdentifier: app, on: options.root) } catch { throw .app(error) }
            if !container.exists && !isRegistered(app) { throw .noSuchApp(app, root: options.root.path) }
        }
    }

    /// The root's registry as it is now (rebuilt when an app was registered since).
    func registry() -> TypeRegistry? {
        guard options.root.exists else { return nil }
        return try? RegistryStore.open(root: options.root, catalog: catalog)
    }

    /// Whether `app` is registered on the root.
    func isRegistered(_ app: String) -> Bool {
        guard options.root.exists, let registry = try? RegistryStore.open(root: options.root, catalog: catalog) else { return false }
        return AppBundle.isRegistered(app, in: registry)
    }

    /// The apps served now: the one named, if it has a container; else every container.
    public func apps() -> [String] {
        if let app = options.app {
            return ((try? AppContainer(bundleIdentifier: app, on: options.root))?.exists ?? false) ? [app] : []
        }
        return AppContainer.identifiers(on: options.root)
    }

    /// A mover for `app` with its manifest and policy (the registry is read now, so a newly
    /// registered app is judged by its declarations at the next pass).
    public func mover(for app: String) throws(ReceiverError) -> InboxMover {
        let container: AppContainer
        do { container = try AppContainer(bundleIdentifier: app, on: options.root) } catch { throw .app(error) }
        do { try container.create() } catch { throw .app(error) }
        var mover = InboxMover(container: container, sizeLimit: options.sizeLimit, manifest: try Manifest(path: container.manifest))
        if let workingFolder = options.workingFolder {
            do { try FileSystem.makeDirectories(workingFolder) } catch { throw .system(error) }
            mover.destination = (try? CurrentProcess.absolutePath(workingFolder)) ?? workingFolder
        }
        mover.policy = policy(for: app)
        mover.senders = options.senders
        mover.batchSize = options.batchSize
        mover.logger = logger
        return mover
    }

    /// The app's acceptance policy from the registry as it is now: its declared rule when it is
    /// registered, else types recorded and everything accepted.
    func policy(for app: String, registry given: TypeRegistry? = nil) -> AcceptancePolicy? {
        guard let registry = given ?? (try? RegistryStore.open(root: options.root, catalog: catalog)) else { return nil }
        if let bundle = AppBundle.registered(app, in: registry) {
            return .declared(by: bundle, registry: registry)
        }
        return .typesOnly(registry: registry)
    }

    /// One pass over every app served: what is in the Inboxes now.
    public func passOnce() throws(ReceiverError) -> [AppPass] {
        var passes: [AppPass] = []
        for app in apps() {
            passes.append(AppPass(app: app, outcomes: try mover(for: app).moveAll()))
        }
        return passes
    }

    /// Settles interrupted moves of every app served; the rows still unfinished per app (owned by
    /// running receivers).
    public func recover() throws(ReceiverError) -> [(app: String, unfinished: Int)] {
        var result: [(String, Int)] = []
        for app in apps() {
            let mover = try mover(for: app)
            try mover.recover()
            result.append((app, try mover.manifest?.unfinished().count ?? 0))
        }
        return result
    }

    /// Each app's Inbox and manifest as they are, read-only.
    public func status() throws(ReceiverError) -> [AppStatus] {
        var result: [AppStatus] = []
        for app in apps() {
            let container: AppContainer
            do { container = try AppContainer(bundleIdentifier: app, on: options.root) } catch { throw .app(error) }
            var counts: [MoveStatus: Int] = [:]
            for entry in try Manifest.entries(at: container.manifest) ?? [] { counts[entry.status, default: 0] += 1 }
            result.append(AppStatus(app: app, waiting: FileSystem.entries(of: container.inbox).count, counts: counts))
        }
        return result
    }

    /// Each app's manifest rows, oldest first, read-only.
    public func history() throws(ReceiverError) -> [(app: String, entries: [ManifestEntry])] {
        var result: [(String, [ManifestEntry])] = []
        for app in apps() {
            let container: AppContainer
            do { container = try AppContainer(bundleIdentifier: app, on: options.root) } catch { throw .app(error) }
            result.append((app, try Manifest.entries(at: container.manifest) ?? []))
        }
        return result
    }
}
