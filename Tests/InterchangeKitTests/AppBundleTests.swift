import Foundation
import InterchangeKit
import Testing

/// `Bundle.app`: the bundle of the app this process is, read by Foundation, as `Bundle.main`
/// is on iOS. (Started from its bundle with no launcher: AppStartedFromItsBundleTests.)
extension InterchangeKitTests {
    @Test @MainActor func theAppsBundleIsTheRegisteredBundleOfTheAppItIs() throws {
        try acting(as: "com.example.appA") {
            let bundle = Bundle.app
            #expect(bundle.bundleIdentifier == "com.example.appA")
            #expect(bundle.infoDictionary?["CFBundleName"] as? String == "com.example.appA")
            #expect(bundle.object(forInfoDictionaryKey: "NSUserActivityTypes") as? [String] == ["com.example.appA.list-contacts"])
            #expect(URL(fileURLWithPath: bundle.bundlePath).resolvingSymlinksInPath().lastPathComponent == "com.example.appA.app", "\(bundle.bundlePath)")
        }
        // The test runner is no app: Foundation's main bundle, its build folder.
        #expect(Bundle.app.bundlePath == Bundle.main.bundlePath)
        #expect(Bundle.app.bundleIdentifier == nil)
    }
}
