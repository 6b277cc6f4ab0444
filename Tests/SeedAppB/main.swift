// App B of seed article 003, as a process the launcher starts for `appB://localhost/exportData`:
// Apple-platform code, unchanged but for `import InterchangeKit` and the call `@main` makes on
// iOS. It answers A with its data, base64-encoded in the query of `appA://localhost/exportedData/data`.
import Foundation
import InterchangeKit

@MainActor
final class AppBDelegate: UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        // The article handles the launch URL itself; UIKit then calls application(_:open:options:) as well
        // when this returns true, so it returns true and lets that one handle it.
        launchOptions?[.url] != nil
    }

    func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
        guard url.scheme == "appB", url.path == "/exportData" else { return false }
        let json = "{\"title\":\"exported by B\"}"
        let reply = URL(string: "appA://localhost/exportedData/data?" + Data(json.utf8).base64EncodedString())!
        app.open(reply, options: [:], completionHandler: nil)
        return true
    }
}

MainActor.assumeIsolated {
    UIApplicationMain(AppBDelegate())
}
