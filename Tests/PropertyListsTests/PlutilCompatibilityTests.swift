import Foundation
import PropertyLists
import TestHelpers
import Testing

/// Our `plutil` against the toolchain's Foundation-based `plutil` on the real Info.plists:
/// the same bytes out and the same exit codes.
@Suite struct PlutilCompatibilityTests {
    let files = TestSupport.corpusFiles()

    /// Both tools on `arguments`, each run off the cooperative pool (hundreds of runs per test).
    func both(_ arguments: [String]) async throws -> (ours: TestSupport.Run, theirs: TestSupport.Run)? {
        guard let peer = TestSupport.toolchainPlutil else { return nil }
        return (try await TestSupport.runOffPool(TestSupport.plutil, arguments), try await TestSupport.runOffPool(peer, arguments))
    }

    @Test func lintConvertAndExtractMatchTheToolchain() async throws {
        try #require(TestSupport.toolchainPlutil != nil, "the toolchain's plutil is the peer")
        for file in files.map(\.path) {
            for arguments in [["-lint", file], ["-convert", "xml1", "-o", "-", file],
                              ["-convert", "json", "-r", "-o", "-", file],
                              ["-extract", "CFBundleIdentifier", "raw", "-o", "-", file],
                              ["-extract", "CFBundleDocumentTypes", "xml1", "-o", "-", file],
                              ["-type", "CFBundleDocumentTypes", file],
                              ["-p", file],
                              ["-extract", "NoSuchKey", "raw", file]] {
                let (ours, theirs) = try #require(try await both(arguments))
                #expect(ours.status == theirs.status, "\(arguments)")
                // One deliberate difference: JSON keeps an integral real's fraction (`600.0`) so that
                // it reads back as a real; Foundation writes `600`, which reads back as an integer.
                let out = arguments.contains("json") ? Self.withoutIntegralFractions(ours.out) : ours.out
                #expect(out == theirs.out, "\(arguments): \(firstDifference(out, theirs.out))")
            }
        }
    }

