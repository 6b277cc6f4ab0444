import Foundation
import Testing

/// openin's Copy activity on real display servers (Fixtures/openin_copy_check.sh): xclip and
/// wl-copy leave a child serving the clipboard, which openin must neither wait for nor hand its
/// output to, and which keeps the document on the clipboard after openin exits; with pasteboardd
/// running, the copy goes through the general pasteboard and no helper is started. A server that is
/// installed but cannot start here fails the test: only a missing package skips.
@Suite(.serialized) struct OpeninCopyTests {
    static func check(_ backend: String) throws {
        let script = TestSupportPaths.fixture("openin_copy_check.sh")
        let run = try Fixture.run("/bin/bash", [script, backend, TestSupportPaths.products], root: try Fixture.root())
        #expect(run.status == 0, "\(run.out)\(run.stderr)")
        #expect(run.out.contains("13 passed, 0 failed"), "\(run.out)")
    }

    @Test(.enabled(if: DesktopBridgeTests.installed(["Xvfb", "xclip"]), "Xvfb and xclip are not installed (scripts/install-dependencies)"))
    func copyReturnsAtOnceOnX11AndTheClipboardKeepsTheDocument() throws { try Self.check("x11") }

    @Test(.enabled(if: DesktopBridgeTests.installed(["sway", "wl-copy", "wl-paste"]), "sway and wl-clipboard are not installed (scripts/install-dependencies)"))
    func copyReturnsAtOnceOnWaylandAndTheClipboardKeepsTheDocument() throws { try Self.check("wayland") }
}
