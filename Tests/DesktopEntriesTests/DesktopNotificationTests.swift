import Foundation
import Testing
import TestHelpers
@testable import DesktopEntries

/// A real notification server for one test: dunst on Xvfb and a private dbus-daemon, started,
/// answered and stopped by Fixtures/notification_server.sh, which starts the daemons without the
/// descriptors Foundation's Process gives it (holding one, they kept waitUntilExit waiting).
final class NotificationServerFixture {
    static let script = DesktopFixtures.fixtures.appendingPathComponent("notification_server.sh").path
    static var installed: Bool {
        ["dbus-daemon", "dbus-send", "Xvfb", "dunst", "dunstctl"].allSatisfy { FileManager.default.isExecutableFile(atPath: "/usr/bin/" + $0) }
    }

    let directory: String
    private(set) var address = ""

    /// Starts the bus, and with `server` Xvfb and dunst on it.
    init(server: Bool = true) throws {
        directory = try TestHelpersShim.temporary()
        let run = try TestSupport.run("/bin/bash", [Self.script, "start", directory] + (server ? [] : ["bus-only"]))
        let prefix = "DBUS_SESSION_BUS_ADDRESS="
        let line = run.out.split(separator: "\n").first { $0.hasPrefix(prefix) }
        try #require(run.status == 0 && line != nil, "the notification server did not start: \(run.out)\(run.stderr)")
        address = String(line!.dropFirst(prefix.count))
    }

    // Killed whatever happened in the test: deinit runs once every property is set, which is
    // before the script starts anything.
    deinit { _ = try? TestSupport.run("/bin/bash", [Self.script, "stop", directory]) }

    /// A connection to the private bus, as the nearby receiver has to the user's.
    func bus() throws -> SessionBus { try SessionBus(address: address) }

