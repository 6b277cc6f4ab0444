import AppRegistry
import Handlers
import OpenRequests
import PropertyLists
import SystemCalls
import UniformTypes

/// Where a received item goes, decided when it is asked for: the app the sender named, if it is
/// registered here and opens the type (when it is not, the session declines the ask:
/// ``refusal(of:for:names:destinations:registry:)``); else the registered app `openin` would put
/// first for it, the user's defaults included (``Handlers/DocumentChooser/firstApp(forType:named:)``,
/// the one ranking); else the download folder.
enum Destination: Sendable, Equatable {
    /// An app's Inbox, through the same delivery as `openin` (open request first).
    case app(AppBundle)
    /// The download folder, never replacing a file.
    case downloads(String)

    static func == (a: Destination, b: Destination) -> Bool { a.label == b.label }

    /// The app's bundle identifier, or `downloads`.
    var label: String {
        switch self {
        case .app(let app): app.bundleIdentifier
        case .downloads: "downloads"
        }
    }

    /// The chooser a receiver asks for each ask's items: `root`'s registered apps and the user's
    /// defaults (`nil` without a registry, or when the defaults cannot be read: the download folder
    /// then, as `openin` would refuse to choose).
    static func chooser(root: DeviceRoot, registry: TypeRegistry?) -> DocumentChooser? {
        registry.flatMap { try? DocumentChooser(root: root, registry: $0, configuration: .init(sourceApplication: "")) }
    }

    /// The destination for an item of `type` named `name`.
    static func choose(type identifier: String, name: String, targetApp: String?, chooser: DocumentChooser?, downloads: String) -> Destination {
        guard let chooser else { return .downloads(downloads) }
        let registry = chooser.registry
        guard let type = UTType(identifier, in: registry) ?? UTType("public.data", in: registry) else { return .downloads(downloads) }
        if let targetApp, let app = AppBundle.registered(targetApp, in: registry),
           !HandlerRanking(registry: registry).rank(type: type, fileName: name, index: HandlerIndex(bundles: [app], registry: registry)).isEmpty {
            return .app(app)
        }
        return chooser.firstApp(forType: type, named: name).map { .app($0) } ?? .downloads(downloads)
    }

    /// Why the items cannot go to `targetApp` (the app the sender named), or `nil` when each of
    /// `destinations` is that app: it is not installed here, or it does not open an item's type.
    static func refusal(of targetApp: String, for types: [String], names: [String], destinations: [Destination],
                        registry: TypeRegistry?) -> String? {
        guard let index = destinations.firstIndex(where: { $0.label != targetApp }) else { return nil }
        guard let registry, AppBundle.registered(targetApp, in: registry) != nil else { return "the app \(targetApp) is not on this device" }
        return "the app \(targetApp) here does not open \(names[index]) (\(types[index]))"
    }

    /// Hands the verified file at `path` over; returns where it landed.
    /// - Parameters:
    ///   - senderApp: the sending app, for the open request's `sourceApplication`.
    ///   - annotation: who sent it from which device, for the app.
    func deliver(_ path: String, type: String, root: DeviceRoot, senderApp: String, annotation: PropertyList,
                 launch: Bool) throws(NearbyError) -> String {
        switch self {
        case .app(let app):
            let delivery = Delivery(root: root, sourceApplication: senderApp, annotation: annotation, launch: launch)
            // The verified spool file is ours: moved, not copied (one rename, same file system).
            do { return try delivery.deliver(path, type: type, to: app, movingOriginal: true).documentPath } catch {
                throw .delivery(destination: app.bundleIdentifier, detail: "\(error)")
            }
        case .downloads(let folder):
            do {
                try FileSystem.makeDirectories(folder)
                return try Delivery.moveWithoutReplacing(path, into: folder)
            } catch { throw .delivery(destination: folder, detail: "\(error)") }
        }
    }

    /// Where the file at `path` was already handed to this destination, if it was: an app holds
    /// an open request whose original is `path` (a delivery a kill interrupted after the request
    /// was written). A request still `arriving` is finished first: its staged copy, in the app's
    /// `tmp/`, is placed into the Inbox (``Handlers/Delivery/finishArriving(_:at:container:)``);
    /// counted as delivered while it waited there, the item was lost (lab-resume.sh found it).
    /// Only requests in place count: a dot-named file is a request write that was cut off
    /// (AtomicFile's temporary, never renamed into place). Read as a request, it made a receiver
    /// killed in the middle of that write mark the item delivered, while the document waited in
    /// the app's `tmp/` and never reached the Inbox (lab-resume.sh found it too).
    func priorDelivery(of path: String, root: DeviceRoot) throws(NearbyError) -> String? {
        guard case .app(let app) = self, let container = try? AppContainer(bundleIdentifier: app.bundleIdentifier, on: root) else { return nil }
        for name in FileSystem.entries(of: container.openRequests) where !name.hasPrefix(".") {
            let requestPath = container.openRequests + "/" + name
            guard let request = try? OpenRequest.read(requestPath), request.originalPath == path else { continue }
            do { return try Delivery.finishArriving(request, at: requestPath, container: container) } catch {
                throw .delivery(destination: app.bundleIdentifier, detail: "finishing an interrupted delivery: \(error)")
            }
        }
        return nil
    }
}
