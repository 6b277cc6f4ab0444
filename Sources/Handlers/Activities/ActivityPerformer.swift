import AppRegistry
import Pasteboards
import PropertyLists
import SystemCalls
import UniformTypes

/// Carries out an activity the sheet offered, for an app or a tool: copies into a folder, saves
/// into the sender's container, prints, copies to the clipboard, or delivers through a share
/// extension. Everything a user decides (which folder, whether to create it) is decided before.
public struct ActivityPerformer {
    /// What one document became.
    public enum Result: Sendable, Hashable {
        /// Copied into a folder (copy-to-folder, save-to-sender), at this path.
        case copied(document: String, to: String)
        /// Sent to the printer.
        case printed(documents: [String])
        /// Put on the clipboard with this MIME type, served by the desktop bridge or a helper.
        case copiedToClipboard(document: String, mimeType: String, servedBy: ClipboardServer)
        /// Delivered to the app that declares the share extension.
        case delivered(document: String, app: AppBundle, result: Delivery.Result)
        /// Sent to a paired nearby device (which delivered them).
        case sentToNearbyDevice(documents: [String], device: String)
    }

    /// What keeps a copy on the desktop clipboard after the copying program exits.
    public enum ClipboardServer: Sendable, Hashable, CustomStringConvertible {
        /// `pasteboardd`, which serves the device root's general pasteboard on this display.
        case bridge
        /// The clipboard program's child (`xclip`, `wl-copy`).
        case helper(ClipboardProgram)

        /// "pasteboardd", "xclip".
        public var description: String {
            switch self {
            case .bridge: "pasteboardd"
            case .helper(let program): program.rawValue
            }
        }
    }

    /// How long the clipboard program may take to read the document and hand it to its child.
    static let clipboardTimeout = 10.0

    /// How documents reach apps (the sender, its annotation, whether apps are started).
    public var delivery: Delivery
    /// The apps, to find the one behind a share extension.
    public var registry: TypeRegistry?

    /// A performer delivering as `delivery` does.
    public init(delivery: Delivery, registry: TypeRegistry? = nil) {
        self.delivery = delivery
        self.registry = registry
    }

