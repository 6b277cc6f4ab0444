import AppRegistry
import Foundation
import Handlers
@testable import Nearby
import TestHelpers
import Testing

/// A received item goes to the app `openin` would put first, the user's defaults included (issue
/// #43): the receiver ranked the apps a second time, without the defaults, and a text file went to
/// Notes while `openin default set` had made Files the choice.
@Suite struct DestinationChoiceTests {
    @Test func aReceivedItemGoesWhereOpeninPutsItFirst() async throws {
        let a = try TransferTests.Device(), b = try TransferTests.Device()
        try a.pair(with: b, as: "b"); try b.pair(with: a, as: "a")
        var defaults = try HandlerDefaults(root: b.root)
        try defaults.set("public.plain-text", to: "com.example.files")
        // openin's first row for a text file on B.
        let registry = try RegistryStore.forQuery(root: b.root)
        let chooser = try DocumentChooser(root: b.root, registry: registry, configuration: .init(sourceApplication: "com.example.mail"))
        let first = chooser.choices(for: [TransferTests.sample("notes.txt")]).sheet.apps.first?.app.bundleIdentifier
        #expect(first == "com.example.files")
        let item = try OutgoingItem(path: TransferTests.sample("notes.txt"), type: "public.plain-text")
        let report = try await TransferTests.withReceiver(b) { port, _ in
            try await NearbySender(root: a.root, deviceName: "Ann's laptop", senderApp: "com.example.mail")
                .send([item], to: SendTarget(host: "127.0.0.1", port: port, expected: b.identity.fingerprint), targetApp: nil)
        }
        #expect(report.destinations == [first])
        #expect(FileManager.default.fileExists(atPath: b.inbox("com.example.files") + "/notes.txt"))
        #expect(!FileManager.default.fileExists(atPath: b.inbox("com.example.notes")))
    }
}
