import TestHelpers
import Testing

/// Apple code compiles against InterchangeKit in the language mode it was written in, as it does
/// against Apple's SDK. The SDK's UIKit is imported from Objective-C, so its `@MainActor` is
/// `@preconcurrency`: a Swift 5 program may call `UIApplication` from code the compiler does not
/// know to be on the main actor (top-level code, a plain function), while a Swift 6 program is
/// still checked. Type-checked with the real compiler against the built modules.
@Suite struct LanguageModeTests {
    /// Seed 000's pasteboard-and-URL code (the Person Editor enabling its action button, then
    /// sending a data package), in Swift, as top-level code.
    static let seed000 = """
        import Foundation
        import InterchangeKit

        let kViewerURLScheme = "com.EnharmonicHQ.Viewer"
        let kENHAppDataPackageUTI = "com.EnharmonicHQ.AppDataSharing.DataPackage"
        let kReadPasteboardDataQuery = "ReadPasteboardData"

        // viewWillAppear: the action button is enabled when an app opens the viewer's scheme.
        let actionButtonEnabled = UIApplication.shared.canOpenURL(URL(string: "\\(kViewerURLScheme)://")!)

        // sendDataToApplicationWithScheme: the package on a uniquely named pasteboard, whose name the URL carries.
        let pasteboard = UIPasteboard.withUniqueName()
        pasteboard.setData(Data("package".utf8), forPasteboardType: kENHAppDataPackageUTI)
        let sendingURL = URL(string: "\\(kViewerURLScheme)://?\\(kReadPasteboardDataQuery)#\\(pasteboard.name.rawValue)")!
        if UIApplication.shared.canOpenURL(sendingURL) {
            UIApplication.shared.open(sendingURL, options: [:], completionHandler: nil)
        } else {
            pasteboard.setData(Data(), forPasteboardType: kENHAppDataPackageUTI)
        }
        """

    /// In Swift 5 the seed's code compiles without a word about isolation, as with Apple's SDK
    /// (it was three errors: two `canOpenURL` calls and one `open` from top-level code).
    @Test func seedCodeCompilesInSwift5AsWithApplesSDK() throws {
        let result = try ClientTypecheck.run(Self.seed000, languageMode: "5")
        #expect(result.status == 0, "\(result.errors)")
        #expect(!result.errors.contains("actor"), "\(result.errors)")
    }

    /// In Swift 6 the same code compiles (top-level code runs on the main actor), and `UIApplication`
    /// is checked as the SDK's imported declarations are. The SDK's stand-in here is a C function
    /// marked `__attribute__((swift_attr("@MainActor")))`, imported as NS_SWIFT_UI_ACTOR is; with
    /// Swift 6.3.1 in Swift 6 mode, a call to it from a synchronous nonisolated function is a
    /// warning and one from a detached task without `await` an error. So it is here.
    @Test func swift6KeepsTheIsolationChecks() throws {
        let seed = try ClientTypecheck.run(Self.seed000, languageMode: "6")
        #expect(seed.status == 0, "\(seed.errors)")

        let synchronous = try ClientTypecheck.run("""
            import Foundation
            import InterchangeKit
            nonisolated func send(_ url: URL) {
                if UIApplication.shared.canOpenURL(url) { UIApplication.shared.open(url) }
            }
            """, languageMode: "6")
        #expect(synchronous.status == 0, "\(synchronous.errors)")
        #expect(synchronous.errors.contains("warning: call to main actor-isolated instance method 'canOpenURL' in a synchronous nonisolated context"),
                "\(synchronous.errors)")

        let detached = try ClientTypecheck.run("""
            import Foundation
            import InterchangeKit
            func later(_ url: URL) {
                Task.detached { _ = UIApplication.shared.canOpenURL(url) }
            }
            """, languageMode: "6")
        #expect(detached.status != 0)
        #expect(detached.errors.contains("error: expression is 'async' but is not marked with 'await'"), "\(detached.errors)")

        // A delegate is on the main actor, as UIKit's protocol makes it: its methods may use
        // `UIApplication` as they are.
        let delegate = try ClientTypecheck.run("""
            import Foundation
            import InterchangeKit
            final class Delegate: UIApplicationDelegate {
                func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any]) -> Bool {
                    UIApplication.shared.canOpenURL(url)
                }
            }
            """, languageMode: "6")
        #expect(delegate.status == 0, "\(delegate.errors)")
    }
}
