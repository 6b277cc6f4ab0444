// Apple-platform code, written as an iOS app writes it, compiled here with `import InterchangeKit`
// added. The code is the seed articles' (../shared/seeds/), in Swift: 000 (a data package handed
// over through a uniquely named pasteboard and a URL), 003 (a URL-handler round trip between two
// apps, data returned base64 in the query; app B is a real program, Tests/SeedAppB) and 004 (an App Group's container, a coordinated file
// with a presenter, Darwin notifications). What each expects is what iOS does, as the articles
// and Apple's documentation say. The only Linux line is `acting(as:)`, which makes the test
// process each app in turn (InterchangeKitDevice.swift).

import Foundation
import InterchangeKit
import Testing

// MARK: 000: a data package through a pasteboard and a URL

/// The viewer's delegate, as the article writes it: the URL names the pasteboard in its
/// fragment; the data is read from it and the pasteboard removed.
@MainActor
final class ViewerDelegate: UIApplicationDelegate {
    static let pasteboardType = "com.EnharmonicHQ.AppDataSharing.DataPackage"
    var received: Data?
    var sender: String?

    func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
        guard url.query == "ReadPasteboardData", let name = url.fragment,
              let pasteboard = UIPasteboard(name: UIPasteboard.Name(rawValue: name), create: false) else { return false }
        sender = options[.sourceApplication] as? String
        received = pasteboard.data(forPasteboardType: Self.pasteboardType)
        UIPasteboard.remove(withName: pasteboard.name)
        return received != nil
    }
}

extension InterchangeKitTests {
    @Test @MainActor func aDataPackageTravelsThroughAUniquePasteboardAndAURL() async throws {
        let package = try JSONSerialization.data(withJSONObject: ["title": "Sonata", "measures": 48])
        var opened: Bool?
        let url = try acting(as: "com.enharmonichq.sender") { () throws -> URL in
            let pasteboard = UIPasteboard.withUniqueName()
            pasteboard.setData(package, forPasteboardType: ViewerDelegate.pasteboardType)
            #expect(pasteboard.data(forPasteboardType: ViewerDelegate.pasteboardType) == package)
            #expect(pasteboard.name != .general)
            let url = try #require(URL(string: "com.EnharmonicHQ.Viewer://?ReadPasteboardData#\(pasteboard.name.rawValue)"))
            #expect(UIApplication.shared.canOpenURL(url))
            // A scheme the sender never declared in LSApplicationQueriesSchemes: false, as on iOS 9+.
            #expect(!UIApplication.shared.canOpenURL(try #require(URL(string: "appB://x"))))
            UIApplication.shared.open(url, options: [:]) { opened = $0 }
            return url
        }
        // The completion handler runs on the main queue, after this turn of it.
        for _ in 0..<500 where opened == nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(opened == true)
        let viewer = ViewerDelegate()
        try acting(as: "com.enharmonichq.viewer") {
            UIApplicationMain(viewer)
        }
        #expect(viewer.received == package)
        #expect(viewer.sender == "com.enharmonichq.sender")
        // The viewer removed the pasteboard: it is gone for every app.
        let name = try #require(url.fragment)
        #expect(try acting(as: "com.enharmonichq.sender") { UIPasteboard(name: UIPasteboard.Name(name), create: false) } == nil)
    }

    @Test @MainActor func theGeneralPasteboardHoldsItemsOfSeveralTypes() throws {
        try acting(as: "com.example.appA") {
            let general = UIPasteboard.general
            let before = general.changeCount
            general.string = "Hello from A"
            #expect(general.changeCount > before)
            #expect(general.hasStrings && general.string == "Hello from A")
            general.setItems([["public.utf8-plain-text": "one", "public.url": URL(string: "https://example.com/a")!],
                              ["public.utf8-plain-text": "two"]],
                             options: [.localOnly: true, .expirationDate: Date().addingTimeInterval(3600)])
            #expect(general.numberOfItems == 2)
            #expect(general.strings == ["one", "two"])
            #expect(general.urls == [URL(string: "https://example.com/a")!])
            #expect(general.contains(pasteboardTypes: ["public.url"]))
            #expect(general.types.contains("public.utf8-plain-text"))
            general.addItems([["com.example.custom": Data([1, 2, 3])]])
            #expect(general.items.count == 3)
            #expect(general.items[2]["com.example.custom"] as? Data == Data([1, 2, 3]))
            // An expiration date in the past: the items are gone.
            general.setItems([["public.utf8-plain-text": "stale"]], options: [.expirationDate: Date().addingTimeInterval(-1)])
            #expect(general.string == nil)
        }
        // Another app sees the general pasteboard's changes.
        try acting(as: "com.example.appA") { UIPasteboard.general.string = "shared" }
        try acting(as: "com.example.appB") { #expect(UIPasteboard.general.string == "shared") }
    }
}

// MARK: 003: a URL-handler round trip

/// App A: running, it asks B for its data and receives B's reply. (App B is a program of its
/// own, Tests/SeedAppB, which the launcher starts for `appB://`.)
@MainActor
final class AppADelegate: UIApplicationDelegate {
    var exported: String?
    var sender: String?

    func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
        guard url.scheme == "appA", url.path == "/exportedData/data", let query = url.query, let data = Data(base64Encoded: query) else { return false }
        exported = String(data: data, encoding: .utf8)
        sender = options[.sourceApplication] as? String
        return true
    }
}

