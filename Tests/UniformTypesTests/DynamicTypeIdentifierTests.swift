import Foundation
import Testing
import UniformTypes

/// ../shared/vectors/dynamic-uti.tsv, byte for byte, both ways.
@Suite struct DynamicTypeIdentifierTests {
    struct Vector: Sendable, CustomStringConvertible {
        var payload: String
        var identifier: String
        var description: String { payload }
    }

    static let vectors: [Vector] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/vectors/dynamic-uti.tsv")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 2 else { return nil }
            return Vector(payload: String(fields[0]), identifier: String(fields[1]))
        }
    }()

    @Test func vectorsArePresent() { #expect(Self.vectors.count >= 20) }

    @Test(arguments: vectors)
    func encodesAndDecodes(_ v: Vector) throws {
        #expect(DynamicTypeIdentifier.encode(payload: v.payload) == v.identifier)
        #expect(try DynamicTypeIdentifier.decodePayload(v.identifier) == v.payload)
        #expect(try DynamicTypeIdentifier.decodePayload(v.identifier.uppercased()) == v.payload)
    }

    @Test func tagsBuildTheSamePayloadsAsMacOS() throws {
        #expect(DynamicTypeIdentifier.identifier(tag: "SRT", tagClass: "public.filename-extension", conformingTo: "public.data") == "dyn.ah62d4rv4ge81g6xy")
        #expect(DynamicTypeIdentifier.identifier(tag: "rs", tagClass: "public.filename-extension", conformingTo: nil) == "dyn.age81e62")
        #expect(DynamicTypeIdentifier.identifier(tag: "rs", tagClass: "public.filename-extension", conformingTo: "public.plain-text") == "dyn.ah62d4sb4ge81e62")
        let spec = try DynamicTypeIdentifier.decode("dyn.ah62d4rv4gq80k3p0f3z0c8pbf71g87df")
        #expect(spec.conformsTo == ["public.data"])
        #expect(spec.tags.map(\.tagClass) == ["public.mime-type"] && spec.tags.map(\.tag) == ["dev.kaya/note"])
    }

    @Test func malformedIdentifiersAreErrors() {
        #expect(throws: DynamicTypeIdentifier.DecodingError.self) { try DynamicTypeIdentifier.decode("dyn.ai") }
        #expect(throws: DynamicTypeIdentifier.DecodingError.self) { try DynamicTypeIdentifier.decode("public.data") }
        // 0xFF 0xFE is not UTF-8.
        let bad = DynamicTypeIdentifier.encode(payload: "x").dropLast() + "9"
        #expect(throws: DynamicTypeIdentifier.DecodingError.self) { try DynamicTypeIdentifier.decode(String(bad)) }
    }

    @Test func identifierSyntax() {
        for valid in ["com.example.foo-bar", "com.exämple.foo", "public.jpeg", "A.B"] {
            #expect(TypeIdentifierSyntax.isValid(valid), "\(valid)")
        }
        for invalid in ["public/text", "public:text", "bad_type", "public..text", ".com.example", "*", "", "com.example."] {
            #expect(!TypeIdentifierSyntax.isValid(invalid), "\(invalid)")
        }
        #expect(TypeIdentifierSyntax.normalized("public.JPEG") == "public.jpeg")
    }
}