    /// How many notifications dunst displays.
    func displayed() -> Int? {
        (try? TestSupport.run("/bin/bash", [Self.script, "displayed", directory])).flatMap { Int($0.out.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// dunst's history (JSON): what it was sent, for the notifications closed so far.
    func history() throws -> String { try TestSupport.run("/bin/bash", [Self.script, "history", directory]).out }

    /// The user, on another thread: waits until the notification is displayed, then answers it
    /// (`choose LABEL`, `close`, `forge KEY`); `finish()` waits for that and returns what the
    /// script printed and its status.
    final class User: @unchecked Sendable {
        // @unchecked: `result` is written once before `done` is left and read after waiting on it.
        private let done = DispatchGroup()
        private var result = (status: Int32(-1), output: "")

        init(fixture: NotificationServerFixture, _ arguments: [String]) {
            let argv = [NotificationServerFixture.script, "answer", fixture.directory] + arguments
            done.enter()
            DispatchQueue.global().async {
                if let run = try? TestSupport.run("/bin/bash", argv) { self.result = (run.status, run.out + run.stderr) }
                self.done.leave()
            }
        }

        func finish() -> (status: Int32, output: String) {
            _ = done.wait(timeout: .now() + 30)
            return result
        }
    }

    func user(_ arguments: String...) -> User { User(fixture: self, arguments) }
}

/// Asking the desktop user with a notification (NotificationServer.ask): a real dunst shows it,
/// and the answers a user gives reach the caller (an action chosen from dunst's menu, a close),
/// as do none (the caller's timeout, the notification's own expiry). Signals other clients send
/// are not answers; with no server on the bus the question is unavailable at once.
@Suite(.serialized) struct DesktopNotificationTests {
    static let question = DesktopNotification(
        appName: "Nearby", summary: "Accept 2 files from Eve's phone?", body: "From <Eve's phone> & co, not paired with this computer.",
        actions: [.init(key: "accept", label: "Accept"), .init(key: "decline", label: "Decline")],
        urgency: .critical, iconName: "document-send")

    /// `ask` with the time it took.
    static func timedAsk(_ notification: DesktopNotification = question, on bus: SessionBus?, timeout: Double) -> (NotificationAnswer, Double) {
        let start = ContinuousClock.now
        let answer = NotificationServer.ask(notification, on: bus, timeout: timeout)
        let elapsed = ContinuousClock.now - start
        return (answer, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// Accept and then Decline, each chosen from dunst's menu by its label: the answer is the
    /// action's key, and the notification is withdrawn (dunst keeps a critical one otherwise).
    @Test(.enabled(if: NotificationServerFixture.installed, "dbus, Xvfb or dunst is not installed (scripts/install-dependencies --tests)"))
    func theChosenActionIsTheAnswer() throws {
        let server = try NotificationServerFixture()
        let bus = try server.bus()
        for (label, key) in [("Accept", "accept"), ("Decline", "decline")] {
            let user = server.user("choose", label)
            let (answer, elapsed) = Self.timedAsk(on: bus, timeout: 20)
            let answered = user.finish()
            #expect(answered.status == 0, "\(answered.output)")
            #expect(answer == .action(key))
            #expect(elapsed < 21)
            #expect(eventually(10) { server.displayed() == 0 }, "the answered notification is withdrawn")
        }
    }

    /// Closed by the user: dismissed. The body reached dunst escaped (it reads markup), so a
    /// peer's name with `<` and `&` in it is shown as it is.
    @Test(.enabled(if: NotificationServerFixture.installed, "dbus, Xvfb or dunst is not installed (scripts/install-dependencies --tests)"))
    func closedByTheUserIsDismissed() throws {
        let server = try NotificationServerFixture()
        let user = server.user("close")
        let (answer, elapsed) = Self.timedAsk(on: try server.bus(), timeout: 20)
        let answered = user.finish()
        #expect(answered.status == 0, "\(answered.output)")
        #expect(answer == .dismissed)
        #expect(elapsed < 21)
        let history = try server.history()
        #expect(history.contains("From &lt;Eve's phone&gt; &amp; co, not paired"), "\(history)")
    }

    /// ActionInvoked sent by other clients on the bus (broadcast, and addressed to every
    /// connection) for the ids dunst gives: not answers. The user then closes it: dismissed.
    @Test(.enabled(if: NotificationServerFixture.installed, "dbus, Xvfb or dunst is not installed (scripts/install-dependencies --tests)"))
    func signalsFromOtherClientsAreNotAnswers() throws {
        let server = try NotificationServerFixture()
        let user = server.user("forge", "accept")
        let (answer, elapsed) = Self.timedAsk(on: try server.bus(), timeout: 30)
        let answered = user.finish()
        #expect(answered.status == 0, "\(answered.output)")
        #expect(answer == .dismissed)
        #expect(elapsed < 31)
    }

    /// Nobody answers within 1.5 s: expired after 1.5 s, not long after, and the notification is
    /// withdrawn. A notification whose own expiry (1 s) comes first expires on the server: expired too.
    @Test(.enabled(if: NotificationServerFixture.installed, "dbus, Xvfb or dunst is not installed (scripts/install-dependencies --tests)"))
    func unansweredQuestionsExpire() throws {
        let server = try NotificationServerFixture()
        let bus = try server.bus()
        let (answer, elapsed) = Self.timedAsk(on: bus, timeout: 1.5)
        #expect(answer == .expired)
        // Not before the timeout; the upper bound is loose because a loaded CI is slow, not a figure.
        #expect(elapsed >= 1.5 && elapsed < 8, "took \(elapsed) s")
        #expect(eventually(5) { server.displayed() == 0 }, "the unanswered notification is withdrawn")

        var brief = Self.question
        brief.urgency = nil
        brief.expiry = 1
        let (ownExpiry, took) = Self.timedAsk(brief, on: bus, timeout: 20)
        #expect(ownExpiry == .expired)
        #expect(took >= 0.9 && took < 10, "took \(took) s")
    }

    /// Withdrawn by the asker (its sender went away, its receiver stopped) 1 s after it showed:
    /// expired then, not at the 20 s timeout, and the notification is gone from the screen.
    /// Before, a question withdrawn in the receiver stayed on screen, and the receiver's stop
    /// waited, until the timeout.
    @Test(.enabled(if: NotificationServerFixture.installed, "dbus, Xvfb or dunst is not installed (scripts/install-dependencies --tests)"))
    func aWithdrawnQuestionLeavesTheScreenAtOnce() throws {
        let server = try NotificationServerFixture()
        let bus = try server.bus()
        let start = ContinuousClock.now
        let answer = NotificationServer.ask(Self.question, on: bus, timeout: 20, withdrawn: { ContinuousClock.now - start > .seconds(1) })
        let elapsed = ContinuousClock.now - start
        #expect(answer == .expired)
        #expect(elapsed >= .seconds(1) && elapsed < .seconds(8), "took \(elapsed)")
        #expect(eventually(5) { server.displayed() == 0 }, "the withdrawn notification is taken off the screen")
    }

    /// A bus without a notification server, and no bus: unavailable at once, saying why.
    @Test(.enabled(if: NotificationServerFixture.installed, "dbus, Xvfb or dunst is not installed (scripts/install-dependencies --tests)"))
    func withoutAServerTheQuestionIsUnavailable() throws {
        let server = try NotificationServerFixture(server: false)
        let (answer, elapsed) = Self.timedAsk(on: try server.bus(), timeout: 10)
        guard case .unavailable(let reason) = answer else { Issue.record("answered \(answer)"); return }
        #expect(reason.contains("org.freedesktop.DBus.Error.ServiceUnknown"), "\(reason)")
        // Well before the 10 s timeout: it did not wait for an answer that cannot come.
        #expect(elapsed < 5, "took \(elapsed) s")
        #expect(NotificationServer.ask(Self.question, on: nil, timeout: 10) == .unavailable("no session bus to show the notification on"))
    }

    /// What Notify is sent: actions as key, label pairs, the urgency hint as a byte, the expiry
    /// in milliseconds (-1: the server's; 0: never), the body escaped only for a markup reader.
    @Test func notifyArguments() {
        var notification = Self.question
        notification.expiry = 2.5
        #expect(notification.notifyArguments(bodyMarkup: false) == [
            .string("Nearby"), .uint32(0), .string("document-send"), .string("Accept 2 files from Eve's phone?"),
            .string("From <Eve's phone> & co, not paired with this computer."), .strings(["accept", "Accept", "decline", "Decline"]),
            .dictionary(["urgency": .byte(2)]), .int32(2500)])
        #expect(notification.notifyArguments(bodyMarkup: true)[4] == .string("From &lt;Eve's phone&gt; &amp; co, not paired with this computer."))
        #expect(DesktopNotification(appName: "a", summary: "b").notifyArguments(bodyMarkup: true).suffix(2) == [.dictionary([:]), .int32(-1)])
        #expect(DesktopNotification(appName: "a", summary: "b", expiry: 0).notifyArguments(bodyMarkup: true).last == .int32(0))
    }
}
