import Foundation
import TestHelpers
import Testing

/// An app run by hand from its bundle knows who it is and its device root, as Apple's
/// `Bundle.main` is found from where the executable was started: the real Contacts sample
/// (`ROOT/Apps/Contacts.app/bin/contacts`, a link to the build folder, as `scripts/install-samples`
/// installs it) runs `publish` as docs/handoff.md prints it, in a copied device root, without the
/// launcher's `DI_BUNDLE_IDENTIFIER` and `DOCUMENT_INTERCHANGE_ROOT`. Its activity becomes current
/// only when it knows both: the app's identity, and the root whose registry lists it.
@Suite(.serialized) struct AppStartedFromItsBundleTests {
    /// What the launcher would have set; unset for these runs unless a test sets them.
    static let launcherVariables = ["DI_BUNDLE_IDENTIFIER", "DOCUMENT_INTERCHANGE_ROOT"]

    /// Runs `command` with `arguments` from the folder `folder` as the user runs apps
    /// (``TestUser``), through a shell that starts it as typed (so `argv[0]` is `command` as
    /// given), with `PATH` when given, the launcher's variables unset and `environment` added.
    static func run(_ command: String, _ arguments: [String], in folder: URL, path: String? = nil,
                    environment: [String: String] = [:]) throws -> (status: Int32, out: String, stderr: String) {
        var merged = TestUser.environment(from: ProcessInfo.processInfo.environment)
        for name in launcherVariables + ["DISPLAY", "WAYLAND_DISPLAY"] { merged[name] = nil }
        if let path { merged["PATH"] = path }
        merged.merge(environment) { $1 }
        let shell = TestUser.command("/bin/sh", ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", folder.path, command] + arguments)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell.executable)
        process.arguments = shell.arguments
        process.environment = merged
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        // No input: `publish` offers its activity, says "current", and ends with its input.
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        // Both pipes read at once, so that neither fills while the other is waited for.
        nonisolated(unsafe) var errors = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errors = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let output = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }

    /// What the app left on `root` when it knew itself there: its container and the Handoff
    /// board its offer was on.
    static func actedOn(_ root: URL, as app: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("Containers/\(app)").path)
            && FileManager.default.fileExists(atPath: root.appendingPathComponent("Handoff/Current").path)
    }

    @Test func startedByItsPathInTheBundleItKnowsItsIdentityAndRoot() throws {
        let root = try TestSupport.sampleDevice()
        let contacts = root.appendingPathComponent("Apps/Contacts.app/bin/contacts").path
        let run = try Self.run(contacts, ["publish"], in: root.deletingLastPathComponent())
        #expect(run.status == 0 && run.out == "current\n", "\(run.out)\(run.stderr)")
        #expect(Self.actedOn(root, as: "com.example.contacts"))
    }

    @Test func startedByARelativePathItKnowsItsIdentityAndRoot() throws {
        let root = try TestSupport.sampleDevice()
        let run = try Self.run("Apps/Contacts.app/bin/contacts", ["publish"], in: root)
        #expect(run.status == 0 && run.out == "current\n", "\(run.out)\(run.stderr)")
        #expect(Self.actedOn(root, as: "com.example.contacts"))
        // From another folder, through `..`.
        let other = try TestSupport.sampleDevice()
        let again = try Self.run("../Apps/Contacts.app/bin/contacts", ["publish"], in: other.appendingPathComponent("Documents"))
        #expect(again.status == 0 && again.out == "current\n", "\(again.out)\(again.stderr)")
        #expect(Self.actedOn(other, as: "com.example.contacts"))
    }

    @Test func startedThroughPATHItKnowsItsIdentityAndRoot() throws {
        let root = try TestSupport.sampleDevice()
        let bin = root.appendingPathComponent("Apps/Contacts.app/bin").path
        let run = try Self.run("contacts", ["publish"], in: URL(fileURLWithPath: "/"), path: "/usr/bin:/bin:" + bin)
        #expect(run.status == 0 && run.out == "current\n", "\(run.out)\(run.stderr)")
        #expect(Self.actedOn(root, as: "com.example.contacts"))
    }

    /// The launcher's variables, when set, still win: they name the app and the root explicitly.
    @Test func theLaunchersVariablesStillWin() throws {
        let root = try TestSupport.sampleDevice()
        let elsewhere = try TestSupport.sampleDevice()
        let contacts = root.appendingPathComponent("Apps/Contacts.app/bin/contacts").path
        let run = try Self.run(contacts, ["publish"], in: root, environment: ["DI_BUNDLE_IDENTIFIER": "com.example.notes",
                                                                             "DOCUMENT_INTERCHANGE_ROOT": elsewhere.path])
        // Notes does not declare the contacts list's type: offered, with the warning that says whose it was.
        #expect(run.status == 0 && run.out == "current\n", "\(run.out)\(run.stderr)")
        #expect(run.stderr.contains("com.example.contacts.list-contacts is not in com.example.notes's NSUserActivityTypes"), "\(run.stderr)")
        #expect(Self.actedOn(elsewhere, as: "com.example.notes"))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("Containers").path))
    }
}
