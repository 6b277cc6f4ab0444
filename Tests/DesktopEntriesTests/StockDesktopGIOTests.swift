import Foundation
import Testing
import TestHelpers
@testable import DesktopEntries

/// This machine's own desktop, with real Debian packages installed (scripts/install-dependencies
/// installs mupdf, zathura, imagemagick, feh, l3afpad and xterm): for every MIME type an installed
/// `.desktop` file claims, aliases included, the apps in GIO's order and GIO's default must be
/// GIO's own, in the library and through `openin --gio --list --json` as a whole process. The
/// packages' `mimeinfo.cache` is what GIO reads; we read the desktop files themselves. ImageMagick
/// claims PDF only by the alias `image/pdf`: GIO lists it after mupdf and zathura.
@Suite(.serialized) struct StockDesktopGIOTests {
    /// One desktop file of each package the test is about.
    static let packageFiles = ["mupdf.desktop", "org.pwmt.zathura-pdf-poppler.desktop", "display-im6.q16.desktop", "feh.desktop",
                               "l3afpad.desktop", "debian-xterm.desktop"]
    static let applications = "/usr/share/applications"

    /// Every type the installed desktop files claim, as they write it.
    static func claimedTypes() throws -> [String] {
        var types: Set<String> = []
        let enumerator = FileManager.default.enumerator(atPath: applications)
        while let name = enumerator?.nextObject() as? String {
            guard name.hasSuffix(".desktop"), let text = try? String(contentsOfFile: applications + "/" + name, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") where line.hasPrefix("MimeType=") {
                for type in line.dropFirst("MimeType=".count).split(separator: ";") where !type.isEmpty { types.insert(String(type)) }
            }
        }
        return types.sorted()
    }

    /// The shared MIME database's `NAME PATTERN` pairs of one file (`aliases`, and `globs2`'s
    /// simple `*.ext` patterns, highest weight first).
    static func mimeTable(_ file: String) throws -> [(String, String)] {
        let text = try String(contentsOfFile: "/usr/share/mime/" + file, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            if line.hasPrefix("#") { return nil }
            if file == "aliases" {
                let parts = line.split(separator: " ")
                return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
            }
            let parts = line.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count >= 3, parts[2].hasPrefix("*."), parts[2].dropFirst(2).allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
            return (String(parts[1]), String(parts[2].dropFirst(2)))
        }
    }

    @Test func everyClaimedTypeListsAndDefaultsAsGIODoes() throws {
        for file in Self.packageFiles {
            try #require(FileManager.default.fileExists(atPath: Self.applications + "/" + file), "\(file) is not installed (scripts/install-dependencies)")
        }
        try #require(DesktopFixtures.gioPeer != nil, "gcc and libglib2.0-dev are needed for the GIO peer")
        let root = try TestSupport.temporaryDirectory().path
        for dir in ["data", "config", "cache"] { try FileManager.default.createDirectory(atPath: root + "/" + dir, withIntermediateDirectories: true) }
        let environment = ["HOME": root, "PATH": "/usr/bin:/bin", "LANG": "C", "XDG_DATA_HOME": root + "/data", "XDG_CONFIG_HOME": root + "/config",
                           "XDG_CACHE_HOME": root + "/cache", "XDG_DATA_DIRS": "/usr/local/share:/usr/share", "XDG_CONFIG_DIRS": "/etc/xdg",
                           "XDG_CURRENT_DESKTOP": ""]
        let locations = DesktopLocations(configHome: root + "/config", configDirs: ["/etc/xdg"], dataHome: root + "/data",
                                         dataDirs: ["/usr/local/share", "/usr/share"], currentDesktops: [], locales: [])
        let apps = DesktopApps(locations: locations, cacheDirectory: root + "/cache", findProgram: DesktopFixtures.Tree.find)
        let types = try Self.claimedTypes()
        var gio = try DesktopFixtures.gio(types, environment: environment)

        // The library, for every claimed type (ImageMagick's image/avs and the like have no file
        // name pattern in the shared MIME database: no file is ever typed as them).
        for type in types {
            let expected = try #require(gio[type], "GIO gave nothing for \(type)")
            #expect(apps.applications(for: type).map(\.app.id) == expected.all, "\(type): all-for-type")
            #expect((apps.gioDefault(for: type)?.app.id ?? "(none)") == expected.default, "\(type): default")
        }
        #expect(gio["application/pdf"]?.all.prefix(3) == ["mupdf.desktop", "org.pwmt.zathura-pdf-poppler.desktop", "display-im6.q16.desktop"],
                "\(gio["application/pdf"]?.all ?? [])")

