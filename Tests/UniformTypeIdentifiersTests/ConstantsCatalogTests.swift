import Foundation
import Testing
@testable import UniformTypeIdentifiers

/// Every constant is a type the catalog declares, except those newer than UTIs/, which are
/// answered as undeclared types that keep the parent Apple documents.
extension UniformTypeIdentifiersTests {
    /// Constants whose types UTIs/ does not declare yet, with the parent they answer instead
    /// (Apple's pages for jpegxl and linkPresentationMetadata; none documented for geoJSON).
    static var newerThanTheCatalog: [String: (constant: UTType, parent: UTType)] {
        ["public.jpeg-xl": (.jpegxl, .image), "public.geojson": (.geoJSON, .data),
         "com.apple.linkpresentation.metadata": (.linkPresentationMetadata, .data)]
    }

    @Test func everyConstantIsDeclaredOrKnownToBeMissing() throws {
        var missing: [String] = []
        for identifier in UTType.constantIdentifiers.sorted() {
            let type = try #require(UTType.constant(identifier))
            #expect(type.identifier == identifier && !type.isDynamic)
            if type.isDeclared { continue }
            missing.append(identifier)
            let fallback = try #require(Self.newerThanTheCatalog[identifier], "\(identifier) is not declared by UTIs/")
            #expect(fallback.constant == type && !fallback.constant.isDeclared && !fallback.constant.isDynamic)
            #expect(fallback.constant.conforms(to: fallback.parent) && fallback.constant.conforms(to: .item), "\(identifier)")
        }
        // When the catalog gains one of these, the fallback is no longer used: fine, but say so.
        #expect(Set(missing).isSubset(of: Self.newerThanTheCatalog.keys))
    }

    @Test func constantsFollowTheCatalogsConformances() {
        // A few relations from the catalog, through the constants.
        #expect(UTType.heics.conforms(to: .image))
        #expect(UTType.css.conforms(to: .text))
        #expect(UTType.tarArchive.conforms(to: .archive) && UTType.tarArchive.conforms(to: .data))
        #expect(UTType.makefile.conforms(to: .script))
        #expect(UTType.dng.conforms(to: .image))
        #expect(UTType.swiftSource.conforms(to: .sourceCode))
        #expect(UTType.applicationBundle.conforms(to: .application) && UTType.applicationBundle.conforms(to: .package))
    }
}
