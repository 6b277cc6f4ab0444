import AppRegistry
import DesktopEntries
import NearbyDevices
import SystemCalls
import UniformTypes

/// The one chooser every front end calls (`openin` on a terminal or as a desktop dialog, an app
/// through `AppInterchange`): it decides each document's type once, offers rows whose handler is
/// a value (``ChooserRow/Handler``), and performs the row chosen (``perform(_:of:annotation:launch:destination:progress:)``).
///
/// The registered apps come from the registry's records (rebuilt whenever an app is registered or
/// removed), or from their Info.plists when the registry has no records yet; the Linux desktop
/// applications (``LinuxApps``) are ranked beside them when ``Configuration/desktopApps`` says so.
public struct DocumentChooser: Sendable {
    /// Which registered apps the chooser looks at.
    public enum Apps: Sendable, Hashable {
        /// Those that can matter for the documents (``AppRegistry/AppBundle/considered(for:in:)``):
        /// the same rows as every app, at a cost that does not grow with the number of apps.
        case relevant
        /// Every app, so that those not offered can be explained (`--all`, `--to`).
        case every
        /// This app only (an app sending to one other app).
        case only(String)
    }

    /// What a front end asks of the chooser.
    public struct Configuration: Sendable {
        /// The sender: never offered its own documents, named in open requests.
        public var sourceApplication: String
        /// Bundle identifiers, desktop-file IDs and activity types left out (`excludedActivityTypes`).
        public var exclude: Set<String>
        /// Which registered apps are looked at.
        public var apps: Apps
        /// The Linux desktop applications offered beside the registered apps (their folders, and
        /// the order: ours or GIO's); `nil`: registered apps only.
        public var desktopApps: LinuxApps?
        /// Whether the sender is offered its own documents (an app sending a document to itself).
        public var offersSender: Bool
        /// Only the paired nearby devices are offered (a file manager's "Send to Nearby Device…"):
        /// no app, no other activity.
        public var nearbyDevicesOnly = false

        /// A configuration; by default the relevant registered apps, no desktop apps, nothing
        /// excluded, the sender not offered.
        public init(sourceApplication: String, exclude: Set<String> = [], apps: Apps = .relevant, desktopApps: LinuxApps? = nil,
                    offersSender: Bool = false) {
            self.sourceApplication = sourceApplication
            self.exclude = exclude
            self.apps = apps
            self.desktopApps = desktopApps
            self.offersSender = offersSender
        }
    }

    /// The device root whose apps, defaults and containers are used.
    public let root: DeviceRoot
    /// Its type registry.
    public let registry: TypeRegistry
    /// What the front end asked for.
    public let configuration: Configuration
    /// The user's defaults (`openin default set`).
    public let defaults: HandlerDefaults

    /// A chooser over `root`'s apps; the user's defaults are read once here.
    public init(root: DeviceRoot, registry: TypeRegistry, configuration: Configuration) throws(HandlerError) {
        self.root = root
        self.registry = registry
        self.configuration = configuration
        defaults = try HandlerDefaults(root: root)
    }

    /// The rows for the documents at `paths`: the apps that can open every one of them, in the
    /// documented order with reasons, then the activities; and the apps that cannot, with why,
    /// when ``Configuration/apps`` is ``Apps/every``.
    public func choices(for paths: [String]) -> Choices {
        let documents = Sheet.Document.typed(paths, registry: registry)
        let types = documents.map(\.type)
        var unreadable: [(path: String, error: String)] = []
        var bundles: [AppBundle]
        switch configuration.apps {
        case .relevant: bundles = AppBundle.considered(for: types, in: registry)
        case .every: bundles = AppBundle.all(in: registry) ?? []
        case .only(let id): bundles = AppBundle.registered(id, in: registry).map { [$0] } ?? []
        }
        // A registry built before any app was registered has no records: the apps are read from
        // their Info.plists (each unreadable one is reported and left out).
        if registry.appRecordCount == 0 && !RegisteredApp.all(on: root).isEmpty {
            let read = AppBundle.all(on: root)
            unreadable = read.unreadable
            bundles = read.apps
            if case .only(let id) = configuration.apps { bundles = bundles.filter { $0.bundleIdentifier == id } }
        }
        if configuration.nearbyDevicesOnly { bundles = [] }
        let desktop = configuration.desktopApps.map { linux in
             Choices.Desktop(linux: linux, selection: linux.select(types: types, registry: registry, everyApp: configuration.apps == .every))
        }
        var byType = defaults.byType
        if let desktop {
            // The desktop's defaults under the user's own (`openin default set`), which win for the same type.
            byType = desktop.selection.defaults.merging(byType) { _, own in own }
        }
        let chooser = Chooser(registry: registry, bundles: bundles + (desktop?.selection.bundles ?? []), defaults: byType)
        let sender = configuration.sourceApplication
        var sheet = chooser.sheet(for: documents, exclude: configuration.exclude, sourceApplication: configuration.offersSender ? "" : sender,
                                  refusals: configuration.apps != .relevant,
                                  senderIsRegistered: registry.appRecordCount == 0 ? nil : AppBundle.isRegistered(sender, in: registry),
                                  nearbyDevices: Self.nearbyDeviceNames(on: root))
        if let desktop { desktop.linux.arrange(&sheet, selection: desktop.selection) }
        if configuration.nearbyDevicesOnly {
            sheet.apps = []
            sheet.refusals = []
            sheet.activities.removeAll { if case .sendToNearbyDevice = $0.kind { false } else { true } }
        }
        return Choices(sheet: sheet, desktop: desktop, unreadableApps: unreadable, root: root, exclude: configuration.exclude,
                       shareExtensionTypes: chooser.bundles.flatMap { $0.shareExtensions.map(\.activityType) })
    }