        // The tool, for every claimed type a file can be named for: its desktop rows (GIO's
        // default first, then GIO's list) for the MIME type it looked the document up by.
        let aliases = Dictionary(try Self.mimeTable("aliases"), uniquingKeysWith: { a, _ in a })
        let patterns = Dictionary(try Self.mimeTable("globs2"), uniquingKeysWith: { a, _ in a })
        var compared = 0
        for type in types {
            guard let ext = patterns[aliases[type] ?? type] else { continue }
            let file = root + "/sample." + ext
            try Data("x".utf8).write(to: URL(fileURLWithPath: file))
            let run = try DesktopFixtures.run([TestSupport.openin, "--gio", "--list", "--json", file],
                                              environment: environment.merging(["DOCUMENT_INTERCHANGE_AUTOWATCH": "off"]) { $1 })
            #expect(run.status == 0 || run.status == 1, "\(type): \(run.err)")
            let sheet = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any], "\(type): \(run.out)")
            let documents = try #require(sheet["documents"] as? [[String: Any]])
            let mime = try #require(documents.first?["mimeType"] as? String)
            if gio[mime] == nil { gio.merge(try DesktopFixtures.gio([mime], environment: environment)) { a, _ in a } }
            let expected = try #require(gio[mime])
            let rows = (sheet["apps"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "desktop" }.compactMap { $0["bundleIdentifier"] as? String }
            let gioRows = expected.default == "(none)" ? expected.all : [expected.default] + expected.all.filter { $0 != expected.default }
            #expect(rows == gioRows, "\(type) (\(file) looked up as \(mime))")
            compared += 1
        }
        #expect(compared >= 30, "only \(compared) of \(types.count) types could be named by a file")
    }

    /// Our own order puts the apps that name PDF itself first, hidden helpers (mupdf and zathura
    /// are NoDisplay) included, and ImageMagick's alias claim last; the explanation quotes the
    /// file as it is and calls nothing the user's default when nothing was configured.
    @Test func anAliasClaimComesLastAndIsExplainedAsWritten() throws {
        try #require(FileManager.default.fileExists(atPath: Self.applications + "/display-im6.q16.desktop"), "imagemagick is not installed (scripts/install-dependencies)")
        let root = try TestSupport.temporaryDirectory().path
        let environment = ["HOME": root, "PATH": "/usr/bin:/bin", "XDG_DATA_HOME": root + "/data", "XDG_CONFIG_HOME": root + "/config",
                           "XDG_CACHE_HOME": root + "/cache", "XDG_DATA_DIRS": "/usr/local/share:/usr/share", "XDG_CONFIG_DIRS": "/etc/xdg",
                           "XDG_CURRENT_DESKTOP": "", "DOCUMENT_INTERCHANGE_AUTOWATCH": "off"]
        let pdf = root + "/report.pdf"
        try Data("%PDF-1.4\n%%EOF\n".utf8).write(to: URL(fileURLWithPath: pdf))
        func desktopRows(_ arguments: [String]) throws -> [String] {
            let run = try DesktopFixtures.run([TestSupport.openin] + arguments + ["--list", "--json", pdf], environment: environment)
            let sheet = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any], "\(run.err)")
            return (sheet["apps"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "desktop" }.compactMap { $0["bundleIdentifier"] as? String }
        }
        for mode in [[], ["--gio"]] {
            let rows = try desktopRows(mode)
            let magick = try #require(rows.firstIndex(of: "display-im6.q16.desktop"), "\(mode): \(rows)")
            for viewer in ["mupdf.desktop", "org.pwmt.zathura-pdf-poppler.desktop"] {
                #expect(rows.firstIndex(of: viewer).map { $0 < magick } == true, "\(mode): \(rows)")
            }
        }
        let explained = try DesktopFixtures.run([TestSupport.openin, "--gio", "--list", "--explain", pdf], environment: environment).out
        let magickFile = try String(contentsOfFile: Self.applications + "/display-im6.q16.desktop", encoding: .utf8)
        let line = try #require(magickFile.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("MimeType=") }) + 1
        #expect(explained.contains("display-im6.q16.desktop:\(line) MimeType=image/pdf: image/pdf (an alias of application/pdf)"), "\(explained)")
        #expect(!explained.contains("the user's default"), "\(explained)")
        #expect(explained.contains("GIO's default: no [Default Applications] line"), "\(explained)")
    }
}