    /// Performs `activity` on `documents`.
    /// - Parameters:
    ///   - destination: the folder for copy-to-folder; it must exist.
    ///   - progress: called per document with bytes copied and the total.
    public func perform(_ activity: Activity, on documents: [Sheet.Document], destination: String? = nil,
                        progress: ((String) -> ((Int64, Int64) -> Void)?)? = nil) throws(HandlerError) -> [Result] {
        switch activity.kind {
        case .copyToFolder:
            guard let destination else { throw .activityFailed(activity: activity.activityType, reason: "it needs a destination folder") }
            guard FileSystem.isDirectory(destination) else {
                throw .activityFailed(activity: activity.activityType, reason: FileSystem.exists(destination) ? "\(destination) is not a folder" : "there is no folder \(destination)")
            }
            return try documents.map { document throws(HandlerError) in
                .copied(document: document.path, to: try Delivery.copyWithoutReplacing(document.path, into: destination, temporaryFolder: destination,
                                                                                         progress: progress?(document.path)))
            }
        case .saveToSender(let bundleIdentifier):
            let container: AppContainer
            do {
                container = try AppContainer(bundleIdentifier: bundleIdentifier, on: delivery.root)
                try container.create()
            } catch { throw .app(error) }
            return try documents.map { document throws(HandlerError) in
                .copied(document: document.path, to: try Delivery.copyWithoutReplacing(document.path, into: container.documents,
                                                                                         temporaryFolder: container.temporary,
                                                                                         progress: progress?(document.path)))
            }
        case .print:
            let finished: Spawn.Finished
            do { finished = try Spawn.run(["lp"] + documents.map(\.path)) } catch { throw .system(error) }
            guard finished.status == 0 else { throw .activityFailed(activity: activity.activityType, reason: "lp exited with status \(finished.status)") }
            return [.printed(documents: documents.map(\.path))]
        case .copyToClipboard(let program):
            let document = documents[0]
            // The clipboard holds the document in memory (ours, the helper's, the bridge's): a
            // file over the pasteboards' limit is refused before it is read.
            let limit = PasteboardLimits().maximumBytes
            if let size = FileSystem.status(document.path)?.size, size > limit {
                throw .activityFailed(activity: activity.activityType, reason: "\(document.path) is \(size) bytes, more than the clipboard's limit of \(limit)")
            }
            let bytes: [UInt8]
            do { bytes = try FileSystem.read(document.path) } catch { throw .system(error) }
            let mime = document.type.preferredMIMEType ?? "application/octet-stream"
            // A bridge serving this display takes the copy through the general pasteboard: no
            // helper process is left behind, and the copy is on the device's pasteboard too.
            if let key = BridgePresence.environmentKey(), BridgePresence.isServed(root: delivery.root, key: key) {
                let item = PasteboardItem(representations: [PasteboardRepresentation(type: document.type.identifier, data: bytes)])
                do { _ = try PasteboardStore(root: delivery.root).general().setItems([item]) } catch {
                    throw .activityFailed(activity: activity.activityType, reason: "\(error)")
                }
                return [.copiedToClipboard(document: document.path, mimeType: mime, servedBy: .bridge)]
            }
            let command = program.command(mimeType: mime)
            // The program forks a child that serves the clipboard until another program takes
            // it: we wait for the program, never for that child, which outlives us.
            let ended: Spawn.HandOff
            do { ended = try Spawn.handOff(command, input: bytes, timeout: Self.clipboardTimeout) } catch { throw .system(error) }
            switch ended {
            case .exited(0): return [.copiedToClipboard(document: document.path, mimeType: mime, servedBy: .helper(program))]
            case .exited(let status): throw .activityFailed(activity: activity.activityType, reason: "\(program) exited with status \(status)")
            case .timedOut: throw .activityFailed(activity: activity.activityType, reason: "\(program) did not take the data within \(Int(Self.clipboardTimeout)) s (is the display answering?)")
            }
        case .sendToNearbyDevice(let device):
            // The tool, not the library: Nearby sits above the chooser (it delivers through it),
            // and a sender's progress line and exit status are the tool's.
            // Its JSON events, read as they come: each document's progress for the caller's bar,
            // and the reason when it fails (said in words, not as an exit status).
            let command = [Environment.findCompanionTool("nearby") ?? "nearby", "send", "--root", delivery.root.path, "--to", device,
                           "--from", delivery.sourceApplication, "--json", "--"] + documents.map(\.path)
            var failure: String?
            let bars = documents.map { progress?($0.path) }
            let status: Int32
            do {
                status = try Spawn.lines(command) { line in
                    guard let event = NearbyEvent(line) else { return }
                    switch event {
                    case .progress(let item, let bytes, let total) where bars.indices.contains(item): bars[item]?(bytes, total)
                    case .error(let message): failure = message
                    default: break
                    }
                }
            } catch { throw .system(error) }
            guard status == 0 else {
                throw .activityFailed(activity: activity.activityType, reason: failure ?? "nearby send exited with status \(status)")
            }
            return [.sentToNearbyDevice(documents: documents.map(\.path), device: device)]
        case .shareExtension(let bundleIdentifier):
            guard let app = registry.flatMap({ AppBundle.registered(bundleIdentifier, in: $0) })
                    ?? AppBundle.all(on: delivery.root).apps.first(where: { $0.bundleIdentifier == bundleIdentifier }) else {
                throw .noSuchApp(bundleIdentifier)
            }
            return try documents.map { document throws(HandlerError) in
                .delivered(document: document.path, app: app,
                           result: try delivery.deliver(document.path, type: document.type.identifier, to: app, activity: activity.activityType,
                                                        progress: progress?(document.path)))
            }
        }
    }
}
