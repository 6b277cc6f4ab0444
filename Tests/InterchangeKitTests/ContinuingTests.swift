import AppInterchange
import AppRegistry
import Foundation
import Handoff
import OpenRequests
import PropertyLists
import TestHelpers
import Testing
@testable import InterchangeKit

/// An app that continues activities (Handoff): iOS tells it the type first, then hands it the
/// activity, and restores what it gives the restoration handler.
@MainActor
final class ContinuingDelegate: UIApplicationDelegate, UIUserActivityRestoring {
    var announced: [String] = []
    var continued: [NSUserActivity] = []
    var restored: [NSUserActivity] = []
    var launchOptions: [UIApplication.LaunchOptionsKey: Any]?

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        self.launchOptions = launchOptions
        return true
    }

    func application(_ application: UIApplication, willContinueUserActivityWithType userActivityType: String) -> Bool {
        announced.append(userActivityType)
        return false
    }

    func application(_ application: UIApplication, continue userActivity: NSUserActivity,
                     restorationHandler: @escaping ([any UIUserActivityRestoring]?) -> Void) -> Bool {
        continued.append(userActivity)
        restorationHandler([self])
        return true
    }

    func restoreUserActivityState(_ userActivity: NSUserActivity) { restored.append(userActivity) }
}

/// Continuing an activity another device offered (docs/handoff.md): the app here that declares the
/// type gets an activity request through the request mechanism URLs use, and the delegate's
/// `application(_:continue:restorationHandler:)` the activity; without such an app a web page
/// stands in, only an http or https one; otherwise a refusal naming why.
extension InterchangeKitTests {
    static func contactsOffer(webpage: String? = nil, type: String = contacts) -> ActivityOffer {
        ActivityOffer(activityType: type, bundleIdentifier: "com.example.appA", title: "Contacts",
                      userInfo: .dictionary(["contacts": .array([.dictionary(["name": .string("Ada")])]), "count": .integer(1)]),
                      webpageURL: webpage, supportsContinuationStreams: true, madeCurrent: 1234.5, processIdentifier: 4242)
    }

    func continuation() throws -> ActivityContinuation {
        var continuation = ActivityContinuation(root: InterchangeDevice.root, registry: try RegistryStore.forQuery(root: InterchangeDevice.root))
        continuation.launch = false
        continuation.webpageHandoff = false
        return continuation
    }

    @Test @MainActor func aContinuedActivityReachesTheAppThatDeclaresItsType() async throws {
        let delegate = ContinuingDelegate()
        try acting(as: "com.example.appA") { UIApplicationMain(delegate) }
        // The app runs and listens: it takes the request, and nothing is started.
        var launching = try continuation()
        launching.launch = true
        let outcome = try launching.continue(Self.contactsOffer(webpage: "https://example.com/contacts"), from: "Bob's laptop")
        guard case .deliveredToRunningApp(let app, let requestPath) = outcome else { Issue.record("\(outcome)"); return }
        #expect(app == "com.example.appA")
        for _ in 0..<1000 where delegate.continued.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(delegate.announced == [Self.contacts])
        let activity = try #require(delegate.continued.first)
        #expect(delegate.continued.count == 1 && delegate.restored.first === activity)
        #expect(activity.activityType == Self.contacts && activity.title == "Contacts" && activity.supportsContinuationStreams)
        #expect(activity.webpageURL == URL(string: "https://example.com/contacts"))
        #expect(activity.userInfo?["count"] as? Int == 1)
        #expect((activity.userInfo?["contacts"] as? [[String: Any]])?.first?["name"] as? String == "Ada")
        // Claimed: gone from the folder, so no other instance continues it again.
        #expect(!FileManager.default.fileExists(atPath: requestPath))

        // Not launched (a request left for the app's next look): the next look takes it.
        guard case .delivered(_, let next, nil) = try continuation().continue(Self.contactsOffer(), from: "Carol's phone") else {
            Issue.record("a request for a listening app was not left for it")
            return
        }
        for _ in 0..<1000 where delegate.continued.count < 2 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(delegate.continued.count == 2 && delegate.continued.last?.webpageURL == nil)
        #expect(!FileManager.default.fileExists(atPath: next))
    }

