import PropertyLists
import TestHelpers
import Testing
import UniformTypes

/// ../shared/vectors/type-behaviour.md 1–14, against a small test catalog and, where the answer does
/// not depend on that catalog's own contents, against the real one in UTIs/ too.
@Suite struct TypeBehaviourTests {
    let registry = TestCatalog.registry()
    func t(_ id: String) -> UTType { UTType(id, in: registry)! }

    @Test(arguments: TestCatalog.both)
    func identifiersCompareIgnoringCase(_ catalog: TestCatalog.Under) {
        let registry = catalog.registry()
        func t(_ id: String) -> UTType { UTType(id, in: registry)! }                                   // 1
        #expect(t("public.JPEG") == t("public.jpeg"))
        #expect(t("public.JPEG").hashValue == t("public.jpeg").hashValue)
        #expect(t("public.JPEG").identifier == "public.jpeg")
    }

    @Test(arguments: TestCatalog.both)
    func conformanceIsReflexiveAndTransitive(_ catalog: TestCatalog.Under) {
        let registry = catalog.registry()
        func t(_ id: String) -> UTType { UTType(id, in: registry)! }                               // 2
        for parent in ["public.png", "public.image", "public.data", "public.item", "public.content"] {
            #expect(t("public.png").conforms(to: t(parent)), "\(parent)")
        }
        #expect(!t("public.png").isSubtype(of: t("public.png")))
        #expect(t("public.png").isSubtype(of: t("public.image")))
        #expect(t("public.image").isSupertype(of: t("public.png")))
        #expect(!t("public.image").conforms(to: t("public.png")))
    }

