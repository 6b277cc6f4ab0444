import Testing
@testable import UniformTypes

/// The type record's named words (``RegistryImageLayout/RecordWord``): every field a declaration
/// has is written into its word and read back from it, through a compiled image and a registry
/// opened on its bytes, and no word is left to two fields.
@Suite struct RegistryRecordTests {
    @Test func everyFieldRoundTripsThroughItsWord() throws {
        var rich = TypeDeclaration(identifier: "com.Example.Rich", conformsTo: ["public.data", "public.content"], description: "rich document",
                                   referenceURL: "https://example.org/rich", version: "3", iconFiles: ["rich.icns", "rich-small.png"],
                                   tags: [.filenameExtension: ["rich", "rch"], .mimeType: ["application/x-rich"]], kind: .exported,
                                   source: "/Apps/Rich.app/Info.plist")
        rich.localizedDescriptions = ["fr": "document riche", "de": "reiches Dokument"]
        let declarations = [
            TypeDeclaration(identifier: "public.item", kind: .system, source: "public.plist"),
            TypeDeclaration(identifier: "public.data", conformsTo: ["public.item"], kind: .system, source: "public.plist"),
            TypeDeclaration(identifier: "public.content", conformsTo: ["public.item"], kind: .system, source: "public.plist"),
            rich,
        ]
        let image = TypeRegistry.compiledImage(declarations: declarations, fingerprint: [])
        let registry = try TypeRegistry(compiledImage: image)
        let id = try #require(registry.number(of: "com.example.rich"))
        let read = try #require(registry.declaration(of: id))
        #expect(read.identifier == "com.Example.Rich")                        // identifier0/1 (normalized0/1 found it)
        #expect(read.description == "rich document")                          // description0/1
        #expect(read.referenceURL == "https://example.org/rich")              // reference0/1
        #expect(read.version == "3")                                          // version0/1
        #expect(read.source == "/Apps/Rich.app/Info.plist")                   // source0/1
        #expect(read.kind == TypeDeclaration.Kind.exported && registry.isDeclared(id))   // flags
        #expect(read.conformsTo == ["public.data", "public.content"])        // parentsStart/Count
        #expect(Set(registry.supertypes(of: id).map(registry.identifier(of:))) == ["public.data", "public.content", "public.item"]) // ancestors
        #expect(read.tags[TagClass.filenameExtension] == ["rich", "rch"] && read.tags[TagClass.mimeType] == ["application/x-rich"]) // tagsStart/Count
        #expect(read.iconFiles == ["rich.icns", "rich-small.png"])             // iconsStart/Count
        #expect(read.localizedDescriptions == ["fr": "document riche", "de": "reiches Dokument"]) // localizedStart/Count
        #expect(RegistryImageLayout.RecordWord.allCases.count <= RegistryImageLayout.recordWords)
        #expect(Set(RegistryImageLayout.RecordWord.allCases.map(\.rawValue)).count == RegistryImageLayout.RecordWord.allCases.count)
    }
}

/// The content-typing header's named words (``ContentTypingLayout/HeaderWord``), written and read
/// back through a registry built from a small MIME package: each part is found where its words
/// say, and each fallback type is the one its word names.
@Suite struct ContentTypingHeaderTests {
    @Test func everyHeaderWordRoundTrips() throws {
        let registry = try SharedMIMEInfoTests.registry("""
            <mime-type type="text/plain"><glob pattern="*.txt"/></mime-type>
            <mime-type type="application/octet-stream"/>
            <mime-type type="application/x-desktop"><glob pattern="*.desktop"/></mime-type>
            <mime-type type="application/x-zerosize"/>
            <mime-type type="image/x-example"><glob pattern="*.exampleimage"/><glob pattern="EXAMPLE" case-sensitive="true"/>
              <magic priority="60"><match type="string" value="EXIMG" offset="0:8"/></magic></mime-type>
            """)
        let table = try #require(registry.contentTyping)
        #expect(table.plainText.flatMap(table.name) == "text/plain")               // plainText
        #expect(table.unknown.flatMap(table.name) == "application/octet-stream")   // octetStream
        #expect(table.desktopEntry.flatMap(table.name) == "application/x-desktop") // desktopEntry
        #expect(table.empty.flatMap(table.name) == "application/x-zerosize")       // zeroSize
        #expect(table.mimeCount >= 5)                                               // mimeOffset/Count
        #expect(table.candidates(forName: "a.exampleimage").compactMap { table.name($0.mime) } == ["image/x-example"]) // suffixes, pool, bytes
        #expect(table.candidates(forName: "EXAMPLE").compactMap { table.name($0.mime) } == ["image/x-example"])        // literals
        let content = Array("xxEXIMG".utf8)
        let matched = content.withUnsafeBytes { table.magicMatch($0) }                                                  // magic, matchlets
        #expect(matched.flatMap { table.name($0.mime) } == "image/x-example" && matched?.priority == 60)
        #expect(table.maxExtent >= 8 + 5)                                                                               // maxExtent
        #expect(Set(ContentTypingLayout.HeaderWord.allCases.map(\.rawValue)).count == ContentTypingLayout.HeaderWord.allCases.count)
        #expect(ContentTypingLayout.HeaderWord.allCases.allSatisfy { $0.rawValue < ContentTypingLayout.headerWords })
    }
}
