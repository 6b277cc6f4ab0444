import Foundation
import Testing

/// pasteboardd on real display servers: Xvfb with xclip, headless sway with wl-clipboard
/// (Fixtures/desktop_bridge_check.sh; scripts/install-dependencies installs them). A server that
/// is installed but cannot start here is reported as a skip by the script, and fails the test:
/// only a missing package skips.
@Suite(.serialized) struct DesktopBridgeTests {
    static func installed(_ programs: [String]) -> Bool {
        programs.allSatisfy { name in ["/usr/bin/", "/usr/local/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + name) } }
    }

    static func check(_ backend: String) throws {
        let script = TestSupportPaths.fixture("desktop_bridge_check.sh")
        let run = try Fixture.run("/bin/bash", [script, backend, TestSupportPaths.products], root: try Fixture.root())
        #expect(run.status == 0, "\(run.out)\(run.stderr)")
        #expect(run.out.contains("20 passed, 0 failed"), "\(run.out)")
    }

    @Test(.enabled(if: installed(["Xvfb", "xclip"]), "Xvfb and xclip are not installed (scripts/install-dependencies)"))
    func x11ClipboardAndGeneralPasteboardStayInSync() throws { try Self.check("x11") }

    @Test(.enabled(if: installed(["sway", "wl-copy", "wl-paste"]), "sway and wl-clipboard are not installed (scripts/install-dependencies)"))
    func waylandClipboardAndGeneralPasteboardStayInSync() throws { try Self.check("wayland") }
}
