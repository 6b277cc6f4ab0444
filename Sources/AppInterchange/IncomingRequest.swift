import Handoff
import PropertyLists
import URLSchemes

/// A request that reached the app: a URL another app opened, a document it handed over, or an
/// activity a paired device offered that the user continues here.
public enum IncomingRequest: Sendable {
    /// A URL of one of the app's schemes.
    case url(IncomingURL)
    /// A document, now in the app's `Documents/`.
    case document(IncomingDocument)
    /// An activity to continue (Handoff; `application(_:continue:restorationHandler:)` on iOS).
    case activity(IncomingActivity)
}

/// An activity to continue: what the offering app set on its `NSUserActivity`, and the paired
/// device it came from.
public struct IncomingActivity: Sendable {
    /// The offer: type, title, `userInfo`, web page, whether it supports continuation streams,
    /// and the offering app and process.
    public var offer: ActivityOffer
    /// The paired device it came from, by the name stored at pairing.
    public var originDevice: String
    /// When the user continued it here (seconds since 1970).
    public var time: Double?

    /// An activity `originDevice` (a paired device's name, or its `HOST:PORT`) offered.
    public init(offer: ActivityOffer, originDevice: String, time: Double? = nil) {
        self.offer = offer
        self.originDevice = originDevice
        self.time = time
    }
}

/// A URL opened for the app (`application(_:open:options:)`).
public struct IncomingURL: Sendable {
    /// The URL, parsed.
    public var url: SchemeURL
    /// The sender's bundle identifier, as the sender states it (not verified on Linux:
    /// docs/url-schemes.md).
    public var sourceApplication: String?
    /// The property-list value the sender passed along.
    public var annotation: PropertyList?
    /// When it was sent (seconds since 1970).
    public var time: Double?

    /// The x-callback-url request it is, if it is one.
    public var callback: XCallbackRequest? { XCallbackRequest(url) }
}

/// A document handed to the app (`openin`, ``InterchangeApp/send(document:to:annotation:)``).
public struct IncomingDocument: Sendable {
    /// Where it is now: the app's `Documents/` once the receiver moved it, or its Inbox path
    /// (the one-shot read of an app started for it), or the original opened in place.
    public var path: String
    /// The sender's bundle identifier, as the sender states it.
    public var sourceApplication: String?
    /// The property-list value the sender passed along.
    public var annotation: PropertyList?
    /// Its type identifier, as the sender or the receiver judged it.
    public var type: String?
}
