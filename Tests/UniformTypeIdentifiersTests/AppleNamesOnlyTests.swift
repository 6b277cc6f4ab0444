import Foundation
import TestHelpers
import Testing

/// `import UniformTypeIdentifiers` gives Apple's names and not the engine's: Apple code
/// type-checks against the built module, and an engine name (`TypeRegistry`) is not found
/// without `import UniformTypes`. Checked with the real compiler (`swiftc -typecheck`) against
/// the modules this test run was built with.
extension UniformTypeIdentifiersTests {
    static func typecheck(_ source: String) throws -> (status: Int32, errors: String) {
        let folder = try TestSupport.temporaryDirectory()
        let file = folder.appendingPathComponent("client.swift")
        try Data(source.utf8).write(to: file)
        let products = TestSupport.productsDirectory
        let fm = FileManager.default
        // The C modules the Swift modules were built against: SwiftPM's generated module maps
        // and the packages' own, as the build found them.
        var includes = [products.appendingPathComponent("Modules").path,
                        TestSupport.packageRoot.appendingPathComponent(".build/checkouts/swift-system/Sources/CSystem/include").path]
        for folder in (try? fm.contentsOfDirectory(atPath: products.path)) ?? [] where folder.hasSuffix(".build") {
            let path = products.appendingPathComponent(folder).path
            if fm.fileExists(atPath: path + "/module.modulemap") { includes.append(path) }
        }
        let sources = TestSupport.packageRoot.appendingPathComponent("Sources").path
        for target in (try? fm.contentsOfDirectory(atPath: sources)) ?? [] where target.hasPrefix("C") {
            for path in [sources + "/" + target, sources + "/" + target + "/include"] where fm.fileExists(atPath: path + "/module.modulemap") {
                includes.append(path)
            }
        }
        let run = try TestSupport.run("/usr/bin/env", ["swiftc", "-typecheck", "-Xcc", "-I/usr/include/libxml2"]
                                      + includes.flatMap { ["-I", $0] } + [file.path])
        return (run.status, run.stderr)
    }

    @Test func appleCodeSeesAppleNamesAndNotTheEngine() throws {
        let apple = try Self.typecheck("""
            import UniformTypeIdentifiers
            let image = UTType.png.conforms(to: .image)
            let markdown = UTType(filenameExtension: "md")?.identifier
            let tag: UTTagClass = .mimeType
            """)
        #expect(apple.status == 0, "\(apple.errors)")
        let engine = try Self.typecheck("""
            import UniformTypeIdentifiers
            let registry: TypeRegistry? = nil
            """)
        #expect(engine.status != 0 && engine.errors.contains("cannot find type 'TypeRegistry' in scope"), "\(engine.errors)")
        let both = try Self.typecheck("""
            import UniformTypeIdentifiers
            import UniformTypes
            let registry: TypeRegistry? = nil
            let png = UTType.png
            """)
        #expect(both.status == 0, "\(both.errors)")
    }
}
