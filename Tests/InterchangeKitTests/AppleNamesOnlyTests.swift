import Foundation
import TestHelpers
import Testing

/// `import InterchangeKit` gives Apple's names and none of the engine's: Apple code type-checks,
/// and the engine types behind it (`PasteboardStore`, `InterchangeApp`, `MainBundle`, `NotifyCenter`,
/// `FileCoordinator`) are not found. Checked with the real compiler against the built modules.
extension InterchangeKitTests {
    @Test func appleCodeSeesAppleNamesAndNotTheEngine() throws {
        let apple = try ClientTypecheck.run("""
            import Foundation
            import InterchangeKit
            let board = UIPasteboard.general
            board.setItems([["public.utf8-plain-text": "x"]], options: [.localOnly: true])
            var token: Int32 = 0
            let status: UInt32 = notify_register_check("com.example.x", &token)
            let ok = status == NOTIFY_STATUS_OK
            let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.x")
            let center = CFNotificationCenterGetDarwinNotifyCenter()
            CFNotificationCenterPostNotification(center, CFNotificationName("x" as CFString), nil, nil, true)
            let coordinator = NSFileCoordinator(filePresenter: nil)
            let activity = NSUserActivity(activityType: "com.example.edit")
            let center2 = NotificationCenter.default   // Foundation's, unambiguous
            let identifier = Bundle.app.bundleIdentifier
            let main = Bundle.main.bundlePath           // Foundation's, unambiguous
            """)
        #expect(apple.status == 0, "\(apple.errors)")
        for engine in ["PasteboardStore", "InterchangeApp", "MainBundle", "NotifyCenter", "FileCoordinator"] {
            let hidden = try ClientTypecheck.run("""
                import InterchangeKit
                let x: \(engine)? = nil
                """)
            #expect(hidden.status != 0 && hidden.errors.contains("cannot find type '\(engine)' in scope"), "\(engine): \(hidden.errors)")
        }
    }
}