extension InterchangeKitTests {
    @Test @MainActor func appAAsksAppBForItsDataAndGetsItBackWhileRunning() async throws {
        let a = AppADelegate()
        try acting(as: "com.example.appA") {
            UIApplicationMain(a)
            let ask = URL(string: "appB://localhost/exportData")!
            #expect(UIApplication.shared.canOpenURL(ask))
            UIApplication.shared.open(ask)
        }
        // B starts, answers, exits; A, running, is handed the reply as it arrives.
        for _ in 0..<1000 where a.exported == nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(a.exported == "{\"title\":\"exported by B\"}")
        #expect(a.sender == "com.example.appB")
    }
}

// MARK: 004: an App Group's container, a coordinated file, Darwin notifications

/// A presenter of the shared note, as the article's app is one.
final class NotePresenter: NSObject, NSFilePresenter, @unchecked Sendable {
    let presentedItemURL: URL?
    let presentedItemOperationQueue = OperationQueue()
    let changed = DispatchSemaphore(value: 0)

    init(_ url: URL) { presentedItemURL = url }

    func presentedItemDidChange() { changed.signal() }
}

/// Counts the Darwin notifications it was told about (through the observer pointer, as C callbacks must).
final class NotificationCounter: @unchecked Sendable {
    var count = 0
}

extension InterchangeKitTests {
    @Test @MainActor func anAppGroupSharesAContainerAndACoordinatedFile() throws {
        try acting(as: "com.enharmonichq.sender") {
            let group = "group.com.atomicbird.demonotes"
            let container = try #require(FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: group))
            #expect(FileManager.default.fileExists(atPath: container.path))
            // Not a member: nil, as on iOS.
            #expect(FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.other") == nil)

            let noteURL = container.appendingPathComponent("demoNote.bin")
            let presenter = NotePresenter(noteURL)
            NSFileCoordinator.addFilePresenter(presenter)
            defer { NSFileCoordinator.removeFilePresenter(presenter) }
            #expect(NSFileCoordinator.filePresenters.contains { $0 === presenter })

            // Another writer (a coordinator with no presenter, as an extension would be).
            let note = try NSKeyedArchiver.archivedData(withRootObject: ["text": "Buy milk"], requiringSecureCoding: false)
            var error: NSError?
            NSFileCoordinator(filePresenter: nil).coordinate(writingItemAt: noteURL, options: .forReplacing, error: &error) { url in
                try? note.write(to: url, options: .atomic)
            }
            #expect(error == nil)
            #expect(presenter.changed.wait(timeout: .now() + 10) == .success, "the presenter heard of the write")

            // The app reads it back, as the article's code does.
            var savedData: Data?
            NSFileCoordinator(filePresenter: presenter).coordinate(readingItemAt: noteURL, options: [], error: &error) { newURL in
                savedData = try? Data(contentsOf: newURL)
            }
            #expect(error == nil && savedData == note)
        }
    }

    @Test @MainActor func darwinNotificationsReachObserversAndTokens() async throws {
        let name = "com.atomicbird.demonotes.changed.\(UUID().uuidString)"
        // notify(3), as C and Swift code call it.
        var token: Int32 = 0
        #expect(notify_register_check(name, &token) == NOTIFY_STATUS_OK)
        var check: Int32 = 0
        #expect(notify_check(token, &check) == NOTIFY_STATUS_OK && check == 1)   // the first check is always 1
        #expect(notify_check(token, &check) == NOTIFY_STATUS_OK && check == 0)
        #expect(notify_post(name) == NOTIFY_STATUS_OK)
        #expect(notify_check(token, &check) == NOTIFY_STATUS_OK && check == 1)
        #expect(notify_set_state(token, 42) == NOTIFY_STATUS_OK)
        var state: UInt64 = 0
        #expect(notify_get_state(token, &state) == NOTIFY_STATUS_OK && state == 42)
        #expect(notify_cancel(token) == NOTIFY_STATUS_OK)
        #expect(notify_cancel(token) == NOTIFY_STATUS_INVALID_TOKEN)
        #expect(notify_post("") == NOTIFY_STATUS_INVALID_NAME)

        var dispatched: [Int32] = []
        var dispatchToken: Int32 = 0
        #expect(notify_register_dispatch(name, &dispatchToken, DispatchQueue.main) { token in
            MainActor.assumeIsolated { dispatched.append(token) }
        } == NOTIFY_STATUS_OK)

        // Core Foundation's Darwin center.
        let counter = NotificationCounter()
        let center = CFNotificationCenterGetDarwinNotifyCenter()
        let observer = Unmanaged.passUnretained(counter).toOpaque()
        CFNotificationCenterAddObserver(center, observer, { _, observer, name, _, _ in
            guard let observer else { return }
            Unmanaged<NotificationCounter>.fromOpaque(observer).takeUnretainedValue().count += 1
        }, name as CFString, nil, .deliverImmediately)
        CFNotificationCenterPostNotification(center, CFNotificationName(name as CFString), nil, nil, true)
        let deadline = Date().addingTimeInterval(10)
        // Both are called on the main queue: this test gives it turns while it waits.
        while (counter.count < 1 || dispatched.isEmpty) && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(counter.count == 1)
        #expect(dispatched == [dispatchToken])
        CFNotificationCenterRemoveObserver(center, observer, CFNotificationName(name as CFString), nil)
        #expect(notify_cancel(dispatchToken) == NOTIFY_STATUS_OK)
        // Removed: a later post reaches nobody.
        CFNotificationCenterPostNotification(center, CFNotificationName(name as CFString), nil, nil, true)
        try await Task.sleep(for: .milliseconds(300))
        #expect(counter.count == 1)
    }
}
