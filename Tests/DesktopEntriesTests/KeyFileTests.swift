import Foundation
import Testing
@testable import DesktopEntries

/// The key-file parser on the specification's edge cases, and against GLib's GKeyFile on GLib's
/// own fixtures and on each edge case.
@Suite struct KeyFileTests {
    func parse(_ text: String) throws -> KeyFile { try KeyFile(bytes: Array(text.utf8), path: "t.desktop") }

    @Test func escapesListsAndLocales() throws {
        let file = try parse("""
            # a comment
              [Desktop Entry]
            Name=Plain
            Name[de_DE@euro]=Euro
            Name[de_DE]=Deutsch
            Name[de]=Deutsch kurz
            Name[sr@latin]=Latinica
            Comment = spaced\\svalue\\n\\t\\r\\\\end\u{20}
            MimeType=a/b;c\\;d;e/f;
            Empty=
            Exec=x\\$y
            Bool=true\u{20}\u{20}
            """)
        let group = try #require(file.group("Desktop Entry"))
        #expect(try group.entry("Comment")?.string(in: nil) == "spaced value\n\t\r\\end ")
        #expect(try group.entry("MimeType")?.list(in: nil) == ["a/b", "c;d", "e/f"])
        #expect(try group.entry("Empty")?.list(in: nil) == [])
        #expect(try group.entry("Bool")?.boolean(in: nil) == true)
        // As GLib: kept as written (the shell quoting then reads \$ as $), reported as a problem.
        #expect(try group.entry("Exec")?.string(in: "t.desktop") == "x\\$y")
        #expect(group.entry("Exec")?.problems(in: "t.desktop").map(\.description) == ["t.desktop:11: invalid escape sequence \\$"])
        #expect(throws: KeyFileError.self) { try group.entry("Exec")?.list(in: "t.desktop") }
        #expect(group.localizedString("Name", locales: LocaleNames.variants(of: "de_DE.UTF-8@euro"), path: nil) == "Euro")
        #expect(group.localizedString("Name", locales: LocaleNames.variants(of: "de_AT.UTF-8"), path: nil) == "Deutsch kurz")
        #expect(group.localizedString("Name", locales: LocaleNames.variants(of: "sr_RS@latin"), path: nil) == "Latinica")
        #expect(group.localizedString("Name", locales: LocaleNames.variants(of: "fr_FR"), path: nil) == "Plain")
        #expect(LocaleNames.variants(of: "de_DE.UTF-8@euro") == ["de_DE@euro", "de_DE", "de@euro", "de"])
        #expect(LocaleNames.current { ["LANG": "C", "LANGUAGE": "fr"][$0] } == [])
        #expect(LocaleNames.current { ["LC_ALL": "", "LANG": "pt_BR.UTF-8", "LANGUAGE": "eo:de"][$0] } == ["eo", "de", "pt_BR", "pt"])
    }

    @Test func duplicatesAndGroups() throws {
        let file = try parse("[A]\nk=1\n[B]\nk=2\n[A]\nk=3\nj=4\nk=5\n")
        #expect(file.groups.map(\.name) == ["A", "B"])
        #expect(try file.group("A")?.entry("k")?.string(in: nil) == "5")
        #expect(file.group("A")?.keys == ["k", "j"])
        #expect(try parse("[A]\r\nk=v\r\n").group("A")?.entry("k")?.string(in: nil) == "v")
        #expect(try parse("[A]  \t\nk=v").group("A")?.entry("k")?.string(in: nil) == "v")
    }

