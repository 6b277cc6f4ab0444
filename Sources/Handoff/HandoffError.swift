/// What went wrong with an activity, saying what and where.
public enum HandoffError: Error, Hashable, CustomStringConvertible {
    /// A kept or received offer does not hold what it must (the key named).
    case malformed(String)
    /// `userInfo` holds something a property list cannot (the key path named).
    case notAPropertyList(String)
    /// `userInfo` is larger than ``UserInfoSize/limit`` (its size in bytes).
    case tooLarge(Int)
    /// A file operation failed.
    case system(String)
    /// No app on this device declares the activity type; `webpage` says why the activity's web
    /// page could not stand in (`nil`: it has none).
    case noAppContinues(activityType: String, webpage: String?)
    /// The app asked for is registered but does not declare the activity type.
    case appDoesNotContinue(app: String, activityType: String)
    /// No app with this bundle identifier is registered.
    case noSuchApp(String)
    /// The activity request could not be handed to the app (which app, and why).
    case delivery(String)
    /// Continuation streams could not be opened (why).
    case streams(String)

    public var description: String {
        switch self {
        case .malformed(let what): "the activity is malformed: \(what)"
        case .notAPropertyList(let what): "userInfo is not a property list: \(what)"
        case .tooLarge(let size): "userInfo is \(size) bytes, over the limit of \(UserInfoSize.limit) bytes"
        case .system(let what): what
        case .noAppContinues(let type, let webpage):
            "no app on this device declares \(type) in NSUserActivityTypes, " + (webpage.map { "and its web page cannot stand in: \($0)" } ?? "and the activity has no web page")
        case .appDoesNotContinue(let app, let type): "\(app) does not declare \(type) in NSUserActivityTypes"
        case .noSuchApp(let app): "no app \(app) is registered on this device"
        case .delivery(let what): "the activity could not be handed over: \(what)"
        case .streams(let why): "the continuation streams could not be opened: \(why)"
        }
    }
}