    /// JSON text with `600.0` spelled `600`, as Foundation writes integral reals.
    static func withoutIntegralFractions(_ json: String) -> String {
        let pattern = try! NSRegularExpression(pattern: #"(?<=[:\[, ]-?[0-9]{1,17})\.0(?=[,\n\]}])"#)
        return pattern.stringByReplacingMatches(in: json, range: NSRange(json.startIndex..., in: json), withTemplate: "")
    }

    func firstDifference(_ a: String, _ b: String) -> String {
        let x = a.split(separator: "\n", omittingEmptySubsequences: false)
        let y = b.split(separator: "\n", omittingEmptySubsequences: false)
        for i in 0..<max(x.count, y.count) where i >= x.count || i >= y.count || x[i] != y[i] {
            return "line \(i + 1): ours \(i < x.count ? String(x[i]) : "(end)") | theirs \(i < y.count ? String(y[i]) : "(end)")"
        }
        return "same text"
    }

    @Test func compactJSONMatchesTheToolchainAsValues() async throws {
        for file in files.map(\.path) {
            let (ours, theirs) = try #require(try await both(["-convert", "json", "-o", "-", file]))
            #expect(ours.status == theirs.status)
            let a = try JSONSerialization.jsonObject(with: ours.stdout) as? NSDictionary
            let b = try JSONSerialization.jsonObject(with: theirs.stdout) as? NSDictionary
            #expect(a == b, "\(file)")
        }
    }

    @Test func lintReportsEachFileAndFailsIfAnyFails() throws {
        // A clone without ../shared beside it has no corpus: a failure that says so, not a crash.
        let good = try #require(files.first, "no Info.plist in \(TestSupport.infoPlistCorpus.path)").path
        let bad = TestSupport.badCorpus.appendingPathComponent("x04-mismatched-tags.plist").path
        let run = try TestSupport.run(TestSupport.plutil, ["-lint", good, bad])
        #expect(run.status == 1)
        #expect(run.out == "\(good): OK\n")
        #expect(run.stderr.hasPrefix("\(bad): line 4, column "))
        let silent = try TestSupport.run(TestSupport.plutil, ["-lint", "-s", good])
        #expect(silent.status == 0 && silent.out.isEmpty)
        let missing = try TestSupport.run(TestSupport.plutil, ["-lint", "/nonexistent.plist"])
        #expect(missing.status == 1 && missing.stderr.contains("No such file"))
    }

    @Test func editsWriteBackInTheSameFormat() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("Info.plist").path
        try Data(BinaryPropertyListWriter().write(.dictionary(["CFBundleDocumentTypes": .array([.dictionary([:])])]))).write(to: URL(fileURLWithPath: file))
        let p = TestSupport.plutil
        #expect(try TestSupport.run(p, ["-insert", "CFBundleDocumentTypes.0.LSHandlerRank", "-string", "Owner", file]).status == 0)
        #expect(try TestSupport.run(p, ["-insert", "CFBundleDocumentTypes.0.LSHandlerRank", "-string", "Owner", file]).status == 1)
        #expect(try TestSupport.run(p, ["-replace", "Count", "-integer", "0x10", file]).status == 0)
        #expect(try TestSupport.run(p, ["-insert", "CFBundleDocumentTypes", "-json", #"{"CFBundleTypeRole":"Viewer"}"#, "-append", file]).status == 0)
        #expect(try TestSupport.run(p, ["-remove", "Nope", file]).status == 1)
        let document = try TestSupport.read(URL(fileURLWithPath: file))
        #expect(document.format == .binary)
        #expect(document.value["Count"] == .integer(16))
        #expect(document.value.value(at: PropertyListPath(dotted: "CFBundleDocumentTypes.1.CFBundleTypeRole")) == .string("Viewer"))
        #expect(try TestSupport.run(p, ["-extract", "CFBundleDocumentTypes.0.LSHandlerRank", "raw", "-o", "-", file]).out == "Owner\n")
        #expect(try TestSupport.run(p, ["-type", "Count", "-expect", "string", file]).status == 1)
        let printed = try TestSupport.run(p, ["-p", file]).out
        #expect(printed.contains("\"LSHandlerRank\" => \"Owner\""))
    }

    @Test func declaredEncodingsAreHonouredAndBadBytesReportedOnce() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let header = Array(#"<?xml version="1.0" encoding="Shift_JIS"?>"#.utf8) + [0x0A] + Array("<plist><string>".utf8)
        let good = dir.appendingPathComponent("good.plist"), bad = dir.appendingPathComponent("bad.plist")
        try Data(header + [0x82, 0xA0] + Array("</string></plist>".utf8)).write(to: good)
        try Data(header + [0x8C, 0xFF, 0xFF] + Array("</string></plist>".utf8)).write(to: bad)
        #expect(try TestSupport.read(good).value == .string("あ"))
        let run = try TestSupport.run(TestSupport.plutil, ["-lint", bad.path])
        #expect(run.status == 1)
        // One line, from us, with a location: libxml2 prints nothing of its own.
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.stderr.contains("line 1, column") && run.stderr.contains("input conversion failed"))
    }

    @Test func usageErrorsExitOne() throws {
        #expect(try TestSupport.run(TestSupport.plutil, ["-bogus", "x"]).status == 1)
        #expect(try TestSupport.run(TestSupport.plutil, []).status == 1)
        let help = try TestSupport.run(TestSupport.plutil, ["-help"])
        #expect(help.status == 0 && help.out.contains("-convert FORMAT"))
        #expect(try TestSupport.run(TestSupport.plutil, ["--version"]).out.hasPrefix("plutil "))
        let two = try TestSupport.run(TestSupport.plutil, ["-lint", "-p", "x"])
        #expect(two.status == 1 && two.stderr.contains("-p and -lint exclude each other"))
    }
}
