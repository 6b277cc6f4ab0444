import Foundation
import Testing
@testable import UniformTypeIdentifiers
import UniformTypes

/// What is logged when `init(exportedAs:)`/`init(importedAs:)` name a type the app does not
/// declare as the call assumes, and the version and reference URL Apple types as `Int` and `URL`.
extension UniformTypeIdentifiersTests {
    @Test func missingDeclarationsAreNamed() {
        func problem(_ id: String, exported: Bool) -> String? {
            let type = exported ? UTType(exportedAs: id) : UTType(importedAs: id)
            return UndeclaredTypeLog.problem(type, identifier: id, exported: exported)
        }
        #expect(problem("com.example.drawing", exported: true) == nil)
        #expect(problem("com.example.shared-format", exported: false) == nil)
        #expect(problem("com.example.drawing", exported: false) == nil)
        #expect(problem("com.example.undeclared", exported: true)?.contains("add it to the app's UTExportedTypeDeclarations") == true)
        #expect(problem("com.example.undeclared", exported: false)?.contains("UTImportedTypeDeclarations") == true)
        #expect(problem("com.example.shared-format", exported: true)?.contains("com.example.drawing-app declares this type as imported") == true)
    }

    @Test func versionAndReferenceURLHaveApplesTypes() {
        let registry = TypeRegistry(declarations: [
            TypeDeclaration(identifier: "com.example.v2", referenceURL: "https://example.com/format", version: "2.1", kind: .system, source: "t"),
            TypeDeclaration(identifier: "com.example.v7", version: "7", kind: .system, source: "t"),
            TypeDeclaration(identifier: "com.example.vx", version: "beta", kind: .system, source: "t"),
        ])
        #expect(UTType("com.example.v2", in: registry)?.version == 2)
        #expect(UTType("com.example.v2", in: registry)?.referenceURL == URL(string: "https://example.com/format"))
        #expect(UTType("com.example.v7", in: registry)?.version == 7)
        #expect(UTType("com.example.vx", in: registry)?.version == nil)
        #expect(UTType("com.example.vx", in: registry)?.referenceURL == nil)
        #expect(UTType.png.version == nil)
    }
}
