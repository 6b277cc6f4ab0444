import Foundation
import PropertyLists
import TestHelpers
import Testing
import UniformTypes

/// Which of several types claiming one tag answers it (`TagClaimOrder`, docs/catalog.md "Shared
/// tags"): each step of the rule on a catalog made for it, then the cases macOS 13 answers, on the
/// real catalog beside shared-mime-info 2.4's own database.
@Suite struct TagClaimOrderTests {
    /// A catalog file: CoreTypes' declarations unless `core` is false, as `UTIs/` marks them.
    static func catalog(_ entries: [(id: String, parents: [String], ext: [String], core: Bool)]) -> PropertyList {
        .dictionary(["UTExportedTypeDeclarations": .array(entries.map { e in
            guard case .dictionary(var d) = TestCatalog.type(e.id, e.parents, ext: e.ext) else { return .string("") }
            if !e.core { d[TypeDeclaration.coreTypesKey] = .bool(false) }
            return .dictionary(d)
        })])
    }

    static func registry(_ catalogs: [PropertyList], apps: [(String, PropertyList)] = [], mime: String? = nil) throws -> TypeRegistry {
        var diagnostics: [DeclarationDiagnostic] = []
        var all = TypeDeclaration.declarations(in: TestCatalog.plist, source: "base", asSystem: true, diagnostics: &diagnostics)
        for (n, c) in catalogs.enumerated() { all += TypeDeclaration.declarations(in: c, source: "catalog\(n)", asSystem: true, diagnostics: &diagnostics) }
        for (source, plist) in apps { all += TypeDeclaration.declarations(in: plist, source: source, diagnostics: &diagnostics) }
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        guard let mime else { return TypeRegistry(declarations: all) }
        return TypeRegistry(declarations: all, mimeDatabase: try SharedMIMEInfoTests.database(mime))
    }

    static func answer(_ ext: String, _ registry: TypeRegistry) -> String? {
        UTType(filenameExtension: ext, in: registry)?.identifier
    }

    @Test func coreTypesAnswersBeforeApplesOtherBundlesEvenAPublicType() throws {
        // As `pic`: public.radiance (ImageIO) lists it first, com.apple.pict (CoreTypes) third.
        let r = try Self.registry([Self.catalog([
            (id: "public.hdr-like", parents: ["public.data"], ext: ["zzpic", "zzhdr"], core: false),
            (id: "com.apple.pict-like", parents: ["public.data"], ext: ["zzpict", "zzpct", "zzpic"], core: true),
        ])])
        #expect(Self.answer("zzpic", r) == "com.apple.pict-like")
        #expect(UTType.types(tag: "zzpic", tagClass: .filenameExtension, conformingTo: nil, in: r).map(\.identifier)
                == ["com.apple.pict-like", "public.hdr-like"])
        // Its other tags are still its own, and it keeps its preferred extension.
        #expect(Self.answer("zzhdr", r) == "public.hdr-like")
        #expect(UTType("public.hdr-like", in: r)?.preferredFilenameExtension == "zzpic")
    }

    @Test func thenPublicTypesThenDeclarationOrder() throws {
        let r = try Self.registry([
            Self.catalog([(id: "com.example.word-xml", parents: ["public.data"], ext: ["zzxml", "zzboth"], core: true),
                          (id: "com.example.first", parents: ["public.data"], ext: ["zzorder"], core: false)]),
            Self.catalog([(id: "public.xml-like", parents: ["public.data"], ext: ["zzxml"], core: true),
                          (id: "com.example.second", parents: ["public.data"], ext: ["zzorder", "zzboth"], core: true)]),
        ])
        #expect(Self.answer("zzxml", r) == "public.xml-like")      // public first, though declared later
        #expect(Self.answer("zzboth", r) == "com.example.word-xml")  // neither public: the one declared first
        #expect(Self.answer("zzorder", r) == "com.example.second")   // CoreTypes' before the earlier bundle type
    }

    @Test func theSystemBeforeAnyAppAndAnAppsMarkIsNotRead() throws {
        // An app cannot make its type a CoreTypes one: the key is read in the catalog only.
        var app = Self.catalog([(id: "com.example.app-type", parents: ["public.data"], ext: ["zzsys"], core: true)])
        if case .dictionary(var d) = app, case .array(var list)? = d["UTExportedTypeDeclarations"], case .dictionary(var t) = list[0] {
            t[TypeDeclaration.coreTypesKey] = .bool(true)
            list[0] = .dictionary(t)
            d["UTExportedTypeDeclarations"] = .array(list)
            app = .dictionary(d)
        }
        let r = try Self.registry([Self.catalog([(id: "com.example.bundle-type", parents: ["public.data"], ext: ["zzsys"], core: false)])],
                                  apps: [("com.example.app", app)])
        #expect(Self.answer("zzsys", r) == "com.example.bundle-type")
    }

    @Test func aDeclaredTypeBeforeTheSharedMIMEDatabasesGlob() throws {
        // As `exs`: Logic's sampler instrument (declared by an Apple app) and Elixir's script glob.
        let r = try Self.registry([Self.catalog([(id: "com.example.sampler", parents: ["public.data"], ext: ["zzexs"], core: false)])], mime: """
            <mime-type type="text/x-zz-script"><sub-class-of type="text/plain"/><glob pattern="*.zzexs"/></mime-type>
            <mime-type type="text/plain"/><mime-type type="application/octet-stream"/>
            """)
        #expect(Self.answer("zzexs", r) == "com.example.sampler")
        #expect(UTType(mimeType: "text/x-zz-script", in: r)?.identifier != "com.example.sampler")
    }

    @Test func aMarkThatIsNotABooleanIsReported() {
        var diagnostics: [DeclarationDiagnostic] = []
        let plist = PropertyList.dictionary(["UTExportedTypeDeclarations": .array([.dictionary([
            "UTTypeIdentifier": .string("com.example.t"), TypeDeclaration.coreTypesKey: .string("no"),
        ])])])
        let found = TypeDeclaration.declarations(in: plist, source: "c", asSystem: true, diagnostics: &diagnostics)
        #expect(found.count == 1)
        #expect(diagnostics.map(\.description) == ["error: DeclaredByCoreTypes must be a boolean, not a string [UTExportedTypeDeclarations[0].DeclaredByCoreTypes]"])
    }

    /// What macOS 13 answers where several types claim an extension (Fixtures/macos13-utitools),
    /// with shared-mime-info 2.4's globs present as on a Linux desktop.
    @Test(arguments: [("pic", "com.apple.pict"), ("img", "com.apple.disk-image-udif"), ("exs", "com.apple.logic.exs"),
                      ("cwk", "com.apple.appleworks.document"), ("icbu", "com.apple.ical.backup-package"),
                      ("xml", "public.xml"), ("iba", "com.apple.ibooksauthor.book"), ("hdr", "public.radiance")])
    func macOS13sAnswerBesideTheDesktopsDatabase(_ ext: String, _ expected: String) {
        #expect(Self.answer(ext, SharedMIMEDetectionSuiteTests.registry) == expected)
        let row = VenturaAnswersTests.rows.first { $0.fileExtension == ext }
        #expect(row?.identifier == expected, "the listing says \(row?.identifier ?? "nothing")")
    }
}
