import OrderedCollections
import PropertyLists
import SystemCalls

/// An open request: what a sender writes into the target app's `Library/OpenRequests/` (one XML
/// property list per request) so that the app, or its receiver, knows what arrived, from whom,
/// with which annotation and through which activity. A URL request (``url``, `openurl`) is the
/// same model without a document: the URL, the sender and the annotation. An activity request
/// (``continuedActivity``, Handoff) is the same again: the activity another device offered, and
/// the device it came from.
///
/// Order (the receiver's guarantee that it never judges a document before its request exists):
/// the sender writes the request, flushed, *before* the document appears in the Inbox, with the
/// document's identity (inode, device, size of the staged copy, which a rename keeps) and state
/// ``State/arriving``; once the document is in the Inbox under its final name, the request is
/// replaced by one naming that path, state ``State/delivered``. A receiver matches documents to
/// requests by identity first, and by name for requests other senders wrote without one.
public struct OpenRequest: Sendable, Equatable {
    /// Whether the document has reached the Inbox yet.
    public enum State: String, Sendable {
        /// Written before the document is renamed into the Inbox; `documentPath` is the name it
        /// will get unless that is taken.
        case arriving
        /// The document is in the Inbox at `documentPath` (or opened in place).
        case delivered
    }

    /// The document as the app receives it: its Inbox copy, or the original when opened in place
    /// (empty for a URL request).
    public var documentPath: String
    /// The URL, for a URL request (`openURL`): kept whole here whatever its length, since a
    /// command line cannot carry more than 128 KiB in one argument.
    public var url: String?
    /// Where the sender's document is.
    public var originalPath: String?
    /// Its type identifier, as the sender judged it.
    public var documentType: String?
    /// The sender's bundle identifier, as the sender states it (not verified on Linux).
    public var sourceApplication: String?
    /// The app the request is for.
    public var targetApplication: String?
    /// Whether the app opens the original in place (no Inbox copy).
    public var opensInPlace = false
    /// When the request was made (seconds since 1970).
    public var time: Double?
    /// The property-list value the sender passed along (`annotation` on iOS).
    public var annotation: PropertyList?
    /// The activity that took the document (a share extension's identifier), when not the app itself.
    public var activity: String?
    /// The delivered copy's inode, device and size: its identity whatever name it ends up with.
    public var identity: DocumentIdentity?
    /// Whether the document has arrived.
    public var state: State = .delivered
    /// For an activity request: the activity to continue, as the offering device's
    /// `Handoff.ActivityOffer` property list (a dictionary; the Handoff module reads it).
    public var continuedActivity: PropertyList?
    /// For an activity request: the paired device it came from, by the name stored at pairing.
    public var originDevice: String?

    /// A request for `documentPath`.
    public init(documentPath: String) { self.documentPath = documentPath }

    /// A request to open `url`.
    public init(url: String) {
        documentPath = ""
        self.url = url
    }

    /// A request to continue `activity` (a dictionary) that `device` offered.
    public init(continuing activity: PropertyList, from device: String) {
        documentPath = ""
        continuedActivity = activity
        originDevice = device
    }

    /// Whether this is a URL request rather than a document's.
    public var isURLRequest: Bool { url != nil }
    /// Whether this is a request to continue an activity (neither a URL nor a document).
    public var isActivityRequest: Bool { url == nil && continuedActivity != nil }

    /// The keys, one source for writer and readers.
    enum Key {
        static let url = "URL"
        static let documentPath = "DocumentPath", originalPath = "OriginalPath", documentType = "DocumentType"
        static let sourceApplication = "SourceApplication", targetApplication = "TargetApplication"
        static let opensInPlace = "OpensInPlace", time = "Time", annotation = "Annotation", activity = "Activity"
        static let inode = "DocumentInode", device = "DocumentDevice", size = "DocumentSize", state = "DeliveryState"
        static let continuedActivity = "ContinuedActivity", originDevice = "OriginDevice"
    }