    @Test(arguments: TestCatalog.both)
    func supertypesAreTheClosureWithoutSelf(_ catalog: TestCatalog.Under) {
        let registry = catalog.registry()
        func t(_ id: String) -> UTType { UTType(id, in: registry)! }                                // 3
        #expect(Set(t("public.zip-archive").supertypes.map(\.identifier)) ==
                ["com.pkware.zip-archive", "public.data", "public.item", "public.archive"])
        #expect(!t("public.zip-archive").conforms(to: t("public.content")))
        #expect(Set(t("public.jpeg").supertypes.map(\.identifier)) == ["public.image", "public.data", "public.item", "public.content"])
        for parent in ["public.plain-text", "public.delimited-values-text", "public.text", "public.data", "public.item", "public.content"] {
            #expect(t("public.comma-separated-values-text").conforms(to: t(parent)))
        }
        #expect(t("public.svg-image").conforms(to: t("public.image")) && t("public.svg-image").conforms(to: t("public.text")))
    }

    @Test(arguments: TestCatalog.both)
    func cyclesAreReportedAndNeverHang(_ catalog: TestCatalog.Under) {
        let registry = catalog.registry()
        func t(_ id: String) -> UTType { UTType(id, in: registry)! }                                     // 4
        let app: PropertyList = .dictionary(["UTExportedTypeDeclarations": .array([
            TestCatalog.type("com.example.a", ["com.example.b"]),
            TestCatalog.type("com.example.b", ["com.example.a", "public.data"]),
            TestCatalog.type("com.example.self", ["com.example.self"]),
        ])])
        let r = catalog.registry(apps: [("com.example.app", app)])
        let a = UTType("com.example.a", in: r)!
        #expect(a.conforms(to: UTType("public.item", in: r)!))
        #expect(Set(a.supertypes.map(\.identifier)) == ["com.example.b", "public.data", "public.item"])
        #expect(r.diagnostics.contains(.cycle(identifier: "com.example.a", source: "com.example.app")))
        #expect(r.diagnostics.contains(.selfConformance(identifier: "com.example.self", source: "com.example.app")))
        #expect(UTType("com.example.self", in: r)!.supertypes.isEmpty)
    }

    @Test func descriptionsAreInheritedDepthFirstInDeclaredOrder() {                 // 5
        #expect(t("public.png").localizedDescription == "PNG image")
        // public.tiff declares none: public.image comes first in its parents.
        #expect(t("public.tiff").localizedDescription == "image")
        // public.svg-image: image (declared first) before xml.
        #expect(t("public.svg-image").localizedDescription == "image")
        #expect(t("public.zip-archive").localizedDescription == "data")
    }

    @Test(arguments: TestCatalog.both)
    func tagsMatchIgnoringCaseForExtensionsAndMIME(_ catalog: TestCatalog.Under) {
        let registry = catalog.registry()
        func t(_ id: String) -> UTType { UTType(id, in: registry)! }                         // 6
        let jpg = UTType(filenameExtension: "JPG", in: registry)!
        #expect(jpg.identifier == "public.jpeg")
        #expect(jpg.preferredFilenameExtension == "jpeg" && jpg.preferredMIMEType == "image/jpeg")
        #expect(UTType(mimeType: "IMAGE/PNG", in: registry)?.identifier == "public.png")
    }

    @Test(arguments: TestCatalog.both)
    func thePreferredTagIsTheFirstDeclared(_ catalog: TestCatalog.Under) {
        let registry = catalog.registry()
        func t(_ id: String) -> UTType { UTType(id, in: registry)! }                                 // 7
        #expect(UTType(filenameExtension: "yaml", in: registry)?.preferredFilenameExtension == "yml")
        #expect(UTType(filenameExtension: "htm", in: registry)?.preferredFilenameExtension == "html")
        #expect(UTType(filenameExtension: "text", in: registry)?.identifier == "public.plain-text")
        #expect(UTType(filenameExtension: "tif", in: registry)?.preferredFilenameExtension == "tiff")
    }

    @Test(arguments: TestCatalog.both)
    func sharedTagsPreferPublicThenDeclarationOrder(_ catalog: TestCatalog.Under) {                // 8
        let registry = catalog.registry()
        func t(_ id: String) -> UTType { UTType(id, in: registry)! }
        #expect(UTType(filenameExtension: "mp4", in: registry)?.identifier == "public.mpeg-4")
        #expect(UTType(filenameExtension: "ts", in: registry)?.identifier == "public.mpeg-2-transport-stream")
        #expect(UTType.types(tag: "mp4", tagClass: .filenameExtension, conformingTo: nil, in: registry).map(\.identifier)
                == ["public.mpeg-4", "public.mpeg-4-audio"])
        #expect(UTType(filenameExtension: "mp4", conformingTo: t("public.audio"), in: registry)?.identifier == "public.mpeg-4-audio")
    }

    @Test func onlyStandardTagClassesAreKept() throws {                             // 9
        let plist = try PropertyListReader.read(Array("""
            <plist><dict><key>UTExportedTypeDeclarations</key><array><dict>
            <key>UTTypeIdentifier</key><string>com.example.x</string>
            <key>UTTypeConformsTo</key><string>public.data</string>
            <key>UTTypeTagSpecification</key><dict>
              <key>public.mime-type</key><string>x/y</string><key>nonstandard</key><string>abc</string>
            </dict></dict></array></dict></plist>
            """.utf8)).value
        var diagnostics: [DeclarationDiagnostic] = []
        let declarations = TypeDeclaration.declarations(in: plist, source: "com.example", diagnostics: &diagnostics)
        #expect(declarations.first?.tags == [.mimeType: ["x/y"]])
        #expect(declarations.first?.conformsTo == ["public.data"])
        #expect(diagnostics.contains { $0.message.contains("nonstandard") })
    }

    @Test(arguments: TestCatalog.both)
    func unknownTagsGiveDynamicTypes(_ catalog: TestCatalog.Under) {
        let registry = catalog.registry()
        func t(_ id: String) -> UTType { UTType(id, in: registry)! }                                       // 10, 11
        let srt = UTType(filenameExtension: "SRT", in: registry)!
        #expect(srt.identifier == "dyn.ah62d4rv4ge81g6xy")
        #expect(srt.isDynamic && !srt.isDeclared && !srt.isPublic)
        #expect(srt.localizedDescription == nil)
        #expect(srt.conforms(to: t("public.data")) && srt.conforms(to: t("public.item")))
        #expect(srt.tags == [.filenameExtension: ["srt"]])
        #expect(UTType(tag: "rs", tagClass: .filenameExtension, conformingTo: nil, in: registry)?.identifier == "dyn.age81e62")
        #expect(UTType(filenameExtension: "rs", conformingTo: t("public.plain-text"), in: registry)?.identifier == "dyn.ah62d4sb4ge81e62")
    }

    @Test(arguments: TestCatalog.both)
    func dynamicIdentifiersDecodeBack(_ catalog: TestCatalog.Under) {
        let registry = catalog.registry()
        func t(_ id: String) -> UTType { UTType(id, in: registry)! }                                      // 12
        let srt = UTType("dyn.ah62d4rv4ge81g6xy", in: registry)
        #expect(srt?.preferredFilenameExtension == "srt")
        #expect(UTType("dyn.a!!", in: registry) == nil)
    }

    @Test(arguments: TestCatalog.both)
    func precedenceIsExportedOverImportedAndSystemOverApps(_ catalog: TestCatalog.Under) {
        let registry = catalog.registry()
        func t(_ id: String) -> UTType { UTType(id, in: registry)! }                 // 13
        let importer: PropertyList = .dictionary(["UTImportedTypeDeclarations": .array([
            TestCatalog.type("com.example.person", ["public.data"], description: "imported")])])
        let exporterB: PropertyList = .dictionary(["UTExportedTypeDeclarations": .array([
            TestCatalog.type("com.example.person", ["public.data", "public.content"], description: "exported by b"),
            TestCatalog.type("public.png", ["public.data"], description: "hijacked")])])
        let exporterA: PropertyList = .dictionary(["UTExportedTypeDeclarations": .array([
            TestCatalog.type("com.example.PERSON", ["public.data"], description: "exported by a")])])
        for apps in [[("com.b", exporterB), ("com.i", importer), ("com.a", exporterA)],
                     [("com.a", exporterA), ("com.i", importer), ("com.b", exporterB)]] {
            let r = catalog.registry(apps: apps.map { (source: $0.0, plist: $0.1) })
            #expect(UTType("com.example.person", in: r)?.localizedDescription == "exported by a")
            #expect(UTType("com.example.person", in: r)?.declaringSource == "com.a")
            #expect(UTType("public.png", in: r)?.localizedDescription == "PNG image")
            #expect(r.diagnostics.contains { if case .overridden(_, "com.i", .imported, "com.a", .exported) = $0 { true } else { false } })
        }
    }

    @Test func identifierValidity() {                                                // 14
        #expect(TypeIdentifierSyntax.isValid("com.exämple.foo"))
        #expect(TypeIdentifierSyntax.problem(with: "bad_type") == .invalidCharacter("_", offset: 3))
        #expect(TypeIdentifierSyntax.problem(with: "public..text") == .emptyLabel)
    }
}
