import Foundation
import Testing
@testable import UniformTypeIdentifiers
import UniformTypes

/// `Codable` in Apple's forms, and what bad input gives.
extension UniformTypeIdentifiersTests {
    @Test func constantsAreWrittenKeyedAndOthersBare() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(UTType.png), as: UTF8.self) == #"{"identifier":"public.png"}"#)
        // The same type made by identifier is the constant too (Apple uniques its types).
        #expect(String(decoding: try encoder.encode(UTType("public.PNG")!), as: UTF8.self) == #"{"identifier":"public.png"}"#)
        #expect(String(decoding: try encoder.encode(UTType(exportedAs: "com.example.drawing")), as: UTF8.self) == #""com.example.drawing""#)
        #expect(UTType.constantIdentifiers.count == 140)
    }

    @Test func unknownAndInvalidIdentifiersAreErrorsThatSayWhat() throws {
        for (json, message) in [(#""com.example.nobody""#, "no type with identifier 'com.example.nobody'"),
                                (#"{"identifier":"bad_type"}"#, "'bad_type' is not a type identifier: '_' at offset 3"),
                                ("42", ""), (#"{"constantIndex":3}"#, "")] {
            do {
                _ = try JSONDecoder().decode(UTType.self, from: Data(json.utf8))
                Issue.record("\(json) decoded")
            } catch let DecodingError.dataCorrupted(context) {
                #expect(context.debugDescription.contains(message), "\(json): \(context.debugDescription)")
            } catch {
                // A number or a keyed form without an identifier: the decoder's own type error.
                #expect(message.isEmpty, "\(json): \(error)")
            }
        }
    }

    @Test func aDecoderCanNameTheRegistry() throws {
        let registry = TypeRegistry(declarations: [
            TypeDeclaration(identifier: "public.data", kind: .system, source: "test"),
            TypeDeclaration(identifier: "com.example.only-here", conformsTo: ["public.data"], kind: .system, source: "test"),
        ])
        let decoder = JSONDecoder()
        decoder.userInfo[.typeRegistry] = registry
        let type = try decoder.decode(UTType.self, from: Data(#""com.example.only-here""#.utf8))
        #expect(type.registry === registry && type.isDeclared)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(UTType.self, from: Data(#""com.example.only-here""#.utf8)) }
    }

    @Test func tagClassesAreCodedAsTheirIdentifiers() throws {
        let tags: [UTTagClass: [String]] = UTType.jpeg.tags
        let decoded = try JSONDecoder().decode([UTTagClass: [String]].self, from: try JSONEncoder().encode(tags))
        #expect(decoded == tags && decoded[.filenameExtension]?.first == "jpeg")
    }
}
