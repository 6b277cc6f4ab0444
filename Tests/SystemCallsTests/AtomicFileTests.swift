import Foundation
import SystemCalls
import Testing

/// Whole files replaced atomically (``SystemCalls/AtomicFile``) on a real file system.
@Suite struct AtomicFileTests {
    @Test func aReplacementIsWholeAndLeavesNoTemporaryFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("file").path
        try AtomicFile.write(Array("first".utf8), to: path)
        try AtomicFile.write(Array("second, longer".utf8), to: path, permissions: 0o600)
        #expect(try FileSystem.read(path) == Array("second, longer".utf8))
        #expect(FileSystem.status(path)?.size == 14)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["file"])
        // A folder that does not exist: an error naming the call, and nothing is created.
        let missing = folder.appendingPathComponent("no/such/file").path
        #expect(throws: SystemCallError.self) { try AtomicFile.write([1], to: missing) }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("no").path))
    }
}
