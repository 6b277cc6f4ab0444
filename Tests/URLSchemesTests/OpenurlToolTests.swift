import AppRegistry
import Foundation
import PropertyLists
import TestHelpers
import Testing

/// `openurl` as a process on real device roots: requests, launch commands, standard input, a
/// 1 MiB URL, canOpenURL, the contested list, defaults, the desktop handoff (a fake `gio` on
/// PATH) and real `gio open` through exported desktop entries.
@Suite(.serialized) struct OpenurlToolTests {
    /// A handler program that is not a shell: records its arguments and DI_* environment as JSON.
    static func recorder(in folder: URL) throws -> String {
        let script = folder.appendingPathComponent("recorder.py")
        try """
        import json, os, sys
        out = sys.argv[1]
        record = {"argv": sys.argv[2:], "env": {k: v for k, v in os.environ.items() if k.startswith("DI_") or k == "DOCUMENT_INTERCHANGE_ROOT"}}
        with open(out + ".tmp", "w") as f: json.dump(record, f)
        os.rename(out + ".tmp", out)
        """.write(to: script, atomically: true, encoding: .utf8)
        return script.path
    }

    static func waitFor(_ path: String, seconds: Double = 60) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if FileManager.default.fileExists(atPath: path) { return true }
            usleep(5_000)
        }
        return false
    }

    static func record(_ path: String) throws -> (argv: [String], env: [String: String]) {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        return (object?["argv"] as? [String] ?? [], object?["env"] as? [String: String] ?? [:])
    }

    /// A device with a handler app whose launch command runs the recorder into `seen`.
    static func device() throws -> (SchemeDevice, seen: String) {
        let folder = try TestSupport.temporaryDirectory()
        let recorder = try recorder(in: folder)
        let seen = folder.appendingPathComponent("seen.json").path
        let device = try SchemeDevice([
            .init(identifier: "com.example.handler", name: "Handler", urlTypes: [(["appb", "com.example.app2+x"], "Viewer")],
                  launch: ["/usr/bin/python3", recorder, seen, "%u", "%s", "%r", "%f"]),
            .init(identifier: "com.example.sender", urlTypes: [(["appa"], "Editor")], queries: ["appb", "nosuch"]),
            .init(identifier: "com.example.rival", name: "Rival", urlTypes: [(["appb"], "Editor")]),
        ])
        return (device, seen)
    }

    @Test func openingWritesTheRequestAndRunsTheLaunchCommandWithoutAShell() throws {
        let (device, seen) = try Self.device()
        let url = "APPB://h/p?x=$(touch%20/tmp/pwn)&y=a;id"
        let run = try TestSupport.run(TestSupport.openurl, ["--root", device.root.path, "--to", "com.example.handler", "--from", "com.example.sender",
                                                            "--annotation", "{note = hi;}", url])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.waitFor(seen))
        let (argv, env) = try Self.record(seen)
        #expect(argv.count == 4 && argv[0] == url && argv[1] == "com.example.sender" && argv[3] == "")
        #expect(env["DI_URL"] == url && env["DI_SOURCE_APPLICATION"] == "com.example.sender" && env["DI_BUNDLE_IDENTIFIER"] == "com.example.handler")
        #expect(env["DOCUMENT_INTERCHANGE_ROOT"] == device.root.path)
        let request = try PropertyListReader.read(contentsOf: .init(argv[2])).value
        #expect(request["URL"]?.stringValue == url)
        #expect(request["SourceApplication"]?.stringValue == "com.example.sender")
        #expect(request["TargetApplication"]?.stringValue == "com.example.handler")
        #expect(request["Annotation"]?["note"]?.stringValue == "hi")
        #expect(request["DocumentPath"] == nil)
        #expect(argv[2].hasPrefix(device.root.path + "/Containers/com.example.handler/Library/OpenRequests/"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/pwn"))
    }

    /// `-` reads the URL from standard input; a 1 MiB URL travels whole in the request file, and
    /// the command line carries an empty %u instead of failing with E2BIG.
    @Test func aOneMebibyteURLFromStandardInputArrivesWhole() throws {
        let (device, seen) = try Self.device()
        var generator = SystemRandomNumberGenerator()
        let payload = String((0..<(1 << 20)).map { _ in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_".randomElement(using: &generator)! })
        let url = "appb://localhost/exportedData/data?" + payload
        let run = try TestSupport.run(TestSupport.openurl, ["--root", device.root.path, "--to", "com.example.handler", "-"], stdin: Data((url + "\n").utf8))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.out.contains("bytes)"), "the long URL is shortened in the report")
        #expect(Self.waitFor(seen))
        let (argv, env) = try Self.record(seen)
        #expect(argv[0] == "" && env["DI_URL"] == nil)
        let request = try PropertyListReader.read(contentsOf: .init(env["DI_OPEN_REQUEST"] ?? "")).value
        #expect(request["URL"]?.stringValue == url)
    }

    @Test func canAnswersAsCanOpenURLWithTheReasonOnRequest() throws {
        let (device, _) = try Self.device()
        func can(_ url: String, from sender: String) throws -> TestSupport.Run {
            try TestSupport.run(TestSupport.openurl, ["--root", device.root.path, "--can", "--explain", "--from", sender, url])
        }
        let yes = try can("appb://x", from: "com.example.sender")
        #expect(yes.status == 0 && yes.out.contains("yes: com.example.rival handles appb"))
        let notQueried = try can("appa://x", from: "com.example.handler")
        #expect(notQueried.status == 1 && notQueried.out.contains("does not list appa"))
        let noHandler = try can("nosuch:", from: "com.example.sender")
        #expect(noHandler.status == 1 && noHandler.out.contains("no registered app handles nosuch"))
        let quiet = try TestSupport.run(TestSupport.openurl, ["--root", device.root.path, "--can", "--from", "com.example.sender", "appb:"])
        #expect(quiet.status == 0 && quiet.out.isEmpty)
        let noSender = try TestSupport.run(TestSupport.openurl, ["--root", device.root.path, "--can", "appb:"])
        #expect(noSender.status == 2 && noSender.stderr.contains("--can needs --from"))
        let bad = try TestSupport.run(TestSupport.openurl, ["--root", device.root.path, "appb://h/a b"])
        #expect(bad.status == 2 && bad.stderr.contains("a space in the path must be percent-encoded at byte 10"))
    }

    @Test func theListShowsTheContestAndTheDefaultDecides() throws {
        let (device, seen) = try Self.device()
        let list = try TestSupport.run(TestSupport.openurl, ["--root", device.root.path, "--list", "--explain", "appb"])
        #expect(list.status == 0)
        #expect(list.out.contains("appb: 2 apps claim it; Rival (com.example.rival) opens its URLs"))
        #expect(list.out.contains("1. Rival (com.example.rival)") && list.out.contains("2. Handler (com.example.handler)"))
        #expect(list.out.contains("contested:") && list.out.contains("role Editor"))
        // Without --to the Editor opens it: no launch command, so nothing runs.
        let opened = try TestSupport.run(TestSupport.openurl, ["--root", device.root.path, "appb://x"])
        #expect(opened.status == 0 && opened.out.contains("opened by Rival"))
        let refused = try TestSupport.run(TestSupport.openurl, ["--root", device.root.path, "default", "set", "appb", "com.example.sender"])
        #expect(refused.status == 2 && refused.stderr.contains("com.example.sender does not handle appb"))
        #expect(try TestSupport.run(TestSupport.openurl, ["--root", device.root.path, "default", "set", "AppB", "com.example.handler"]).status == 0)
        #expect(try TestSupport.run(TestSupport.openurl, ["--root", device.root.path, "default", "get", "appb"]).out == "com.example.handler\n")
        let json = try TestSupport.run(TestSupport.openurl, ["--root", device.root.path, "--list", "--json", "appb:"])
        let object = try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any]
        let apps = (object?["apps"] as? [[String: Any]] ?? []).compactMap { $0["bundleIdentifier"] as? String }
        #expect(apps == ["com.example.handler", "com.example.rival"] && object?["contested"] as? Bool == true)
        let now = try TestSupport.run(TestSupport.openurl, ["--root", device.root.path, "appb://x"])
        #expect(now.status == 0 && now.out.contains("opened by Handler"))
        #expect(Self.waitFor(seen))
        #expect(try TestSupport.run(TestSupport.openurl, ["--root", device.root.path, "default", "unset", "appb"]).status == 0)
        #expect(try TestSupport.run(TestSupport.openurl, ["--root", device.root.path, "default", "list"]).out.isEmpty)
    }

    /// Schemes no registered app handles go to the desktop (a fake `gio` first on PATH records
    /// what it got); the handoff marks its child so the desktop cannot bounce the URL back.
    @Test func unknownSchemesGoToTheDesktopAndNeverLoop() throws {
        let (device, _) = try Self.device()
        let bin = device.folder.appendingPathComponent("fakebin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let got = device.folder.appendingPathComponent("gio-got.json").path
        try """
        #!/usr/bin/python3
        import json, os, sys
        json.dump({"argv": sys.argv[1:], "env": {"DI_OPENURL_HANDOFF": os.environ.get("DI_OPENURL_HANDOFF", "")}}, open("\(got)", "w"))
        """.write(to: bin.appendingPathComponent("gio"), atomically: true, encoding: .utf8)
        chmod(bin.appendingPathComponent("gio").path, 0o755)
        // A fake xdg-open too: the real one would start whatever browser this machine has.
        try "#!/bin/sh\nexit 3\n".write(to: bin.appendingPathComponent("xdg-open"), atomically: true, encoding: .utf8)
        chmod(bin.appendingPathComponent("xdg-open").path, 0o755)
        // The desktop's browser and mail app: gio opens what a desktop file claims.
        let data = device.folder.appendingPathComponent("xdg-data")
        try FileManager.default.createDirectory(at: data.appendingPathComponent("applications"), withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Browser\nExec=true %u\nMimeType=x-scheme-handler/https;x-scheme-handler/mailto;\n"
            .write(to: data.appendingPathComponent("applications/browser.desktop"), atomically: true, encoding: .utf8)
        let env = ["/usr/bin/env", "PATH=\(bin.path):/usr/bin:/bin", "XDG_DATA_HOME=\(data.path)", "XDG_CACHE_HOME=\(device.folder.path)/cache",
                   TestSupport.openurl, "--root", device.root.path]
        let handed = try TestSupport.run(env[0], Array(env.dropFirst()) + ["https://example.org/a?b=c"])
        #expect(handed.status == 0, "\(handed.stderr)")
        #expect(handed.out.contains("handed to the desktop: gio open https://example.org/a?b=c"))
        let (argv, childEnv) = try Self.record(got)
        #expect(argv == ["open", "https://example.org/a?b=c"] && childEnv["DI_OPENURL_HANDOFF"] == "1")
        let noDesktop = try TestSupport.run(env[0], Array(env.dropFirst()) + ["--no-desktop", "https://example.org/"])
        #expect(noDesktop.status == 1 && noDesktop.stderr.contains("no registered app handles the scheme https"))
        let loop = try TestSupport.run("/usr/bin/env", ["DI_OPENURL_HANDOFF=1"] + Array(env.dropFirst()) + ["mailto:a@b.org"])
        #expect(loop.status == 1 && loop.stderr.contains("not handing it back to the desktop"))
        let none = try TestSupport.run("/usr/bin/env", ["PATH=/nonexistent", TestSupport.openurl, "--root", device.root.path, "mailto:a@b.org"])
        #expect(none.status == 1 && none.stderr.contains("looked for gio open, xdg-open"))
    }

    /// The real desktop: registering on the user's own root exports x-scheme-handler entries, GIO
    /// (`gio open`) starts openurl through them, openurl starts the app; unregistering removes them.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/gio") && FileManager.default.isExecutableFile(atPath: "/usr/bin/update-desktop-database")))
    func gioOpenReachesTheAppThroughExportedEntries() throws {
        let folder = try TestSupport.temporaryDirectory()
        let recorder = try Self.recorder(in: folder)
        let seen = folder.appendingPathComponent("seen.json").path
        let bundle = folder.appendingPathComponent("Handler.app")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let info: PropertyList = .dictionary(["CFBundleIdentifier": .string("com.example.desktop-handler"), "CFBundleName": .string("Desktop Handler"),
                                              "CFBundleURLTypes": .array([.dictionary(["CFBundleURLSchemes": .array([.string("di-test-scheme")])])]),
                                              "DILaunchCommand": .array(["/usr/bin/python3", recorder, seen, "%u"].map { .string($0) })])
        try Data(try XMLPropertyListWriter().write(info)).write(to: bundle.appendingPathComponent("Info.plist"))
        let xdg = ["HOME=\(folder.path)/home", "XDG_DATA_HOME=\(folder.path)/data", "XDG_CONFIG_HOME=\(folder.path)/config", "XDG_DATA_DIRS=/usr/share",
                   "XDG_CACHE_HOME=\(folder.path)/cache", "DOCUMENT_INTERCHANGE_ROOT=", "DISPLAY=", "PATH=/usr/bin:/bin"]
        let registered = try TestSupport.run("/usr/bin/env", xdg + [TestSupport.uti, "register", bundle.path])
        #expect(registered.status == 0, "\(registered.stderr)")
        let entries = folder.appendingPathComponent("data/applications")
        let names = try FileManager.default.contentsOfDirectory(atPath: entries.path).filter { $0.hasSuffix(".desktop") }
        #expect(names.count == 1 && names[0].hasSuffix("-com.example.desktop-handler.desktop"))
        let text = try String(contentsOf: entries.appendingPathComponent(names[0]), encoding: .utf8)
        #expect(text.contains("MimeType=x-scheme-handler/di-test-scheme;") && text.contains("Exec=\(TestSupport.openurl) --root"))
        let url = "DI-Test-Scheme://x-callback-url/hello?who=gio%20open"
        let gio = try TestSupport.run("/usr/bin/env", xdg + ["gio", "open", url])
        #expect(gio.status == 0, "\(gio.stderr)")
        #expect(Self.waitFor(seen))
        #expect(try Self.record(seen).argv == [url])
        let unregistered = try TestSupport.run("/usr/bin/env", xdg + [TestSupport.uti, "unregister", "com.example.desktop-handler"])
        #expect(unregistered.status == 0 && unregistered.out.contains("removed desktop entry"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: entries.path).filter { $0.hasSuffix(".desktop") }.isEmpty)
        // A named root never touches the user's desktop.
        let named = try TestSupport.run("/usr/bin/env", xdg + [TestSupport.uti, "--root", folder.appendingPathComponent("other").path, "register", "--create-root", bundle.path])
        #expect(named.status == 0 && !named.out.contains("desktop entry"))
    }
}
