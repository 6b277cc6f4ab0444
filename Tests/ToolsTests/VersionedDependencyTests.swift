import Foundation
import TestHelpers
import Testing

/// The library products as another package uses them: through a tagged version, which SwiftPM
/// refuses when a library target carries an unsafe build flag ("contains unsafe build flags").
/// A path dependency is exempt from that rule, so only a tagged clone proves it.
@Suite(.serialized) struct VersionedDependencyTests {
    /// The library products Package.swift declares.
    static func libraryProducts() throws -> [String] {
        let manifest = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"\.library\(name: "([A-Za-z]+)""#)
        return pattern.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)).map {
            String(manifest[Range($0.range(at: 1), in: manifest)!])
        }
    }

    /// The working tree as committed plus what is not yet (tracked and new files, not ignored
    /// ones), so the test checks this checkout rather than its last commit.
    static func taggedCopy(in dir: URL, tag: String) throws -> URL {
        let copy = dir.appendingPathComponent("document-interchange")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        let root = TestSupport.packageRoot.path
        let listed = try TestSupport.run("/usr/bin/git", ["-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let files = listed.out.split(separator: "\0").map(String.init).filter {
            FileManager.default.fileExists(atPath: root + "/" + $0) || (try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/" + $0)) != nil
        }
        // cp resolves the relative names against its own working folder: run it from the root.
        let script = "cd \"$1\" && shift && dest=\"$1\" && shift && cp -d --parents -t \"$dest\" \"$@\""
        let placed = try TestSupport.run("/bin/sh", ["-c", script, "sh", root, copy.path] + files)
        #expect(placed.status == 0, "\(placed.stderr)")
        for step in [["init", "-q"], ["add", "-A"], ["-c", "user.name=test", "-c", "user.email=test@example.org", "commit", "-qm", "release"], ["tag", tag]] {
            let git = try TestSupport.run("/usr/bin/git", ["-C", copy.path] + step)
            #expect(git.status == 0, "git \(step): \(git.stderr)")
        }
        return copy
    }

    @Test func aConsumerBuildsAgainstATaggedVersion() async throws {
        let dir = try TestSupport.temporaryDirectory()
        // The consumer's build folder holds a copy of every package: about 1 GiB.
        defer { try? FileManager.default.removeItem(at: dir) }
        let products = try Self.libraryProducts()
        #expect(products.contains("PropertyLists") && products.contains("UniformTypeIdentifiers") && products.count >= 10, "\(products)")
        let library = try Self.taggedCopy(in: dir, tag: "0.5.0")
        let consumer = dir.appendingPathComponent("consumer")
        // `Uses` is built and run; `Everything` names every library product, so resolving the
        // graph checks them all for unsafe flags without compiling them all.
        let everything = products.map { #".product(name: "\#($0)", package: "document-interchange")"# }.joined(separator: ", ")
        let manifest = """
        // swift-tools-version:6.0
        import PackageDescription
        let package = Package(
            name: "consumer",
            dependencies: [.package(url: "\(library.absoluteString)", from: "0.5.0")],
            targets: [
                .executableTarget(name: "Uses", dependencies: [.product(name: "PropertyLists", package: "document-interchange")]),
                .target(name: "Everything", dependencies: [\(everything)]),
            ]
        )
        """
        let fm = FileManager.default
        try fm.createDirectory(at: consumer.appendingPathComponent("Sources/Uses"), withIntermediateDirectories: true)
        try fm.createDirectory(at: consumer.appendingPathComponent("Sources/Everything"), withIntermediateDirectories: true)
        try manifest.write(to: consumer.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "// Only its dependencies matter.\n".write(to: consumer.appendingPathComponent("Sources/Everything/Everything.swift"), atomically: true, encoding: .utf8)
        // The Library section's first snippet, taken from the README: the paragraph of Swift that
        // starts with import PropertyLists.
        let readme = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let block = try #require(readme.components(separatedBy: "```swift\n").dropFirst().first { $0.hasPrefix("import PropertyLists") }?
            .components(separatedBy: "```").first)
        let snippet = try #require(block.components(separatedBy: "\n\n").first)
        #expect(snippet.hasPrefix("import PropertyLists") && snippet.contains("PropertyListReader.read(contentsOf: path)"), "\(snippet)")
        try snippet.write(to: consumer.appendingPathComponent("Sources/Uses/main.swift"), atomically: true, encoding: .utf8)
        let plist = consumer.appendingPathComponent("Samples/Apps/PersonEditor.app")
        try fm.createDirectory(at: plist, withIntermediateDirectories: true)
        try "<plist><dict><key>CFBundleIdentifier</key><string>com.example.consumer</string></dict></plist>"
            .write(to: plist.appendingPathComponent("Info.plist"), atomically: true, encoding: .utf8)
        let build = try await TestSupport.runOffPool("/usr/bin/env", ["swift", "build", "--package-path", consumer.path, "--product", "Uses"])
        #expect(build.status == 0, "\(build.out)\(build.stderr)")
        #expect(!(build.out + build.stderr).contains("unsafe build flags"))
        let ran = try TestSupport.run("/bin/sh", ["-c", "cd \"$1\" && exec .build/debug/Uses", "sh", consumer.path])
        #expect(ran.status == 0 && ran.out == "com.example.consumer\n", "\(ran.out)\(ran.stderr)")
    }
}
