import Foundation
import TestHelpers
import Testing

/// `openin` with Linux desktop applications: GLib's fixture tree as the machine's XDG folders,
/// the real `openin`, and GIO for comparison.
@Suite(.serialized) struct OpeninDesktopTests {
    struct Tree {
        var root: URL
        var environment: [String: String] {
            ["HOME": root.path, "PATH": "/usr/bin:/bin", "LANG": "C", "XDG_DATA_HOME": root.path + "/home", "XDG_DATA_DIRS": root.path + "/usr",
             "XDG_CONFIG_HOME": root.path + "/config", "XDG_CONFIG_DIRS": root.path + "/etc", "XDG_CACHE_HOME": root.path + "/cache",
             "XDG_CURRENT_DESKTOP": "GNOME", "DOCUMENT_INTERCHANGE_ROOT": root.path + "/device"]
        }
        func write(_ text: String, to relative: String) throws {
            let url = root.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        var report: String { root.path + "/docs/report.pdf" }
        /// A CSV file: text/csv, whose MIME parent is text/plain (public.c-source has no MIME type in
        /// the catalog yet, so a .c file would be looked up as text/plain).
        var source: String { root.path + "/docs/table.csv" }
    }

    static func tree() throws -> Tree {
        let root = try TestSupport.temporaryDirectory()
        let corpus = TestSupport.shared.appendingPathComponent("corpus/desktop-files")
        try FileManager.default.copyItem(at: corpus.appendingPathComponent("home"), to: root.appendingPathComponent("home"))
        try FileManager.default.copyItem(at: corpus.appendingPathComponent("usr"), to: root.appendingPathComponent("usr"))
        _ = try TestSupport.run("/bin/chmod", ["-R", "u+w", root.path])
        try FileManager.default.createSymbolicLink(atPath: root.path + "/usr/mime", withDestinationPath: "/usr/share/mime")
        for dir in ["config", "etc", "cache", "docs", "device"] { try FileManager.default.createDirectory(at: root.appendingPathComponent(dir), withIntermediateDirectories: true) }
        let tree = Tree(root: root)
        try tree.write("%PDF-1.4\n%%EOF\n", to: "docs/report.pdf")
        try tree.write("a,b\n1,2\n", to: "docs/table.csv")
        return tree
    }

    static func openin(_ tree: Tree, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestSupport.openin)
        process.arguments = arguments
        process.environment = tree.environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }

    static func apps(_ json: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return object?["apps"] as? [[String: Any]] ?? []
    }

    static func ids(_ json: String) throws -> [String] { try apps(json).compactMap { $0["bundleIdentifier"] as? String } }

    /// The issue's case: a PDF on a machine with apps installed. The hidden previewer GIO would
    /// choose is listed after the real viewer; `--gio` gives GIO's order and default.
    @Test func pdfListsInstalledAppsAndTheHiddenHelperLast() throws {
        let tree = try Self.tree()
        let json = try Self.openin(tree, ["--json", tree.report])
        #expect(json.status == 0, "\(json.err)")
        #expect(try Self.ids(json.out) == ["evince.desktop", "evince-previewer.desktop"])
        let first = try #require(try Self.apps(json.out).first)
        #expect(first["kind"] as? String == "desktop")
        #expect(first["desktopFile"] as? String == tree.root.path + "/usr/applications/evince.desktop")
        let gio = try Self.openin(tree, ["--gio", "--json", tree.report])
        #expect(try Self.ids(gio.out) == ["evince-previewer.desktop", "evince.desktop"])
        let explained = try Self.openin(tree, ["--list", "--explain", tree.report])
        #expect(explained.out.contains("hidden helper (NoDisplay=true)"))
        #expect(explained.out.contains("GIO would make it the default"))
        #expect(explained.out.contains("from \(tree.root.path)/usr/applications/evince.desktop (XDG_DATA_DIRS, desktop-file ID evince.desktop)"))
        #expect(explained.out.contains("associated by \(tree.root.path)/usr/applications/evince.desktop:"))
        // With --root, the device's registered apps only; --desktop-apps adds the machine's.
        let device = try Self.openin(tree, ["--root", tree.root.path + "/device", "--json", tree.report])
        #expect(try Self.ids(device.out) == [])
        let both = try Self.openin(tree, ["--root", tree.root.path + "/device", "--desktop-apps", "--json", tree.report])
        #expect(try Self.ids(both.out) == ["evince.desktop", "evince-previewer.desktop"])
    }

