import PropertyLists
import Testing
import UniformTypes

/// Types of two registries in which the same type number means different types (as after a
/// rebuild that added a declaration): every comparison answers by identifier, through the
/// receiver's registry, never by comparing numbers of two registries.
@Suite struct CrossRegistryTests {
    static func registry(_ types: [(String, [String], [String])]) -> TypeRegistry {
        TypeRegistry(declarations: types.map { id, parents, extensions in
            TypeDeclaration(identifier: id, conformsTo: parents, tags: extensions.isEmpty ? [:] : [.filenameExtension: extensions],
                            kind: .system, source: "test")
        })
    }

    /// item 0, data 1, image 2, png 3.
    let before = registry([("public.item", [], []), ("public.data", ["public.item"], []),
                           ("public.image", ["public.data"], []), ("public.png", ["public.image"], ["png"])])
    /// item 0, data 1, text 2, image 3, png 4: number 2 is text here and image above.
    let after = registry([("public.item", [], []), ("public.data", ["public.item"], []), ("public.text", ["public.data"], ["txt"]),
                          ("public.image", ["public.data"], []), ("public.png", ["public.image"], ["png"])])

    @Test func theSameNumberMeansDifferentTypes() throws {
        let image = try #require(UTType("public.image", in: before))
        let text = try #require(UTType("public.text", in: after))
        #expect(image.typeNumber == text.typeNumber)
        #expect(image != text)
    }

    @Test func conformanceAnswersByIdentifier() throws {
        let png = try #require(UTType("public.png", in: before))
        // Number 2 of `after` is public.text; number 2 of `before` (public.image) is a supertype of png.
        #expect(!png.conforms(to: try #require(UTType("public.text", in: after))))
        #expect(png.conforms(to: try #require(UTType("public.image", in: after))))
        #expect(png.conforms(to: try #require(UTType("public.item", in: after))))
        #expect(png.isSubtype(of: try #require(UTType("public.data", in: after))))
        #expect(try #require(UTType("public.image", in: after)).isSupertype(of: png))
        // And the other way: after's png (number 4) against before's image (number 2).
        #expect(try #require(UTType("public.png", in: after)).conforms(to: try #require(UTType("public.image", in: before))))
        #expect(!(try #require(UTType("public.text", in: after))).conforms(to: try #require(UTType("public.image", in: before))))
    }

    @Test func equalityAndHashingAcrossRegistries() throws {
        let a = try #require(UTType("public.PNG", in: before))
        let b = try #require(UTType("public.png", in: after))
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
        #expect(a.number(in: after) == b.typeNumber)
        #expect(b.number(in: before) == a.typeNumber)
        #expect(try #require(UTType("public.text", in: after)).number(in: before) == nil)
    }

    @Test func lookupsConstrainedByATypeOfAnotherRegistry() throws {
        let text = try #require(UTType("public.text", in: after))
        let image = try #require(UTType("public.image", in: after))
        #expect(UTType(filenameExtension: "png", conformingTo: image, in: before)?.identifier == "public.png")
        #expect(UTType.types(tag: "png", tagClass: .filenameExtension, conformingTo: image, in: before).map(\.identifier) == ["public.png"])
        // before does not know public.text: nothing declared there conforms to it.
        #expect(UTType.types(tag: "png", tagClass: .filenameExtension, conformingTo: text, in: before).isEmpty)
        let dynamic = try #require(UTType(filenameExtension: "png", conformingTo: text, in: before))
        #expect(dynamic.isDynamic && dynamic.identifier == DynamicTypeIdentifier.identifier(tag: "png", tagClass: "public.filename-extension", conformingTo: "public.text"))
        #expect(dynamic.conforms(to: text) && !dynamic.conforms(to: image))
    }

    @Test func supertypesOfAnotherRegistryCompareEqual() throws {
        let png = try #require(UTType("public.png", in: before))
        let expected: Set<UTType> = Set(["public.image", "public.data", "public.item"].compactMap { UTType($0, in: after) })
        #expect(png.supertypes == expected)
    }
}
