import Foundation
import SystemCalls
import Testing

/// `Environment.findExecutable` walks a `PATH` as a shell does, on real files. (The search path is
/// passed in: the tests of every module share one process, where setting PATH would reach them all.)
@Suite struct FindExecutableTests {
    @Test func findsTheFirstExecutableSkippingEmptyEntriesPlainFilesAndOverlongFolders() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("find-executable-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a"), b = dir.appendingPathComponent("b"), c = dir.appendingPathComponent("c d")
        for folder in [a, b, c] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        // In a: a plain file of that name, not executable; in b and "c d": executables.
        #expect(FileManager.default.createFile(atPath: a.appendingPathComponent("tool").path, contents: Data("x".utf8), attributes: [.posixPermissions: 0o644]))
        for folder in [b, c] {
            #expect(FileManager.default.createFile(atPath: folder.appendingPathComponent("tool").path, contents: Data("#!/bin/sh\n".utf8),
                                                   attributes: [.posixPermissions: 0o755]))
        }
        func find(_ path: String) -> String? { Environment.findExecutable("tool", inPath: path) }
        #expect(find("::\(a.path):\(b.path):\(c.path)") == b.path + "/tool")
        #expect(find("\(a.path)::\(c.path):") == c.path + "/tool")
        #expect(find(a.path) == nil)
        #expect(find("") == nil)
        #expect(find(":") == nil)
        // A folder longer than PATH_MAX is skipped, and the search goes on after it.
        #expect(find("/" + String(repeating: "x", count: 5000) + ":" + b.path) == b.path + "/tool")
        #expect(find(b.path + ":" + "/" + String(repeating: "y", count: 5000)) == b.path + "/tool")
        // A program named with a slash is taken as it is.
        #expect(Environment.findExecutable(b.path + "/tool", inPath: "") == b.path + "/tool")
        #expect(Environment.findExecutable(a.path + "/tool", inPath: b.path) == nil)
        // The real PATH finds a program every machine has.
        #expect(Environment.findExecutable("sh") != nil)
    }
}