    @Test @MainActor func anAppStartedToContinueIsToldInItsLaunchOptions() throws {
        // The launch request, where the launch command's %r names it (outside the folder a
        // running instance watches, so that only the launch reads it).
        let folder = InterchangeDevice.folder.appendingPathComponent("launch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var request = OpenRequest(continuing: Self.contactsOffer().propertyList, from: "Bob's laptop")
        request.sourceApplication = "com.example.appA"
        let path = try request.write(into: folder)
        // What an activity request is: neither a URL nor a document's, and it reads back whole.
        let read = try OpenRequest.read(path)
        #expect(read.isActivityRequest && !read.isURLRequest && read.originDevice == "Bob's laptop" && read == request)
        #expect(try ActivityOffer(propertyList: try #require(read.continuedActivity)) == Self.contactsOffer())
        setenv("DI_OPEN_REQUEST", path, 1)
        defer { unsetenv("DI_OPEN_REQUEST") }
        let delegate = ContinuingDelegate()
        try acting(as: "com.example.appA") { UIApplicationMain(delegate) }
        #expect(delegate.launchOptions?[.userActivityType] as? String == Self.contacts)
        #expect((delegate.launchOptions?[.userActivityDictionary] as? [String: Any])?[UIApplication.LaunchOptionsKey.userActivityType.rawValue] as? String == Self.contacts)
        #expect(delegate.continued.map(\.activityType) == [Self.contacts])
        #expect(!FileManager.default.fileExists(atPath: path), "claimed")
    }

    @Test func whatNoAppHereContinuesIsRefusedSayingWhy() throws {
        let continuation = try continuation()
        let requests = try AppContainer(bundleIdentifier: "com.example.appA", on: InterchangeDevice.root).openRequests
        let before = (try? FileManager.default.contentsOfDirectory(atPath: requests)) ?? []
        let other = "com.example.elsewhere.reading"
        #expect(throws: HandoffError.noAppContinues(activityType: other, webpage: nil)) {
            try continuation.continue(Self.contactsOffer(type: other), from: "Bob's laptop")
        }
        // A web page from the network that is not http or https never reaches a local handler.
        var handing = continuation
        handing.webpageHandoff = true
        for page in ["file:///etc/passwd", "appB://localhost/exportData", "javascript:alert(1)"] {
            #expect(throws: HandoffError.noAppContinues(activityType: other, webpage: "\(page) is not an http or https page")) {
                try handing.continue(Self.contactsOffer(webpage: page, type: other), from: "Bob's laptop")
            }
        }
        #expect(throws: HandoffError.appDoesNotContinue(app: "com.example.appB", activityType: Self.contacts)) {
            try continuation.continue(Self.contactsOffer(), from: "Bob's laptop", in: "com.example.appB")
        }
        #expect(throws: HandoffError.noSuchApp("com.example.typo")) {
            try continuation.continue(Self.contactsOffer(), from: "Bob's laptop", in: "com.example.typo")
        }
        // Nothing was written for any of them.
        #expect(Set((try? FileManager.default.contentsOfDirectory(atPath: requests)) ?? []) == Set(before))
    }

    @Test @MainActor func anActivityNotEligibleForHandoffIsNotOfferedAndOnlyAContinuedOneHasStreams() async throws {
        try acting(as: "com.example.appA") {
            let list = NSUserActivity(activityType: Self.contacts)
            list.becomeCurrent()
            #expect(board.live().contains { $0.bundleIdentifier == "com.example.appA" })
            let privateOne = NSUserActivity(activityType: Self.contacts)
            privateOne.isEligibleForHandoff = false
            privateOne.becomeCurrent()
            // Not offered, and the app's previous offer is withdrawn: nothing of appA is offered.
            #expect(!board.live().contains { $0.bundleIdentifier == "com.example.appA" })
            list.invalidate()
        }
        // Streams only go back to where an activity came from.
        let here = NSUserActivity(activityType: Self.contacts)
        here.supportsContinuationStreams = true
        let error = await #expect(throws: (any Error).self) { try await here.continuationStreams() }
        let reason = (error as? NSError)?.localizedDescription ?? ""
        #expect(reason.contains("was not continued from another device"), "\(reason)")
    }
}
