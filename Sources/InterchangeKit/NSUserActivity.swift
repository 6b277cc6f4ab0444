import Foundation

/// Foundation's user activity, for Handoff: declared here with Apple's shape so that Apple code
/// compiles; the Handoff channel (a later issue) makes `becomeCurrent()` advertise it to nearby
/// devices and continuation streams connect. Until then it keeps its state in this process only.
open class NSUserActivity: @unchecked Sendable {
    /// The activity's type (a reverse-DNS name the app declares in `NSUserActivityTypes`).
    public let activityType: String
    /// A title for the user.
    open var title: String?
    /// The state another device needs to continue.
    open var userInfo: [AnyHashable: Any]?
    /// A web page that shows the same thing, for devices without the app.
    open var webpageURL: URL?
    /// Whether the activity may be continued on another device.
    open var isEligibleForHandoff = true
    /// Whether the continuing device may open streams back to this one.
    open var supportsContinuationStreams = false
    /// Whether ``userInfo`` should be refreshed through the delegate before it is sent.
    open var needsSave = false
    /// Told when the activity is continued or needs saving.
    open weak var delegate: (any NSUserActivityDelegate)?
    /// Whether it is the current activity.
    public private(set) var isCurrent = false

    /// An activity of `activityType`.
    public init(activityType: String) { self.activityType = activityType }

    /// Adds entries to ``userInfo``.
    open func addUserInfoEntries(from otherDictionary: [AnyHashable: Any]) {
        var info = userInfo ?? [:]
        for (key, value) in otherDictionary { info[key] = value }
        userInfo = info
    }

    /// Makes it the current activity.
    open func becomeCurrent() { isCurrent = true }
    /// Stops it being the current activity.
    open func resignCurrent() { isCurrent = false }
    /// Ends it.
    open func invalidate() { isCurrent = false }

    /// The streams to the device the activity came from; until the Handoff channel connects
    /// them, the handler is called with an error.
    open func getContinuationStreams(completionHandler: @escaping (InputStream?, OutputStream?, (any Error)?) -> Void) {
        completionHandler(nil, nil, NSError(domain: NSCocoaErrorDomain, code: 4609, userInfo: [NSLocalizedDescriptionKey: "continuation streams are not connected on this device yet"]))
    }
}

/// Told about a user activity's life (Foundation's protocol).
public protocol NSUserActivityDelegate: AnyObject {
    /// ``NSUserActivity/userInfo`` is about to be sent: bring it up to date.
    func userActivityWillSave(_ userActivity: NSUserActivity)
    /// The activity was continued on another device.
    func userActivityWasContinued(_ userActivity: NSUserActivity)
    /// The continuing device opened streams back to this one.
    func userActivity(_ userActivity: NSUserActivity, didReceive inputStream: InputStream, outputStream: OutputStream)
}

extension NSUserActivityDelegate {
    /// Foundation's default: nothing to save.
    public func userActivityWillSave(_ userActivity: NSUserActivity) {}
    /// Foundation's default: nothing to do.
    public func userActivityWasContinued(_ userActivity: NSUserActivity) {}
    /// Foundation's default: the streams are not used.
    public func userActivity(_ userActivity: NSUserActivity, didReceive inputStream: InputStream, outputStream: OutputStream) {}
}
