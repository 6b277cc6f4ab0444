import Foundation
import TestHelpers
import Testing

/// The receiver's questions as the person at its terminal sees them (Fixtures/prompt-terminal.sh,
/// in tmux; the receiver and senders as the test user, on lab hosts; needs root): one at
/// a time, nothing printed onto a pending `[y/N]`, withdrawn at the timeout, a late "y" that
/// answers nothing, Ctrl-C that ends the receiver at once with its sender declined, and a hostile
/// sender's name (screen clearing, a title, a forged prompt and digits, 300 characters) that acts on
/// nothing on the question nor beside the comparison digits while pairing.
@Suite(.serialized) struct PromptTerminalTests {
    static let installed = FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")

    @Test(.enabled(if: installed, "tmux is not installed (scripts/install-dependencies --tests)"))
    func theQuestionsOnATerminal() async throws {
        let work = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        for name in ["A", "A2", "A3", "B"] { try FileManager.default.moveItem(at: try TestSupport.sampleDevice(), to: work.appendingPathComponent(name)) }
        try FileManager.default.copyItem(at: TestSupport.packageRoot.appendingPathComponent("Samples/Documents/notes.txt"),
                                         to: work.appendingPathComponent("notes.txt"))
        let script = TestSupport.packageRoot.appendingPathComponent("Tests/NearbyTests/Fixtures/prompt-terminal.sh").path
        let nearby = TestSupport.productsDirectory.appendingPathComponent("nearby").path
        let lab = TestSupport.shared.appendingPathComponent("nearby/lab.sh").path
        let run = try await TestSupport.runOffPool("/bin/bash", [script, nearby, lab, work.path],
                                                   environment: ["LAB": "dpt", "LAB_NET": "10.228.0"].merging(TestUser.fixtureEnvironment) { $1 })
        #expect(run.status == 0, "\(run.out)\(run.stderr)")
        #expect(run.out.contains("17 passed, 0 failed"), "\(run.out)")
        #expect(run.out.contains("fence=0\n"), "packets addressed outside the lab: \(run.out)")
        // Ctrl-C ends it at once: the receiver did not wait for Enter (it did, for ever, before).
        let ms = run.out.split(whereSeparator: \.isNewline).first { $0.hasPrefix("ctrl_c_ms=") }.flatMap { Int($0.dropFirst("ctrl_c_ms=".count)) }
        #expect((ms ?? .max) < 5_000, "\(run.out)")
    }
}
