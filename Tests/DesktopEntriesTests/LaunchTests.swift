import Foundation
import Testing
@testable import DesktopEntries

/// Starting apps: the arguments, working folder and environment an app receives from us are
/// byte-identical to what GIO gives it for the same desktop file and documents; D-Bus activation
/// on a real session bus; sandboxed apps through a document portal.
@Suite(.serialized) struct LaunchTests {
    static let recorder = DesktopFixtures.fixtures.appendingPathComponent("record_argv.sh").path

    /// Waits for `count` records in `dir`, then returns them (working folder, desktop file,
    /// arguments), sorted.
    /// With `count` nil: waits for at least one record and then until no new one came for 0.12 s.
    static func records(_ dir: String, count: Int?) throws -> [[Data]] {
        let deadline = Date().addingTimeInterval(60)
        var names: [String] = []
        var lastChange = Date()
        while Date() < deadline {
            let now = (try? FileManager.default.contentsOfDirectory(atPath: dir))?.filter { !$0.hasSuffix(".tmp") } ?? []
            if now.count != names.count { lastChange = Date() }
            names = now
            if let count, names.count >= count { break }
            if count == nil, !names.isEmpty, Date().timeIntervalSince(lastChange) > 0.12 { break }
            usleep(20_000)
        }
        return try names.map { name in
            let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name))
            return data.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { Data($0) }
        }.sorted { $0.map { $0.base64EncodedString() }.joined(separator: ",") < $1.map { $0.base64EncodedString() }.joined(separator: ",") }
    }

    static func app(_ path: String) throws -> DesktopApp {
        let file = try KeyFile(contentsOf: path)
        let entry = DesktopEntry(id: URL(fileURLWithPath: path).lastPathComponent, path: path, file: file, locales: [])
        return DesktopApp(id: entry.id, path: path, folder: .init(path: "", isConfiguration: false, origin: ""), folderIndex: 0, entry: entry, problem: nil)
    }

    /// Exec= lines with every field code, quoting inside and outside quotes, comments and
    /// escapes; documents whose names hold spaces, quotes, `$`, `#`, `%`, a backslash, UTF-8
    /// and a byte that is not UTF-8; Terminal=true with a stand-in terminal; Path=.
    @Test func argumentsAreByteIdenticalToGIOs() throws {
        let peer = try #require(DesktopFixtures.gioPeer, "gcc and libglib2.0-dev are needed for the GIO peer")
        let dir = try TestHelpersShim.temporary()
        let bin = dir + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.recorder, toPath: bin + "/xterm")
        let docs = dir + "/docs dir"
        try FileManager.default.createDirectory(atPath: docs, withIntermediateDirectories: true)
        var names: [[UInt8]] = ["report.pdf", "it's a \"test\".pdf", "$HOME #1 100%.txt", "back\\slash.txt", "caf\u{e9} \u{65e5}\u{672c}.md"].map { Array($0.utf8) }
        names.append(Array("latin".utf8) + [0xE9] + Array(".txt".utf8))
        var paths: [[UInt8]] = []
        for name in names {
            let path = Array(docs.utf8) + [0x2F] + name
            paths.append(path)
            _ = path.withUnsafeBufferPointer { p in
                var c = Array(p) + [0]
                return c.withUnsafeMutableBufferPointer { creat(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), 0o644) }
            }
        }
        let r = Self.recorder
        let execs = [
            "\(r) %f", "\(r) %F", "\(r) %u", "\(r) %U", "\(r)", "\(r) --name %c --file %k %i %U",
            "\(r) \"in double %f\" 'in single %f'", "\"\(r)\" -x\\ y \"\\\\$dollar\" %%d %F", "\(r) a # a comment %f",
            "\(r) %d %n %D %N %m %z", "\(r) --=%f=", "sh -c 'exec \"$0\" \"$@\"' \(r) %F",
        ]
        let extras = ["", "Terminal=true\n", "Path=\(dir)\n", "X-GIO-NoFuse=true\n", "Icon=app.png\n"]
        var compared = 0
        for (e, exec) in execs.enumerated() {
            for (x, extra) in extras.enumerated() where x == 0 || e % 3 == x % 3 {
                for documents in [[paths[0]], paths, []] {
                    let desktop = dir + "/case-\(e)-\(x).desktop"
                    try Data("[Desktop Entry]\nType=Application\nName=Test App\nExec=\(exec.replacingOccurrences(of: "\\", with: "\\\\"))\n\(extra)".utf8)
                        .write(to: URL(fileURLWithPath: desktop))
                    let gioDir = dir + "/gio-\(e)-\(x)-\(documents.count)", ourDir = dir + "/ours-\(e)-\(x)-\(documents.count)"
                    for d in [gioDir, ourDir] { try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true) }
                    let path = bin + ":/usr/bin:/bin"
                    // GIO: the paths as arguments of the peer (bytes: through a small shell).
                    let quoted = documents.map { String(decoding: ShellWords.quote($0), as: UTF8.self) }.joined(separator: " ")
                    let gio = try DesktopFixtures.run(["/bin/sh", "-c", "exec '\(peer)' launch '\(desktop)' \(quoted)"],
                                                      environment: ["PATH": path, "RECORD_DIR": gioDir, "HOME": dir, "LANG": "C"])
                    setenv("RECORD_DIR", ourDir, 1)
                    let launcher = DesktopLauncher(busAddress: nil, findProgram: { program in
                        for folder in [bin, "/usr/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: folder + "/" + program) { return folder + "/" + program }
                        return nil
                    })
                    let app = try Self.app(desktop)
                    if gio.status != 0 {
                        // GIO refuses (a quote inside double quotes breaks the expanded line): so must we.
                        #expect(gio.out.hasPrefix("error"), "\(gio.out)\(gio.err)")
                        #expect(throws: DesktopLauncher.Failure.self) { try launcher.launch(app, documents: documents.map { String(decoding: $0, as: UTF8.self) }) }
                        compared += 1
                        continue
                    }
                    let result = try launcher.launch(app, documents: documents.map { String(decoding: $0, as: UTF8.self) })
                    // GIO's processes write their records in their own time (one per document
                    // for %f and %u): wait for as many as we started, then for a quiet moment in
                    // case GIO started more (a short quiet period alone ended too early under load).
                    guard case .spawned(let started) = result.method else { Issue.record("not spawned: \(result.method)"); continue }
                    _ = try Self.records(gioDir, count: started.count)
                    let expected = try Self.records(gioDir, count: nil)
                    let ours = try Self.records(ourDir, count: expected.count)
                    #expect(expected.count >= 1)
                    #expect(ours == expected, "Exec=\(exec) \(extra) with \(documents.count) documents")
                    compared += 1
                }
            }
        }
        #expect(compared > 40)
    }
}
