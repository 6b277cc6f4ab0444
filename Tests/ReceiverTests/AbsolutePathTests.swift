import Foundation
import SystemCalls
import Testing

/// `CurrentProcess.absolutePath`, which the receiver's working folder and every query's document
/// path go through: made absolute against the working folder, repeated slashes and `.` left out,
/// `..` and every other byte kept.
@Suite struct AbsolutePathTests {
    @Test func componentsAreKeptExactly() throws {
        let cwd = FileManager.default.currentDirectoryPath
        let cases: [(String, String)] = [
            ("/", "/"), ("//", "/"), ("/./", "/"), ("/.", "/"), ("/a//b/./c/", "/a/b/c"), ("/a/../b", "/a/../b"),
            ("/..", "/.."), ("/.hidden/..x/...", "/.hidden/..x/..."), ("/caf\u{E9}/e\u{301}", "/caf\u{E9}/e\u{301}"),
            ("x", cwd == "/" ? "/x" : cwd + "/x"), ("./x/", cwd == "/" ? "/x" : cwd + "/x"), ("", cwd), (".", cwd),
        ]
        for (path, expected) in cases {
            let absolute = try CurrentProcess.absolutePath(path)
            #expect(Array(absolute.utf8) == Array(expected.utf8), "\(path)")
        }
    }
}
