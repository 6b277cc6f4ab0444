import Foundation

/// What an app implements to be told about URLs (and, with Handoff, activities) that reach it:
/// UIKit's protocol, with UIKit's defaults for the methods an app leaves out. On the main actor,
/// `@preconcurrency` as the SDK's imported protocol is (``UIApplication`` says why).
@preconcurrency @MainActor
public protocol UIApplicationDelegate: AnyObject {
    /// The app has started; `launchOptions` holds the URL it was started for, if any. Return
    /// false to not be handed that URL.
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool
    /// A URL for this app, with ``UIApplication/OpenURLOptionsKey/sourceApplication`` and
    /// ``UIApplication/OpenURLOptionsKey/annotation``. Return whether it was handled.
    func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any]) -> Bool
    /// The user chose to continue an activity of `userActivityType` here: return true when the
    /// app tells the user itself, false to leave that to the system (nothing is shown on Linux);
    /// the activity is continued either way.
    func application(_ application: UIApplication, willContinueUserActivityWithType userActivityType: String) -> Bool
    /// A Handoff activity a paired device offered, to continue (`nearby continue`): return
    /// whether it was; hand objects to `restorationHandler` to have them restore its state.
    func application(_ application: UIApplication, continue userActivity: NSUserActivity,
                     restorationHandler: @escaping ([any UIUserActivityRestoring]?) -> Void) -> Bool
    /// An activity of `userActivityType` could not be continued (the app returned false from
    /// `application(_:continue:restorationHandler:)`).
    func application(_ application: UIApplication, didFailToContinueUserActivityWithType userActivityType: String, error: any Error)
}

extension UIApplicationDelegate {
    /// UIKit's default: carry on with the launch.
    public func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool { true }
    /// UIKit's default: not handled.
    public func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any]) -> Bool { false }
    /// UIKit's default: the system tells the user (nothing is shown on Linux).
    public func application(_ application: UIApplication, willContinueUserActivityWithType userActivityType: String) -> Bool { false }
    /// UIKit's default: not continued.
    public func application(_ application: UIApplication, continue userActivity: NSUserActivity,
                            restorationHandler: @escaping ([any UIUserActivityRestoring]?) -> Void) -> Bool { false }
    /// UIKit's default: nothing.
    public func application(_ application: UIApplication, didFailToContinueUserActivityWithType userActivityType: String, error: any Error) {}
}

/// What a restoration handler is given back to restore (UIKit's responders). On the main actor,
/// `@preconcurrency` as the SDK's imported protocol is.
@preconcurrency @MainActor
public protocol UIUserActivityRestoring: AnyObject {
    /// Restores the state `userActivity` carries.
    func restoreUserActivityState(_ userActivity: NSUserActivity)
}
