import Foundation
import TestHelpers
import Testing
import UniformTypeIdentifiers

extension UniformTypeIdentifiersTests {
    /// Every constant whose page in Apple's documentation states it has that identifier and
    /// conforms to each type the page names (Fixtures/apple-documented-conformances.tsv, 114 of 140).
    /// Where a page disagrees with what macOS itself declares or answers, the row says so with the
    /// source, and we follow macOS: such a row must still disagree (a known issue that stopped
    /// occurring fails the test, so the row would be revisited).
    @Test func constantsAreAsApplesDocumentationStatesThem() throws {
        let file = TestSupport.packageRoot.appendingPathComponent("Tests/UniformTypeIdentifiersTests/Fixtures/apple-documented-conformances.tsv")
        let rows = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        let constants = Dictionary(AppleConstants.all.map { ($0.identifier, $0.type) }, uniquingKeysWith: { first, _ in first })
        for f in rows {
            #expect((5...6).contains(f.count), "\(f.first ?? ""): \(f.count) columns")
            guard f.count >= 5 else { continue }
            let type = try #require(constants[f[1]], "\(f[0]): no constant has the identifier \(f[1])")
            let parents = f[3] == "-" ? [] : f[3].split(separator: " ").map(String.init)
            let check = {
                #expect(type.identifier == f[2], "\(f[0]): the page says \(f[2])")
                for parent in parents {
                    let documented = try #require(UTType(parent), "\(f[0]): \(parent) is not declared here")
                    #expect(type.conforms(to: documented), "\(f[0]) (\(type.identifier)) does not conform to \(parent)")
                }
            }
            if f.count == 6 {
                withKnownIssue(Comment(rawValue: f[5])) { try check() }
            } else {
                try check()
            }
        }
        #expect(rows.count == 114)
    }
}