    /// The registered app the sheet puts first for an item of `type` named `name` that is not here
    /// yet (a received item, whose type its sender declared), the user's defaults included: where
    /// a receiver delivers it, so that it lands in the app `openin` would offer first, not in a
    /// second ranking's choice. `nil` when no registered app opens it.
    public func firstApp(forType type: UTType, named name: String) -> AppBundle? {
        let document = Sheet.Document(path: name, type: type, rule: .declared)
        var bundles = AppBundle.considered(for: [type], in: registry)
        if registry.appRecordCount == 0 && !RegisteredApp.all(on: root).isEmpty { bundles = AppBundle.all(on: root).apps }
        let chooser = Chooser(registry: registry, bundles: bundles, defaults: defaults.byType)
        return chooser.sheet(for: [document], exclude: configuration.exclude, sourceApplication: configuration.offersSender ? "" : configuration.sourceApplication,
                             refusals: false, senderIsRegistered: false).apps.first?.app
    }

    /// The names of the paired devices the sheet offers: those in reach, when the device's
    /// running receiver keeps a record of them (``DevicesInReach``), and a device it cannot
    /// recognise in discovery (one paired without a discovery key) since nobody can say; every
    /// paired device when no receiver keeps the record. None when this device has not paired, or
    /// its list cannot be read: the sheet still opens, and `nearby list` says what is wrong.
    public static func nearbyDeviceNames(on root: DeviceRoot) -> [String] {
        let folder = NearbyFolder(root: root)
        guard FileSystem.exists(folder.paired) else { return [] }
        let paired = (try? PairedDevices.load(from: folder))?.devices ?? []
        guard let reach = DevicesInReach.live(in: folder) else { return paired.map(\.name) }
        return paired.filter { $0.discoveryKey == nil || reach.contains($0.fingerprint) }.map(\.name)
    }

    /// Why ``nearbyDeviceNames(on:)`` is empty, for `openin --nearby` to say: on a terminal, with
    /// the command that goes on; in a desktop dialog (`forDesktop`), in words a person without a
    /// terminal can act on (a command line in a GUI error helped nobody).
    public static func whyNoNearbyDevice(on root: DeviceRoot, forDesktop: Bool = false) -> String {
        let names = ((try? PairedDevices.load(from: NearbyFolder(root: root)))?.devices ?? []).map(\.name)
        if forDesktop {
            guard !names.isEmpty else {
                return "No device is paired with this computer yet. Pair one first: it is done once, on both devices (see \"Pairing\" in the Nearby guide)."
            }
            return "None of your paired devices (\(names.joined(separator: ", "))) is in reach now. "
                + "Check that the other device is on this network and is receiving, then try again."
        }
        guard !names.isEmpty else { return "no device is paired with this one: pair one with nearby pair (docs/nearby.md)" }
        return "no paired device is in reach (paired: \(names.joined(separator: ", "))): this device's receiver sees none of them now; "
            + "nearby send --to NAME still looks for it, then tries where it was last reached"
    }

    /// The app `identifier` (a registered bundle identifier, or a desktop-file ID), when it can
    /// open documents of `type`: what `openin default set` stores.
    public func capableApp(_ identifier: String, for type: UTType) throws(HandlerError) -> AppBundle {
        if DesktopApps.isDesktopFileID(identifier) {
            let linux = configuration.desktopApps ?? LinuxApps()
            guard linux.apps.app(identifier) != nil else { throw .refused(linux.apps.whyNotAvailable(identifier)) }
            let selection = linux.select(types: [type], registry: registry)
            guard let bundle = selection.bundles.first(where: { $0.bundleIdentifier == identifier }), opens(bundle, type) else {
                throw .cannotOpen(app: identifier, type: type.identifier,
                                  detail: " (\(LinuxApps.mimeType(of: type))): neither its MimeType= nor a mimeapps.list line associates it")
            }
            return bundle
        }
        guard let app = AppBundle.registered(identifier, in: registry) ?? AppBundle.all(on: root).apps.first(where: { $0.bundleIdentifier == identifier }) else {
            throw .noSuchApp(identifier)
        }
        guard opens(app, type) else {
            let claimed = app.claims.flatMap(\.contentTypes)
            throw .cannotOpen(app: "\(app.name) (\(identifier))", type: type.identifier,
                              detail: claimed.isEmpty ? ": it declares no document types" : "; it opens \(claimed.prefix(5).joined(separator: ", "))")
        }
        return app
    }

    func opens(_ app: AppBundle, _ type: UTType) -> Bool {
        !HandlerRanking(registry: registry).rank(type: type, fileName: nil, index: HandlerIndex(bundles: [app], registry: registry)).isEmpty
    }
}