    @Test func errorsSayWhereAndWhat() {
        func error(_ text: String) -> String {
            do { _ = try KeyFile(bytes: Array(text.utf8), path: "x.desktop"); return "no error" } catch { return error.description }
        }
        #expect(error("k=v\n") == "x.desktop:1: a key before the first [group]")
        #expect(error("[A]\nno equals sign\n") == "x.desktop:2: not a key=value pair, a [group] or a # comment")
        #expect(error("[A]\n\n# c\n[]\n") == "x.desktop:4: invalid group name []")
        #expect(error("[A]\nbad]key=v\n") == "x.desktop:2: invalid key name \"bad]key\"")
        #expect(error("[A]\n=v\n").hasPrefix("x.desktop:2: invalid key name"))
        #expect(error("[A]\nEncoding=Latin-1\n").contains("Encoding=Latin-1 is not supported"))
        #expect(error("\u{FEFF}[A]\n").hasPrefix("x.desktop:1: starts with a byte-order mark"))
        #expect(throws: KeyFileError.self) { try KeyFile(bytes: [0x5B, 0xFF, 0x5D, 0x0A], path: nil) }
        let file = try? KeyFile(bytes: Array("[A]\nk=".utf8) + [0xC3, 0x28] + [0x0A], path: "u.desktop")
        do { _ = try file?.group("A")?.entry("k")?.string(in: "u.desktop"); Issue.record("invalid UTF-8 accepted") } catch {
            #expect(error.description == "u.desktop:2: not UTF-8")
        }
        #expect(error(String(repeating: "#", count: KeyFile.maximumSize + 1)).contains("limit"))
    }

    /// Every fixture and edge case read by GLib and by us: valid or not, and the values of Name
    /// (localized), Exec, Comment, MimeType (a list) and NoDisplay (a boolean).
    @Test func agreesWithGKeyFile() throws {
        let peer = try #require(DesktopFixtures.gioPeer, "gcc and libglib2.0-dev are needed for the GIO peer")
        var files = FileManager.default.enumerator(atPath: DesktopFixtures.corpus.path)!.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".desktop") }.map { DesktopFixtures.corpus.path + "/" + $0 }
        let dir = try TestHelpersShim.temporary()
        let cases: [String] = [
            "[Desktop Entry]\nName=a\\sb\nExec=x \"a\\\\$b\" %f\nComment=tab\\there\nMimeType=a/b;c\\;d;;e/f\nNoDisplay=1\n",
            "[Desktop Entry]\nExec=x\\$y\nComment=bad\\q\nMimeType=a/b\\\nNoDisplay=yes\n",
            "\u{FEFF}[Desktop Entry]\nName=bom\n",
            "# lead\n\n  [Desktop Entry]  \n  Name =  spaced  \nNoDisplay=false  \n",
            "[Desktop Entry]\nName=first\nName=second\n[Desktop Entry]\nName=third\n",
            "[Desktop Entry]\nName[de]=x\nName=y\nMimeType=\n",
            "[Desktop Entry]\r\nName=crlf\r\nExec=a b\r\n",
            "Name=outside\n[Desktop Entry]\n",
            "[Desktop Entry]\nName\n",
            "[Desktop Entry]\nName=\u{00e9}t\u{00e9}\nComment=\\\n",
        ]
        for (i, text) in cases.enumerated() {
            let path = dir + "/case\(i).desktop"
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            files.append(path)
        }
        let invalidUTF8 = dir + "/latin1.desktop"
        try Data(Array("[Desktop Entry]\nName=caf".utf8) + [0xE9] + Array("\nExec=x\n".utf8)).write(to: URL(fileURLWithPath: invalidUTF8))
        files.append(invalidUTF8)
        for path in files {
            let gio = try DesktopFixtures.run([peer, "keyfile", path], environment: ["LANG": "C", "PATH": "/usr/bin:/bin"]).out
            #expect(Self.describe(path) == gio, "\(path)")
        }
    }

    /// What the GIO peer prints for `path`, computed by us.
    static func describe(_ path: String) -> String {
        guard let file = try? KeyFile(contentsOf: path) else { return "invalid\n" }
        let group = file.group("Desktop Entry")
        func show(_ value: String?) -> String { value ?? "(null)" }
        var out = "Name " + show(group?.localizedString("Name", locales: [], path: path)) + "\n"
        out += "Exec " + show(try? group?.entry("Exec")?.string(in: path)) + "\n"
        out += "Comment " + show(try? group?.entry("Comment")?.string(in: path)) + "\n"
        if let list = try? group?.entry("MimeType")?.list(in: path) { out += "MimeType" + list.map { " [\($0)]" }.joined() + "\n" } else { out += "MimeType (null)\n" }
        if let entry = group?.entry("NoDisplay") {
            out += "NoDisplay " + ((try? entry.boolean(in: path)).map { $0 ? "true" : "false" } ?? "(error)") + "\n"
        } else {
            out += "NoDisplay (error)\n"
        }
        return out
    }
}

enum TestHelpersShim {
    static func temporary() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("keyfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.path
    }
}
