import PropertyLists
import SystemCalls

/// An activity an app offers for Handoff while it is current on its device: what the app set on
/// its `NSUserActivity` and who offers it. Kept as a binary property list (``encoded()``), the
/// form paired devices get it in.
public struct ActivityOffer: Sendable, Equatable {
    /// The activity's type, as the app declares it in `NSUserActivityTypes`.
    public var activityType: String
    /// The offering app.
    public var bundleIdentifier: String
    /// A title for the person.
    public var title: String?
    /// The state another device needs: a property-list dictionary (``UserInfoSize`` bounds it).
    public var userInfo: PropertyList
    /// A web page showing the same, for a device without the app.
    public var webpageURL: String?
    /// Whether the continuing app may open streams back to the offering one.
    public var supportsContinuationStreams: Bool
    /// When it was made current (``Clock/monotonic()``, seconds): the newest is the device's
    /// current activity.
    public var madeCurrent: Double
    /// The offering process.
    public var processIdentifier: Int32

    /// An offer.
    public init(activityType: String, bundleIdentifier: String, title: String? = nil, userInfo: PropertyList,
                webpageURL: String? = nil, supportsContinuationStreams: Bool = false, madeCurrent: Double = Clock.monotonic(), processIdentifier: Int32) {
        self.activityType = activityType
        self.bundleIdentifier = bundleIdentifier
        self.title = title
        self.userInfo = userInfo
        self.webpageURL = webpageURL
        self.supportsContinuationStreams = supportsContinuationStreams
        self.madeCurrent = madeCurrent
        self.processIdentifier = processIdentifier
    }

    /// Which offer this is, everywhere it is named (a request to tell its app, to open streams to
    /// it): the app, its process, and when the activity was made current.
    public struct Identity: Sendable, Hashable {
        /// The offering app.
        public var bundleIdentifier: String
        /// Its process.
        public var processIdentifier: Int32
        /// When the activity was made current there (``ActivityOffer/madeCurrent``).
        public var madeCurrent: Double

        /// An offer's identity.
        public init(bundleIdentifier: String, processIdentifier: Int32, madeCurrent: Double) {
            self.bundleIdentifier = bundleIdentifier
            self.processIdentifier = processIdentifier
            self.madeCurrent = madeCurrent
        }
    }

    /// This offer's identity.
    public var identity: Identity {
        Identity(bundleIdentifier: bundleIdentifier, processIdentifier: processIdentifier, madeCurrent: madeCurrent)
    }

    /// The offer as a property-list dictionary (keys sorted): what ``encoded()`` writes, and what
    /// an activity request carries (`OpenRequest.continuedActivity`).
    public var propertyList: PropertyList {
        var entries: [String: PropertyList] = [
            "ActivityType": .string(activityType), "BundleIdentifier": .string(bundleIdentifier), "UserInfo": userInfo,
            "SupportsContinuationStreams": .bool(supportsContinuationStreams), "MadeCurrent": .real(madeCurrent),
            "ProcessIdentifier": .integer(Int64(processIdentifier)),
        ]
        if let title { entries["Title"] = .string(title) }
        if let webpageURL { entries["WebpageURL"] = .string(webpageURL) }
        return .dictionary(.init(uniqueKeysWithValues: entries.sorted { $0.key < $1.key }))
    }

    /// The offer as a binary property list.
    public func encoded() -> [UInt8] { BinaryPropertyListWriter().write(propertyList) }

    /// The offer `bytes` hold; the error names the key that is missing or of the wrong type.
    public static func decode(_ bytes: [UInt8]) throws(HandoffError) -> ActivityOffer {
        let value: PropertyList
        do { value = try PropertyListReader.value(ofBinary: bytes) } catch { throw .malformed("not a binary property list: \(error)") }
        return try ActivityOffer(propertyList: value)
    }

    /// The offer `value` holds (``propertyList``); the error names the key that is missing or of
    /// the wrong type.
    public init(propertyList value: PropertyList) throws(HandoffError) {
        func string(_ key: String) throws(HandoffError) -> String {
            guard let text = value[key]?.stringValue, !text.isEmpty else { throw .malformed("\(key) is missing or not a string") }
            return text
        }
        func optional(_ key: String) throws(HandoffError) -> String? {
            guard let entry = value[key] else { return nil }
            guard let text = entry.stringValue else { throw .malformed("\(key) is not a string") }
            return text
        }
        guard case .dictionary = value["UserInfo"] else { throw .malformed("UserInfo is missing or not a dictionary") }
        guard case .real(let madeCurrent)? = value["MadeCurrent"] else { throw .malformed("MadeCurrent is missing or not a number") }
        guard case .integer(let pid)? = value["ProcessIdentifier"], let processIdentifier = Int32(exactly: pid) else {
            throw .malformed("ProcessIdentifier is missing or not a process identifier")
        }
        guard case .bool(let streams)? = value["SupportsContinuationStreams"] else { throw .malformed("SupportsContinuationStreams is missing or not a boolean") }
        self.init(activityType: try string("ActivityType"), bundleIdentifier: try string("BundleIdentifier"), title: try optional("Title"),
                  userInfo: value["UserInfo"]!, webpageURL: try optional("WebpageURL"), supportsContinuationStreams: streams,
                  madeCurrent: madeCurrent, processIdentifier: processIdentifier)
    }
}
