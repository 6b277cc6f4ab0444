import Foundation
import TestHelpers
@testable import DesktopEntries

/// Real XDG trees for the tests: GLib's own desktop-file fixtures (../shared/corpus/desktop-files),
/// and GIO itself (a small C peer built with gcc against gio-2.0) to compare with.
enum DesktopFixtures {
    static let corpus = TestSupport.shared.appendingPathComponent("corpus/desktop-files")
    static let fixtures = TestSupport.packageRoot.appendingPathComponent("Tests/DesktopEntriesTests/Fixtures")

    /// A process's result.
    struct Output { var status: Int32; var out: String; var err: String }

    /// Runs `argv` with `environment` (replacing ours entirely) and waits.
    @discardableResult
    static func run(_ argv: [String], environment: [String: String]? = nil) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: argv[0])
        process.arguments = Array(argv.dropFirst())
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self), err: String(decoding: errData, as: UTF8.self))
    }

    /// The GIO peer, built once per test process; `nil` when gcc or gio-2.0 is missing.
    static let gioPeer: String? = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("desktop-gio-peer-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let binary = dir.appendingPathComponent("gio_peer").path
        let build = try? run(["/bin/sh", "-c", "gcc -O1 -o '\(binary)' '\(fixtures.path)/gio_peer.c' $(pkg-config --cflags --libs gio-2.0 gio-unix-2.0)"])
        return build?.status == 0 ? binary : nil
    }()

    /// A scratch XDG tree: `home` (XDG_DATA_HOME, a copy of the corpus's home/), `usr` (one
    /// XDG_DATA_DIRS entry: the corpus's usr/ and this machine's shared MIME database), `config`
    /// (XDG_CONFIG_HOME), `etc` (XDG_CONFIG_DIRS), `cache`.
    struct Tree {
        var root: URL
        var desktops: [String] = []
        var home: String { root.appendingPathComponent("home").path }
        var usr: String { root.appendingPathComponent("usr").path }
        var config: String { root.appendingPathComponent("config").path }
        var etc: String { root.appendingPathComponent("etc").path }
        var cache: String { root.appendingPathComponent("cache").path }

        var locations: DesktopLocations {
            DesktopLocations(configHome: config, configDirs: [etc], dataHome: home, dataDirs: [usr], currentDesktops: desktops, locales: [])
        }

        /// The environment GIO gets for the same tree (its mimeinfo.cache is written first: GIO
        /// sees no MimeType= claim without one; we never read it).
        var gioEnvironment: [String: String] {
            ["HOME": root.path, "PATH": "/usr/bin:/bin", "XDG_DATA_HOME": home, "XDG_DATA_DIRS": usr, "XDG_CONFIG_HOME": config,
             "XDG_CONFIG_DIRS": etc, "XDG_CURRENT_DESKTOP": desktops.joined(separator: ":"), "XDG_CACHE_HOME": cache, "LANG": "C"]
        }

        func write(_ text: String, to relative: String) throws {
            let url = root.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        func updateGIOCaches() throws {
            for dir in [home + "/applications", usr + "/applications"] {
                try? FileManager.default.removeItem(atPath: dir + "/mimeinfo.cache")
                try run(["/usr/bin/update-desktop-database", dir])
            }
        }

        func apps() -> DesktopApps { DesktopApps(locations: locations, cacheDirectory: cache, findProgram: Self.find) }

        @Sendable static func find(_ program: String) -> String? {
            if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) ? program : nil }
            for dir in ["/usr/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: dir + "/" + program) { return dir + "/" + program }
            return nil
        }

        /// GIO's default and list for each type.
        func gio(_ types: [String]) throws -> [String: (default: String, all: [String])] {
            try updateGIOCaches()
            return try DesktopFixtures.gio(types, environment: gioEnvironment)
        }
    }

    /// GIO's default and list for each type, as the peer answers in `environment` (empty when
    /// the peer could not be built).
    static func gio(_ types: [String], environment: [String: String]) throws -> [String: (default: String, all: [String])] {
        guard let peer = gioPeer else { return [:] }
        let output = try run([peer, "types"] + types, environment: environment)
        var result: [String: (String, [String])] = [:]
        var current = ""
        for line in output.out.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case "type": current = parts[1]; result[current] = ("(none)", [])
            case "default": result[current]!.0 = parts[1]
            case "all": result[current]!.1.append(parts[1])
            default: break
            }
        }
        return result
    }

    /// A fresh tree from the corpus.
    static func tree() throws -> Tree {
        let root = try TestSupport.temporaryDirectory()
        let fm = FileManager.default
        try fm.copyItem(at: corpus.appendingPathComponent("home"), to: root.appendingPathComponent("home"))
        try fm.copyItem(at: corpus.appendingPathComponent("usr"), to: root.appendingPathComponent("usr"))
        for path in [root.appendingPathComponent("home").path, root.appendingPathComponent("usr").path] {
            try run(["/bin/chmod", "-R", "u+w", path])
        }
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("usr/mime").path, withDestinationPath: "/usr/share/mime")
        for dir in ["config", "etc", "cache"] { try fm.createDirectory(at: root.appendingPathComponent(dir), withIntermediateDirectories: true) }
        return Tree(root: root)
    }

    /// Every MIME type the corpus's entries claim, and a few more (parents, aliases, unknown).
    static func corpusTypes() throws -> [String] {
        var types = Set(["text/x-csrc", "text/x-chdr", "application/octet-stream", "image/x-nothing", "application/x-pdf", "text/markdown",
                         "application/x-shellscript", "image/svg+xml"])
        let enumerator = FileManager.default.enumerator(atPath: corpus.path)
        while let name = enumerator?.nextObject() as? String {
            guard name.hasSuffix(".desktop"), let text = try? String(contentsOfFile: corpus.path + "/" + name, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") where line.hasPrefix("MimeType=") {
                for mime in line.dropFirst(9).split(separator: ";") { types.insert(String(mime)) }
            }
        }
        return types.sorted()
    }
}
