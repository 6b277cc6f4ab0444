import Foundation
import InterchangeKit
import TestHelpers
import Testing

// The receiving side of Open In: the delegate is Apple-platform code; the sending app is the real
// `openin`, run as that app's process would run it.

/// An app that is handed documents (Open In from another app): iOS gives each as a file URL with
/// the sender and the annotation the sender attached.
@MainActor
final class DocumentDelegate: UIApplicationDelegate {
    var opened: [(url: URL, sender: String?, annotation: [String: Any]?)] = []

    func application(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any] = [:]) -> Bool {
        guard url.isFileURL else { return false }
        opened.append((url, options[.sourceApplication] as? String, options[.annotation] as? [String: Any]))
        return true
    }
}

extension InterchangeKitTests {
    @Test @MainActor func aRunningAppIsHandedADocumentWithItsAnnotation() async throws {
        let app = DocumentDelegate()
        try acting(as: "com.example.appA") { UIApplicationMain(app) }
        // Another app hands it a note through Open In (the real openin, as that app's process).
        let note = InterchangeDevice.folder.appendingPathComponent("note-\(UUID().uuidString).txt")
        try Data("Buy milk\n".utf8).write(to: note)
        let run = try TestSupport.run(TestSupport.openin, ["--root", InterchangeDevice.root.path, "--to", "com.example.appA",
                                                           "--from", "com.example.appB", "--annotation", "{reason = review;}", note.path])
        #expect(run.status == 0, "\(run.stderr)")
        for _ in 0..<1000 where app.opened.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        let opened = try #require(app.opened.first)
        #expect(opened.url.path.hasSuffix("/Documents/" + note.lastPathComponent))
        #expect(try String(contentsOf: opened.url, encoding: .utf8) == "Buy milk\n")
        #expect(opened.sender == "com.example.appB")
        #expect(opened.annotation?["reason"] as? String == "review")
    }
}
