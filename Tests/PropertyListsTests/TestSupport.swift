import Foundation
import PropertyLists

/// Paths and process helpers shared by the tests.
enum TestSupport {
    /// The package root, from this file's location.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared` beside the project root.
    static let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")

    static let infoPlistCorpus = shared.appendingPathComponent("corpus/infoplist")
    static let badCorpus = shared.appendingPathComponent("corpus/bad-plists")

    /// The folder the test bundle was built into, which also holds the built executables.
    static let productsDirectory: URL = {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        while dir.lastPathComponent.hasSuffix(".xctest") { dir = dir.deletingLastPathComponent() }
        return dir
    }()

    static var plutil: String { productsDirectory.appendingPathComponent("plutil").path }

    /// The Foundation-based plutil that ships with the Swift toolchain: the peer we match.
    static let toolchainPlutil: String? = {
        for candidate in ["/opt/swift/usr/bin/plutil", "/usr/bin/plutil"] where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        return nil
    }()

    static func corpusFiles() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: infoPlistCorpus.path)) ?? []
        return names.filter { $0.hasSuffix(".plist") }.sorted().map { infoPlistCorpus.appendingPathComponent($0) }
    }

    struct Run {
        var status: Int32
        var stdout: Data
        var stderr: String
        var out: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs a program to completion and captures its output.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // Read both pipes concurrently so a large output cannot dead-lock the child.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plist-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func read(_ url: URL) throws -> PropertyListDocument {
        try PropertyListReader.read(Array(try Data(contentsOf: url)))
    }
}

/// A canonical, type-tagged text of a property list that Python's plistlib can produce too, so
/// the two readers' trees can be compared exactly (reals by bit pattern, strings by UTF-8 bytes).
enum CanonicalText {
    static func of(_ value: PropertyList) -> String {
        switch value {
        case .string(let s): return "s:" + hex(Array(s.utf8))
        case .integer(let i): return "i:\(i)"
        case .unsignedInteger(let u): return "i:\(u)"
        case .real(let r): return "r:\(r.bitPattern)"
        case .bool(let b): return b ? "T" : "F"
        case .date(let d): return "t:\(Int64(d.secondsSinceReferenceDate))"
        case .data(let d): return "b:" + hex(d)
        case .uid(let u): return "u:\(u)"
        case .array(let a): return "[" + a.map(of).joined(separator: ",") + "]"
        case .dictionary(let d):
            let entries = d.map { (hex(Array($0.key.utf8)), of($0.value)) }.sorted { $0.0 < $1.0 }
            return "{" + entries.map { "\($0.0)=\($0.1)" }.joined(separator: ",") + "}"
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// The Python program that prints the same canonical text for each file named on its command line.
    static let python = #"""
import plistlib, struct, sys, datetime
def h(b): return b.hex()
def c(v):
    if isinstance(v, bool): return "T" if v else "F"
    if isinstance(v, int): return "i:%d" % v
    if isinstance(v, float): return "r:%d" % struct.unpack("<Q", struct.pack("<d", v))[0]
    if isinstance(v, str): return "s:" + h(v.encode("utf-8"))
    if isinstance(v, bytes): return "b:" + h(v)
    if isinstance(v, plistlib.UID): return "u:%d" % v.data
    if isinstance(v, datetime.datetime):
        return "t:%d" % int((v - datetime.datetime(2001, 1, 1)).total_seconds())
    if isinstance(v, list): return "[" + ",".join(c(x) for x in v) + "]"
    if isinstance(v, dict):
        items = sorted((h(k.encode("utf-8")), c(x)) for k, x in v.items())
        return "{" + ",".join("%s=%s" % kv for kv in items) + "}"
    raise TypeError(type(v))
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        print(c(plistlib.load(f)))
"""#

    /// plistlib's canonical text for each file, in order.
    static func pythonReading(_ files: [URL]) throws -> [String] {
        let run = try TestSupport.run("/usr/bin/env", ["python3", "-c", python] + files.map(\.path))
        guard run.status == 0 else { throw PythonFailure(message: run.stderr) }
        return run.out.split(separator: "\n").map(String.init)
    }

    struct PythonFailure: Error { var message: String }
}
