import Foundation
import PropertyLists
import SystemPackage
import TestHelpers
import Testing

/// The paths convention (docs/apple-api.md, "Paths"): every public path is a `String`; the entry
/// points that take swift-system's `FilePath` take a `String` too, with the same results.
@Suite struct PathConventionTests {
    @Test func stringAndFilePathReachTheSameFile() throws {
        let folder = try TestSupport.temporaryDirectory()
        let path = folder.appendingPathComponent("a b.plist").path
        let bytes = try XMLPropertyListWriter().write(.dictionary(["key": .string("value")]))
        try FileContents.write(bytes, to: path)
        #expect(try FileContents.read(FilePath(path)) == bytes)
        #expect(try FileContents.read(path) == bytes)
        #expect(try PropertyListReader.read(contentsOf: path).value == PropertyListReader.read(contentsOf: FilePath(path)).value)
        // A missing file: the same error whichever form named it.
        let missing = folder.appendingPathComponent("missing.plist").path
        var messages: [String] = []
        do { _ = try FileContents.read(missing) } catch { messages.append(error.message) }
        do { _ = try FileContents.read(FilePath(missing)) } catch { messages.append(error.message) }
        #expect(messages.count == 2 && messages[0] == messages[1] && messages[0].contains("missing.plist"), "\(messages)")
    }
}
