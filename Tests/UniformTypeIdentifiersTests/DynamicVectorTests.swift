import Foundation
import TestHelpers
import Testing
import UniformTypeIdentifiers

/// ../shared/vectors/dynamic-uti.tsv through Apple's API: every identifier decoded back
/// (`UTType(_:)`), and each row observed on macOS that a lookup produces there, an extension or
/// MIME type under `public.data` (`UTType(filenameExtension:)`, `UTType(mimeType:)`) or a tag
/// without a constraint (`UTType(tag:tagClass:conformingTo: nil)`). Computed rows only fix the
/// encoding: `txt` is one, and a lookup of it finds public.plain-text.
extension UniformTypeIdentifiersTests {
    struct DynamicVector: Sendable, CustomTestStringConvertible {
        var payload: String
        var identifier: String
        var observedOnMacOS: Bool
        var testDescription: String { payload }
    }

    static let dynamicVectors: [DynamicVector] = {
        let file = TestSupport.shared.appendingPathComponent("vectors/dynamic-uti.tsv")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return fields.count >= 3 ? DynamicVector(payload: String(fields[0]), identifier: String(fields[1]), observedOnMacOS: fields[2] == "macos") : nil
        }
    }()

    @Test func theDynamicVectorsAreThere() { #expect(Self.dynamicVectors.count >= 20) }

    @Test(arguments: dynamicVectors)
    func dynamicVectorThroughApplesAPI(_ vector: DynamicVector) throws {
        let decoded = try #require(UTType(vector.identifier))
        #expect(decoded.isDynamic && decoded.identifier == vector.identifier)
        guard vector.observedOnMacOS else { return }
        // The payload's codes (dynamic-uti.tsv header): tag classes 1-4, conformance targets 6 and B.
        let classes: [Substring: UTTagClass] = ["1": .filenameExtension, "2": .osType, "3": .mimeType, "4": .pasteboardType]
        let targets: [Substring: UTType] = ["6": .data, "B": .image]
        var pairs = vector.payload.split(separator: ":", maxSplits: 1)[...]
        var supertype: UTType?
        if let first = pairs.first, first.hasPrefix("?0=") {
            guard let target = targets[first.dropFirst(3)] else { return }   // a target spelled out: not via a constant
            supertype = target
            pairs = pairs.dropFirst()
        }
        guard pairs.count == 1, let pair = pairs.first, !pair.contains("\\"),
              let equals = pair.firstIndex(of: "="), let tagClass = classes[pair[..<equals]] else { return }
        let tag = String(pair[pair.index(after: equals)...])
        #expect(UTType(tag: tag, tagClass: tagClass, conformingTo: supertype)?.identifier == vector.identifier)
        if supertype == .data, tagClass == .filenameExtension {
            #expect(UTType(filenameExtension: tag)?.identifier == vector.identifier)
        }
        if supertype == .data, tagClass == .mimeType {
            #expect(UTType(mimeType: tag)?.identifier == vector.identifier)
        }
    }
}
