import Foundation
@testable import Nearby
import TestHelpers
import Testing

/// Everyone-mode asks the desktop user about an unpaired sender with a real notification (dunst on
/// Xvfb and a private session bus, started and answered by DesktopEntriesTests' fixture script):
/// Accept delivers, Decline declines, and the sender hears which.
@Suite(.serialized) struct DesktopPromptTests {
    static let script = TestSupport.packageRoot.appendingPathComponent("Tests/DesktopEntriesTests/Fixtures/notification_server.sh").path

    @Test func theNotificationsAnswerDecidesAnUnpairedSendersAsk() async throws {
        let dir = try TestSupport.temporaryDirectory().appendingPathComponent("server").path
        let started = try await TestSupport.runOffPool("/bin/bash", [Self.script, "start", dir])
        defer { _ = try? TestSupport.run("/bin/bash", [Self.script, "stop", dir]) }
        let line = started.out.split(separator: "\n").first { $0.hasPrefix("DBUS_SESSION_BUS_ADDRESS=") }
        let address = try #require(line.map { String($0.dropFirst("DBUS_SESSION_BUS_ADDRESS=".count)) }, "\(started.out)\(started.stderr)")
        let a = try TransferTests.Device(), b = try TransferTests.Device()
        let item = try OutgoingItem(path: TransferTests.sample("notes.txt"), type: "public.plain-text")
        for (label, accepted) in [("Accept", true), ("Decline", false)] {
            // The user answers once the notification is displayed.
            let user = Task.detached { try await TestSupport.runOffPool("/bin/bash", [Self.script, "answer", dir, "choose", label]) }
            // Generous: on a loaded machine the notification was seen taking over 10 s to show.
            try await TransferTests.withReceiver(b, mode: .everyone, prompt: DesktopPrompt.prompt(timeout: 90, busAddress: address),
                                                 configure: { $0.askTimeout = 90 }) { port, events in
                let send = { try await NearbySender(root: a.root, deviceName: "Eve's <phone>", senderApp: "x")
                    .send([item], to: SendTarget(host: "127.0.0.1", port: port, expected: b.identity.fingerprint)) }
                if accepted {
                    let report = try await send()
                    #expect(report.complete)
                } else {
                    await #expect { try await send() } throws: { if case NearbyError.declined("declined") = $0 { true } else { false } }
                }
            }
            let answered = try await user.value
            #expect(answered.status == 0, "\(answered.out)\(answered.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: b.inbox("com.example.notes")) == ["notes.txt"])
        let history = try await TestSupport.runOffPool("/bin/bash", [Self.script, "history", dir]).out
        #expect(history.contains("\"Eve's <phone> wants to send you a file\""), "\(history)")
    }
}
