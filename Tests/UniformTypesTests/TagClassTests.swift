import Foundation
import TestHelpers
import Testing
import UniformTypes

/// `TagClass` is open like Apple's `UTTagClass`: any identifier is a class; the four standard ones
/// are the only ones declarations keep (vector 9) and the registry indexes.
@Suite struct TagClassTests {
    let registry = TestCatalog.registry()
    let urlScheme = TagClass(rawValue: "public.url-scheme")

    @Test func standardClassesAreTheirNames() {
        #expect(TagClass(rawValue: "public.filename-extension") == .filenameExtension)
        #expect(TagClass(rawValue: "public.mime-type").hashValue == TagClass.mimeType.hashValue)
        #expect(TagClass.standard.map(\.rawValue) == ["public.filename-extension", "public.mime-type", "com.apple.ostype", "com.apple.nspboard-type"])
        #expect(TagClass.standard.allSatisfy { $0.isStandard })
        #expect(TagClass.filenameExtension.isCaseInsensitive && TagClass.mimeType.isCaseInsensitive && !TagClass.osType.isCaseInsensitive)
    }

    @Test func otherClassesAreOpen() {
        #expect(!urlScheme.isStandard && !urlScheme.isCaseInsensitive)
        #expect(urlScheme == TagClass(rawValue: "public.url-scheme") && urlScheme != TagClass(rawValue: "public.URL-scheme"))
        #expect(urlScheme != .filenameExtension)
        #expect(TagClass(standard: "public.url-scheme") == nil && TagClass(standard: "com.apple.ostype") == .osType)
        #expect([urlScheme, .pasteboardType, TagClass(rawValue: "com.example.a"), .filenameExtension].sorted().map(\.rawValue)
                == ["public.filename-extension", "com.apple.nspboard-type", "com.example.a", "public.url-scheme"])
        #expect(Set([urlScheme, TagClass(rawValue: "public.url-scheme"), .mimeType]).count == 2)
    }

    @Test func codedAsTheIdentifier() throws {
        let data = try JSONEncoder().encode([TagClass.mimeType, urlScheme])
        #expect(String(decoding: data, as: UTF8.self) == #"["public.mime-type","public.url-scheme"]"#)
        #expect(try JSONDecoder().decode([TagClass].self, from: data) == [.mimeType, urlScheme])
    }

    @Test func lookupsWithAnotherClassGiveDynamicTypes() throws {
        #expect(UTType.types(tag: "http", tagClass: urlScheme, conformingTo: nil, in: registry).isEmpty)
        let http = try #require(UTType(tag: "http", tagClass: urlScheme, conformingTo: nil, in: registry))
        // public.url-scheme has the one-character code 5 in dynamic identifiers (dynamic-uti.tsv).
        #expect(http.identifier == DynamicTypeIdentifier.encode(payload: "5=http"))
        #expect(http.isDynamic && !http.isDeclared)
        #expect(http.tags == [urlScheme: ["http"]])
        #expect(http.tags(of: urlScheme) == ["http"] && http.preferredFilenameExtension == nil)
        // Decoded back, the class is kept (before, only standard classes survived decoding).
        #expect(UTType(http.identifier, in: registry)?.tags == [urlScheme: ["http"]])
        let custom = TagClass(rawValue: "com.example.tag-class")
        let other = try #require(UTType(tag: "X", tagClass: custom, conformingTo: nil, in: registry))
        #expect(try DynamicTypeIdentifier.decodePayload(other.identifier) == "com.example.tag-class=X")
        #expect(other.tags == [custom: ["X"]])
    }
}
