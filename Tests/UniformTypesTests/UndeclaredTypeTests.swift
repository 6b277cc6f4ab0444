import PropertyLists
import TestHelpers
import Testing
import UniformTypes

/// `init(exportedAs:)` and `init(importedAs:)` in the engine: the declared type when there is one,
/// else a type of that identifier that is neither declared nor dynamic and has the parents given.
@Suite struct UndeclaredTypeTests {
    static let exporter: PropertyList = .dictionary(["UTExportedTypeDeclarations": .array([
        TestCatalog.type("com.example.note", ["public.plain-text"], ext: ["note"], mime: ["text/x-note"], description: "Note"),
    ])])
    /// Imports a type whose extension another app's exported type also claims.
    static let importer: PropertyList = .dictionary(["UTImportedTypeDeclarations": .array([
        TestCatalog.type("org.example.old-note", ["public.plain-text"], ext: ["note"]),
        TestCatalog.type("org.example.sheet", ["public.data"], ext: ["sheet"]),
    ])])
    let registry = TestCatalog.registry(apps: [("com.example.notes", exporter), ("org.example.reader", importer)])
    func t(_ id: String) -> UTType { UTType(id, in: registry)! }

    @Test func exportedAsFindsTheDeclaration() {
        let note = UTType(exportedAs: "com.example.NOTE", conformingTo: t("public.image"), in: registry)
        // The declaration decides; the parent given is only a hint.
        #expect(note.isDeclared && note.identifier == "com.example.note")
        #expect(note.conforms(to: t("public.text")) && !note.conforms(to: t("public.image")))
        #expect(note.preferredFilenameExtension == "note" && note.localizedDescription == "Note")
    }

    @Test func exportedAsWithoutADeclaration() {
        let x = UTType(exportedAs: "com.example.x", conformingTo: t("public.image"), in: registry)
        #expect(x.identifier == "com.example.x")
        #expect(!x.isDeclared && !x.isDynamic && !x.isPublic)
        #expect(x.conforms(to: t("public.image")) && x.conforms(to: t("public.data")) && x.conforms(to: x))
        #expect(!x.conforms(to: t("public.text")))
        #expect(x.isSubtype(of: t("public.content")) && t("public.image").isSupertype(of: x))
        #expect(x.supertypes == Set(["public.image", "public.data", "public.content", "public.item"].map(t)))
        #expect(x.parents == [t("public.image")])
        #expect(x.tags.isEmpty && x.localizedDescription == nil && x.declaration == nil)
        // Nothing declared conforms to it; an extension constrained to it is dynamic and conforms.
        #expect(!t("public.png").conforms(to: x))
        let dynamic = UTType(filenameExtension: "xyz", conformingTo: x, in: registry)
        #expect(dynamic?.isDynamic == true && dynamic?.conforms(to: x) == true && dynamic?.conforms(to: t("public.image")) == true)
        // Equal to the same identifier made again, in any case.
        #expect(x == UTType(exportedAs: "COM.example.x", in: registry))
    }

    @Test func theDefaultParentIsData() {
        let x = UTType(importedAs: "com.example.y", in: registry)
        #expect(x.parents == [t("public.data")] && x.conforms(to: t("public.item")) && !x.conforms(to: t("public.content")))
    }

    @Test func importedAsPrefersTheTypeTheExtensionFinds() {
        // org.example.old-note's preferred extension "note" goes to com.example.note (exported wins).
        #expect(UTType(importedAs: "org.example.old-note", in: registry).identifier == "com.example.note")
        // No other type claims "sheet": the imported type itself.
        let sheet = UTType(importedAs: "org.example.sheet", conformingTo: t("public.data"), in: registry)
        #expect(sheet.identifier == "org.example.sheet" && sheet.isDeclared)
        // exportedAs never substitutes.
        #expect(UTType(exportedAs: "org.example.old-note", in: registry).identifier == "org.example.old-note")
    }

    @Test func aParentNothingDeclaresBecomesTheTypeAsked() {
        // com.example.parent is only named as a parent: the registry numbers it, declares nothing.
        let child: PropertyList = .dictionary(["UTExportedTypeDeclarations": .array([
            TestCatalog.type("com.example.child", ["com.example.parent"], ext: ["child"])])])
        let r = TestCatalog.registry(apps: [("com.example.c", child)])
        let parent = UTType(exportedAs: "com.example.parent", conformingTo: UTType("public.data", in: r), in: r)
        #expect(!parent.isDeclared && parent.conforms(to: UTType("public.item", in: r)!))
        #expect(UTType("com.example.child", in: r)!.conforms(to: parent))
    }
}
