import Foundation
import TestHelpers
import Testing

/// `import UniformTypeIdentifiers` gives Apple's names and not the engine's: Apple code
/// type-checks against the built module, and an engine name (`TypeRegistry`) is not found
/// without `import UniformTypes`. Checked with the real compiler (`swiftc -typecheck`) against
/// the modules this test run was built with.
extension UniformTypeIdentifiersTests {
    static func typecheck(_ source: String) throws -> (status: Int32, errors: String) { try ClientTypecheck.run(source) }

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
