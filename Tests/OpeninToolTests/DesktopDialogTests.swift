import Foundation
import TestHelpers
import Testing

/// `openin` as a desktop dialog, and the file managers' "Open In…" and "Send to Nearby Device…"
/// actions that scripts/install adds: the real zenity and kdialog on Xvfb, driven by xdotool (Fixtures/openin_dialog_check.sh).
@Suite struct DesktopDialogTests {
    static var installed: Bool {
        ["Xvfb", "zenity", "kdialog", "xdotool", "gio", "desktop-file-validate"].allSatisfy { program in
            ["/usr/bin/", "/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + program) }
        }
    }

    /// Nautilus's script (zenity on GNOME), Dolphin's service menu (kdialog on KDE), Thunar's
    /// action (cancelled: nothing delivered) and the desktop entry started by `gio launch`, each
    /// as its file manager starts it, with no terminal; the row chosen is delivered. Then "Send to
    /// Nearby Device…" from Nautilus and Dolphin: only the paired device is offered, and the
    /// document arrives on it (a second device root with its receiver on loopback), with a
    /// progress window while it is sent and a message after.
    @Test(.enabled(if: installed, "Xvfb, zenity, kdialog, xdotool or GIO is not installed (scripts/install-dependencies --tests)"))
    func fileManagerActionsShowTheSheetAsADialogAndPerformTheChoice() async throws {
        let script = TestSupport.packageRoot.appendingPathComponent("Tests/OpeninToolTests/Fixtures/openin_dialog_check.sh").path
        // The whole desktop session as the test user: the display, the dialogs, openin, nearby
        // and its receiver run as a person's do.
        let command = TestUser.command("/bin/bash", [script, TestSupport.packageRoot.path, TestSupport.productsDirectory.path])
        let run = try await TestSupport.runOffPool(command.executable, command.arguments, environment: ["HOME": TestUser.home, "USER": "nobody"])
        #expect(run.status == 0 && run.out.contains("passed 31 failed 0"), "\(run.out)\(run.stderr)")
    }

    /// Asked for a dialog with no display, or with neither dialog program: a clear error naming
    /// what is missing, exit 2, nothing delivered.
    @Test func withoutADisplayOrADialogProgramTheErrorSaysWhatToInstall() throws {
        let root = try TestSupport.sampleDevice()
        let document = root.appendingPathComponent("Documents/file.person").path
        let noDisplay = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--dialog", document])
        #expect(noDisplay.status == 2 && noDisplay.stderr.contains("no desktop display (DISPLAY and WAYLAND_DISPLAY are not set)"), "\(noDisplay.stderr)")
        let empty = try TestSupport.temporaryDirectory()
        let noProgram = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--dialog", document],
                                            environment: ["DISPLAY": ":99", "PATH": empty.path])
        #expect(noProgram.status == 2, "\(noProgram.stderr)")
        #expect(noProgram.stderr.contains("install zenity") && noProgram.stderr.contains("or kdialog"), "\(noProgram.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.path + "/Containers"))
    }
}