    /// The request as a property list.
    public var propertyList: PropertyList {
        var entries: OrderedDictionary<String, PropertyList> = [:]
        if let url { entries[Key.url] = .string(url) }
        if (url == nil && continuedActivity == nil) || !documentPath.isEmpty { entries[Key.documentPath] = .string(documentPath) }
        if let originalPath { entries[Key.originalPath] = .string(originalPath) }
        if let documentType { entries[Key.documentType] = .string(documentType) }
        if let sourceApplication { entries[Key.sourceApplication] = .string(sourceApplication) }
        if let targetApplication { entries[Key.targetApplication] = .string(targetApplication) }
        entries[Key.opensInPlace] = .bool(opensInPlace)
        if let time { entries[Key.time] = .date(PropertyListDate(secondsSince1970: time)) }
        if let annotation { entries[Key.annotation] = annotation }
        if let activity { entries[Key.activity] = .string(activity) }
        if let identity {
            entries[Key.inode] = .integer(Int64(bitPattern: identity.inode))
            entries[Key.device] = .integer(Int64(bitPattern: identity.device))
            entries[Key.size] = .integer(identity.size)
        }
        if let continuedActivity { entries[Key.continuedActivity] = continuedActivity }
        if let originDevice { entries[Key.originDevice] = .string(originDevice) }
        entries[Key.state] = .string(state.rawValue)
        return .dictionary(entries)
    }

    /// Reads a request; `nil` when the value has neither a `DocumentPath` nor a `URL` string nor
    /// a `ContinuedActivity` dictionary.
    public init?(_ plist: PropertyList) {
        url = plist[Key.url]?.stringValue
        if case .dictionary? = plist[Key.continuedActivity] { continuedActivity = plist[Key.continuedActivity] }
        guard let path = plist[Key.documentPath]?.stringValue ?? (url == nil && continuedActivity == nil ? nil : "") else { return nil }
        documentPath = path
        originalPath = plist[Key.originalPath]?.stringValue
        documentType = plist[Key.documentType]?.stringValue
        sourceApplication = plist[Key.sourceApplication]?.stringValue
        targetApplication = plist[Key.targetApplication]?.stringValue
        opensInPlace = plist[Key.opensInPlace]?.boolValue ?? false
        if case .date(let date)? = plist[Key.time] { time = date.secondsSince1970 }
        annotation = plist[Key.annotation]
        activity = plist[Key.activity]?.stringValue
        if case .integer(let inode)? = plist[Key.inode], case .integer(let device)? = plist[Key.device], case .integer(let size)? = plist[Key.size] {
            identity = DocumentIdentity(inode: UInt64(bitPattern: inode), device: UInt64(bitPattern: device), size: size)
        }
        state = plist[Key.state]?.stringValue.flatMap(State.init(rawValue:)) ?? .delivered
        originDevice = plist[Key.originDevice]?.stringValue
    }

    /// The last component of ``documentPath``: the document's name in the Inbox.
    public var documentName: String { String(documentPath.split(separator: "/").last ?? "") }

    /// Writes the request as a new file in `folder` (atomically, flushed, the folder flushed;
    /// with `durable` false, atomically only).
    /// - Returns: the file's path.
    public func write(into folder: String, clock: Clock = .system, durable: Bool = true) throws(OpenRequestError) -> String {
        var generator = SystemRandomNumberGenerator()
        let name = "\(Int64(clock.now() * 1e9))-\(CurrentProcess.id)-\(String(generator.next(), radix: 16)).plist"
        let path = folder + "/" + name
        try replace(at: path, durable: durable)
        return path
    }

    /// Writes the request file at `path` (atomically: a reader sees the old request or the new
    /// one); flushed to disk unless `durable` is false (URL requests, whose opener waits for them).
    public func replace(at path: String, durable: Bool = true) throws(OpenRequestError) {
        let bytes = encoded()
        do { try AtomicFile.write(bytes, to: path, durable: durable) } catch { throw .system(error) }
    }

    /// Replaces the request file at `path` with this request if it is still there (atomically:
    /// a reader sees the old request or the new one). A receiver that already consumed it (it
    /// matched the document by identity and recorded it) is not given it back.
    /// - Returns: whether it was still there.
    @discardableResult
    public func update(at path: String) throws(OpenRequestError) -> Bool {
        let bytes = encoded()
        do { return try AtomicFile.replaceIfPresent(bytes, at: path) } catch { throw .system(error) }
    }

    /// XML, readable by a person; binary when a string holds what XML 1.0 cannot (a control
    /// character in a file name): every reader takes both formats.
    private func encoded() -> [UInt8] {
        (try? XMLPropertyListWriter().write(propertyList)) ?? BinaryPropertyListWriter().write(propertyList)
    }

    /// Reads the request file at `path`.
    public static func read(_ path: String) throws(OpenRequestError) -> OpenRequest {
        let value: PropertyList
        do { value = try PropertyListReader.read(contentsOf: .init(path)).value } catch {
            throw .unreadableFile(path: path, reason: "\(error)")
        }
        guard let request = OpenRequest(value) else { throw .unreadableFile(path: path, reason: "no DocumentPath or URL string, nor a ContinuedActivity dictionary") }
        return request
    }
}
