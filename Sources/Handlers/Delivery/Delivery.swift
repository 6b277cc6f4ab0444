import AppRegistry
import OpenRequests
import PropertyLists
import SystemCalls
import UniformTypes

/// Hands documents to an app: a durable copy in its Inbox, an open request in its `Library/`, and
/// its launch command when it declares one.
///
/// The copy is staged in the target's own container (`tmp/`, same file system as the Inbox),
/// flushed and made read-only (0444); the open request naming the staged file's identity is
/// written and flushed; then the copy is renamed into `Documents/Inbox` with
/// `renameat2(RENAME_NOREPLACE)` under its name or the first free `name-N.ext`, the Inbox is
/// flushed, and the request is replaced by one naming the final path. So the Inbox never holds a
/// partial file (a killed copy leaves a temporary file in `tmp/`), nothing in it is ever
/// overwritten, and a document is never in the Inbox before its request (see ``OpenRequest``).
/// Apps with `LSSupportsOpeningDocumentsInPlace` get no copy: the request names the original.
public struct Delivery: Sendable {
    /// What one delivery did.
    public struct Result: Sendable, Hashable {
        /// The document as the app receives it: the Inbox copy, or the original when opened in place.
        public var documentPath: String
        /// The open request written into the app's `Library/OpenRequests/`.
        public var requestPath: String
        /// Whether the app opens the original in place.
        public var inPlace: Bool
        /// The launch command started, if any.
        public var launched: [String]?
    }

    /// The `sourceApplication` used when the sender does not say (`openin --from`).
    public static let defaultSourceApplication = "org.document-interchange.openin"

    /// The device the apps live on.
    public var root: DeviceRoot
    /// The sender's bundle identifier (`sourceApplication`).
    public var sourceApplication: String
    /// The value passed along to the app (`annotation`).
    public var annotation: PropertyList?
    /// Whether to start the app's launch command.
    public var launch: Bool
    /// Where the request's time comes from.
    public var clock: Clock

    /// A delivery from `sourceApplication` on `root`.
    public init(root: DeviceRoot, sourceApplication: String = defaultSourceApplication, annotation: PropertyList? = nil,
                launch: Bool = true, clock: Clock = .system) {
        self.root = root
        self.sourceApplication = sourceApplication
        self.annotation = annotation
        self.launch = launch
        self.clock = clock
    }

    /// Delivers `documentPath` of type `type` to `app`.
    /// - Parameters:
    ///   - activity: the share extension that took it, when it is not the app itself.
    ///   - progress: called with bytes copied and the total, during the copy.
    ///   - movingOriginal: the document is the caller's to give away (a received item): it is
    ///     moved into the app's container instead of copied (a rename on the same file system).
    public func deliver(_ documentPath: String, type: String, to app: AppBundle, activity: String? = nil, movingOriginal: Bool = false,
                        progress: ((Int64, Int64) -> Void)? = nil) throws(HandlerError) -> Result {
        let original: String
        do { original = try CurrentProcess.absolutePath(documentPath) } catch { throw .system(error) }
        // A document the caller gives away (a received item) has no place of its own to be
        // opened in: it goes into the Inbox even for an app that opens documents in place, as
        // AirDrop's do on iOS. Left where it was, its request pointed into the nearby spool,
        // which removes the file once the item is marked delivered (LocalSend's lab lost a
        // 100 MB file to the Files sample app this way).
        let inPlace = app.opensDocumentsInPlace && !movingOriginal
        // Checked before the container is made: a refused document leaves no empty folders. (The
        // copy checks again what it opened.)
        guard let status = FileSystem.status(original) else { throw .system(SystemCallError(.stat, path: original, errno: .noSuchFileOrDirectory)) }
        guard Self.takes(status.kind, inPlace: inPlace) else { throw .notAFile(original, status.kind) }
        let container: AppContainer
        do {
            container = try AppContainer(bundleIdentifier: app.bundleIdentifier, on: root)
            try container.create()
        } catch { throw .app(error) }
        var request = OpenRequest(documentPath: original)
        request.originalPath = original
        request.documentType = type
        request.sourceApplication = sourceApplication
        request.targetApplication = app.bundleIdentifier
        request.opensInPlace = inPlace
        request.time = clock.now()
        request.annotation = annotation
        request.activity = activity
        let requestPath: String
        if inPlace {
            do { requestPath = try request.write(into: container.openRequests, clock: clock) } catch { throw .openRequest(error) }
        } else {
            let staged = movingOriginal
                ? try StagedCopy(moving: original, in: container.temporary, permissions: 0o444)
                : try StagedCopy(of: original, in: container.temporary, permissions: 0o444, progress: progress)
            request.documentPath = container.inbox + "/" + staged.name
            request.identity = staged.identity
            request.state = .arriving
            do { requestPath = try request.write(into: container.openRequests, clock: clock) } catch { throw .openRequest(error) }
            FaultInjection.checkpoint("request-written")
            do {
                request.documentPath = try staged.place(into: container.inbox)
            } catch {
                // Nothing arrived: the request must not wait for a document that never comes.
                try? FileSystem.remove(requestPath)
                throw error
            }
            FaultInjection.checkpoint("placed")
            request.state = .delivered
            // A receiver may have consumed the request already (matched by identity); then it
            // stays consumed.
            do { try request.update(at: requestPath) } catch { throw .openRequest(error) }
        }
        var launched: [String]?
        if launch, let command = app.launchCommand {
            let words = command.expanded(bundlePath: app.path, documentPath: request.documentPath, sourceApplication: sourceApplication,
                                         requestPath: requestPath)
            do {
                let pid = try Spawn.detached(words, adding: LaunchCommand.environment(bundleIdentifier: app.bundleIdentifier, root: root,
                                                                                      sourceApplication: sourceApplication, requestPath: requestPath,
                                                                                      documentPath: request.documentPath))
                // Left to run; reaped when it ends (a receiver that delivers for days started many).
                Spawn.reapWhenDone(pid)
            } catch { throw .system(error) }
            launched = words
        }
        return Result(documentPath: request.documentPath, requestPath: requestPath, inPlace: inPlace, launched: launched)
    }

    /// Whether a document of `kind` can be handed over: a regular file, or also a folder (a
    /// package) to an app that opens documents in place. The one rule for the sheet's activities
    /// and for delivery.
    public static func takes(_ kind: FileKind?, inPlace: Bool) -> Bool {
        kind == .regular || (inPlace && kind == .directory)
    }

    /// Moves `source` (the caller's to give away) into `folder` under its name or the first free
    /// `name-N.ext`, never replacing anything: a rename when both are on one file system.
    /// - Returns: the path it was placed at.
    public static func moveWithoutReplacing(_ source: String, into folder: String, permissions: UInt32 = 0o644) throws(HandlerError) -> String {
        try StagedCopy(moving: source, in: folder, permissions: permissions).place(into: folder)
    }

    /// Copies `source` into `folder` under its name or the first free `name-N.ext`, never
    /// replacing anything, through a flushed temporary file in `temporaryFolder` (same file system).
    /// - Returns: the path of the copy.
    public static func copyWithoutReplacing(_ source: String, into folder: String, temporaryFolder: String,
                                            permissions: UInt32 = 0o644, progress: ((Int64, Int64) -> Void)? = nil) throws(HandlerError) -> String {
        try StagedCopy(of: source, in: temporaryFolder, permissions: permissions, progress: progress).place(into: folder)
    }
}
