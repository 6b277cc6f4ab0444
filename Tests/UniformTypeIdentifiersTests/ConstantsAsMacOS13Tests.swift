import Foundation
import TestHelpers
import Testing
import UniformTypeIdentifiers

extension UniformTypeIdentifiersTests {
    /// Every constant whose type macOS 13's own listing shows (Tests/UniformTypesTests/Fixtures/
    /// macos13-utitools/uti_tree.json: `UTType.supertypes` on a Mac) has exactly those supertypes
    /// here. The listing holds the types some extension answers, so it covers about half the
    /// constants; the identifiers of all of them are checked against Apple's documentation in
    /// AppleAPICode.swift.
    @Test func constantsConformAsOnMacOS13() throws {
        let file = TestSupport.packageRoot.appendingPathComponent("Tests/UniformTypesTests/Fixtures/macos13-utitools/uti_tree.json")
        let trees = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: [String]])
        var checked = 0
        for (type, identifier) in AppleConstants.all {
            guard let tree = trees[identifier], !tree.isEmpty else { continue }
            checked += 1
            let expected = Set(tree.map { $0.lowercased() }).subtracting([identifier])
            #expect(Set(type.supertypes.map { $0.identifier.lowercased() }) == expected, "\(identifier)")
        }
        #expect(checked >= 60)
    }
}
