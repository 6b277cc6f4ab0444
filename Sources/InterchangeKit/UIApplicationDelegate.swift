import Foundation

/// What an app implements to be told about URLs (and, with Handoff, activities) that reach it:
/// UIKit's protocol, with UIKit's defaults for the methods an app leaves out.
@MainActor
public protocol UIApplicationDelegate: AnyObject {
    /// The app has started; `launchOptions` holds the URL it was started for, if any. Return
    /// false to not be handed that URL.
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool
    /// A URL for this app, with ``UIApplication/OpenURLOptionsKey/sourceApplication`` and
    /// ``UIApplication/OpenURLOptionsKey/annotation``. Return whether it was handled.
    func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any]) -> Bool
    /// A Handoff activity to continue (the Handoff channel drives it).
    func application(_ application: UIApplication, continue userActivity: NSUserActivity,
                     restorationHandler: @escaping ([any UIUserActivityRestoring]?) -> Void) -> Bool
}

extension UIApplicationDelegate {
    /// UIKit's default: carry on with the launch.
    public func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool { true }
    /// UIKit's default: not handled.
    public func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any]) -> Bool { false }
    /// UIKit's default: not continued.
    public func application(_ application: UIApplication, continue userActivity: NSUserActivity,
                            restorationHandler: @escaping ([any UIUserActivityRestoring]?) -> Void) -> Bool { false }
}

/// What a restoration handler is given back to restore (UIKit's responders).
@MainActor
public protocol UIUserActivityRestoring: AnyObject {
    /// Restores the state `userActivity` carries.
    func restoreUserActivityState(_ userActivity: NSUserActivity)
}