    /// mimeapps.list makes the default, and --explain names its line; a removed association is
    /// not offered; an added one is.
    @Test func mimeappsListDefaultsAddedAndRemoved() throws {
        let tree = try Self.tree()
        try tree.write("[Default Applications]\napplication/pdf=not-installed.desktop;kde4-okular.desktop;\n[Added Associations]\napplication/pdf=gedit.desktop;\n[Removed Associations]\napplication/pdf=evince.desktop;\n",
                       to: "config/mimeapps.list")
        let json = try Self.openin(tree, ["--json", tree.report])
        let ids = try Self.ids(json.out)
        #expect(ids.first == "kde4-okular.desktop")
        #expect(ids.contains("gedit.desktop") && ids.contains("evince-previewer.desktop") && !ids.contains("evince.desktop"))
        #expect(ids.last == "evince-previewer.desktop")
        let explained = try Self.openin(tree, ["--list", "--explain", tree.report])
        #expect(explained.out.contains("the default by \(tree.root.path)/config/mimeapps.list:2 [Default Applications] application/pdf=kde4-okular.desktop"))
        #expect(explained.out.contains("associated by \(tree.root.path)/config/mimeapps.list:4 [Added Associations]"))
        // GIO agrees on the default (the same line).
        let gio = try Self.openin(tree, ["--gio", "--json", tree.report])
        #expect(try Self.ids(gio.out).first == "kde4-okular.desktop")
    }

    /// Catch-alls: an octet-stream claimer and a generic text editor rank after specific claims
    /// and say why; a desktop-specific app not shown here is listed last.
    @Test func catchAllsAndDesktopSpecificApps() throws {
        let tree = try Self.tree()
        try tree.write("[Desktop Entry]\nType=Application\nName=Hex\nExec=true %f\nMimeType=application/octet-stream;\n", to: "usr/applications/hex.desktop")
        try tree.write("[Desktop Entry]\nType=Application\nName=Table Editor\nExec=true %f\nMimeType=text/csv;\n", to: "usr/applications/cedit.desktop")
        try tree.write("[Desktop Entry]\nType=Application\nName=KDE Viewer\nExec=true %f\nOnlyShowIn=KDE;\nMimeType=application/pdf;\n", to: "usr/applications/kview.desktop")
        let pdf = try Self.ids(try Self.openin(tree, ["--json", tree.report]).out)
        #expect(pdf.first == "evince.desktop")
        #expect(pdf.contains("hex.desktop") && pdf.firstIndex(of: "hex.desktop")! > pdf.firstIndex(of: "evince.desktop")!)
        #expect(pdf.suffix(2).contains("kview.desktop"))
        let explained = try Self.openin(tree, ["--list", "--explain", tree.report]).out
        #expect(explained.contains("catch-all: it claims application/octet-stream (any file)"))
        #expect(explained.contains("not shown on GNOME (OnlyShowIn=KDE)"))
        let c = try Self.ids(try Self.openin(tree, ["--json", tree.source]).out)
        // The two apps that claim text/csv itself, by name; the generic text editors after them.
        #expect(Array(c.prefix(2)) == ["libreoffice-calc.desktop", "cedit.desktop"])
        #expect(c.contains("gedit.desktop") && c.firstIndex(of: "gedit.desktop")! > 1)
        #expect(try Self.openin(tree, ["--list", "--explain", tree.source]).out.contains("catch-all: it claims text/plain, reached from text/csv (a generic editor)"))
    }

    /// `openin default set` takes a desktop-file ID; the app then ranks first.
    @Test func defaultSetTakesDesktopApps() throws {
        let tree = try Self.tree()
        try FileManager.default.createDirectory(atPath: tree.root.path + "/device", withIntermediateDirectories: true)
        let set = try Self.openin(tree, ["default", "set", "com.adobe.pdf", "evince-previewer.desktop"])
        #expect(set.status == 0, "\(set.err)")
        #expect(try Self.ids(try Self.openin(tree, ["--json", tree.report]).out).first == "evince-previewer.desktop")
        let refused = try Self.openin(tree, ["default", "set", "com.adobe.pdf", "eog.desktop"])
        #expect(refused.status == 2)
        #expect(refused.err.contains("eog.desktop cannot open com.adobe.pdf (application/pdf)"))
        #expect(try Self.openin(tree, ["default", "set", "com.adobe.pdf", "nothing.desktop"]).err.contains("no desktop file nothing.desktop"))
    }

    /// Choosing a desktop app starts it as GIO would, with the document's path; a Hidden or
    /// missing app is refused with the reason.
    @Test func toStartsTheDesktopApp() throws {
        let tree = try Self.tree()
        let record = tree.root.path + "/started"
        try tree.write("#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(record).tmp' && mv '\(record).tmp' '\(record)'\n", to: "bin/viewer")
        chmod(tree.root.path + "/bin/viewer", 0o755)
        try tree.write("[Desktop Entry]\nType=Application\nName=Viewer\nExec=\(tree.root.path)/bin/viewer --open %U\nMimeType=application/pdf;\n", to: "home/applications/viewer.desktop")
        let run = try Self.openin(tree, ["--to", "viewer.desktop", tree.report])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("started Viewer (viewer.desktop): \(tree.root.path)/bin/viewer --open \(tree.report)"))
        var text = ""
        #expect(eventually { text = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""; return !text.isEmpty })
        #expect(text == "--open\n\(tree.report)\n")
        try tree.write("[Desktop Entry]\nType=Application\nName=Gone\nHidden=true\nExec=true\nMimeType=application/pdf;\n", to: "home/applications/evince.desktop")
        let hidden = try Self.openin(tree, ["--to", "evince.desktop", tree.report])
        #expect(hidden.status == 2)
        #expect(hidden.err.contains("Hidden=true"))
    }
}
