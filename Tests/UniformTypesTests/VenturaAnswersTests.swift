import Foundation
import TestHelpers
import Testing
import UniformTypes

/// The catalog against answers a real Mac gave, not a table we wrote: RhetTbull/utitools generated
/// Fixtures/macos13-utitools on macOS 13 Ventura with Apple's own API (MIT; its README there says
/// how). `uti.csv` holds `UTType(filenameExtension:)` for every extension of up to six letters and
/// digits that a declared type answers (a dynamic answer is left out), with the type's preferred
/// extension; `uti_tree.json` holds `[type] + UTType.supertypes` of those types (empty where the
/// generating Mac knew no such type).
///
/// Counted as issue #29 counts: the rows whose answer is a `public.` or `com.apple.` type, which
/// are macOS's own; the other rows name types third-party apps on that Mac declared (Microsoft
/// Office, …), and their figure is printed for information only. Our answer is the engine's
/// `UTType(filenameExtension:)`, which conforms to `public.data` as Apple's does.
@Suite struct VenturaAnswersTests {
    static let folder = TestSupport.packageRoot.appendingPathComponent("Tests/UniformTypesTests/Fixtures/macos13-utitools")

    /// One `uti.csv` row.
    struct Row { var fileExtension: String, identifier: String, preferredExtension: String }

    static let rows: [Row] = {
        let text = (try? String(contentsOf: folder.appendingPathComponent("uti.csv"), encoding: .utf8)) ?? ""
        return text.split(whereSeparator: \.isNewline).dropFirst().compactMap { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return f.count == 3 ? Row(fileExtension: f[0], identifier: f[1], preferredExtension: f[2]) : nil
        }
    }()

    /// Lower-cased identifier → the type itself and its supertypes, lower-cased, where the tree has data.
    static let trees: [String: Set<String>] = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("uti_tree.json")),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: [String]] else { return [:] }
        var result: [String: Set<String>] = [:]
        for (id, tree) in object where !tree.isEmpty { result[id.lowercased()] = Set(tree.map { $0.lowercased() }) }
        return result
    }()

    static func isApples(_ identifier: String) -> Bool {
        let id = identifier.lowercased()
        return id.hasPrefix("public.") || id.hasPrefix("com.apple.")
    }

    struct Figures {
        var agreeing = 0, total = 0, differences: [String] = []
        var share: Double { Double(agreeing) / Double(max(total, 1)) }
        var text: String { String(format: "%.1f %% (%d of %d)", share * 100, agreeing, total) }
    }

    static func extensions(where include: (Row) -> Bool) -> Figures {
        var figures = Figures()
        let registry = CatalogTests.registry
        for row in rows where include(row) {
            figures.total += 1
            let ours = UTType(filenameExtension: row.fileExtension, in: registry)
            if ours?.identifier.lowercased() == row.identifier.lowercased() {
                figures.agreeing += 1
            } else {
                figures.differences.append(".\(row.fileExtension): macOS 13 \(row.identifier), ours \(ours?.identifier ?? "none")")
            }
        }
        return figures
    }

    static func supertypeSets() -> Figures {
        var figures = Figures()
        let registry = CatalogTests.registry
        for (id, tree) in trees.sorted(by: { $0.key < $1.key }) where isApples(id) {
            figures.total += 1
            guard let ours = UTType(id, in: registry), ours.isDeclared else {
                figures.differences.append("\(id): not declared here")
                continue
            }
            let expected = tree.subtracting([id]), found = Set(ours.supertypes.map { $0.identifier.lowercased() })
            if found == expected {
                figures.agreeing += 1
            } else {
                figures.differences.append("\(id): missing \(expected.subtracting(found).sorted()), extra \(found.subtracting(expected).sorted())")
            }
        }
        return figures
    }

    @Test func theListingIsThere() {
        #expect(Self.rows.count == 762)
        #expect(Self.trees.count > 400)
        #expect(Self.rows.filter { Self.isApples($0.identifier) }.count > 330)
    }

    @Test func answersAsMacOS13ForItsOwnTypes() {
        let extensions = Self.extensions { Self.isApples($0.identifier) }
        let supertypes = Self.supertypeSets()
        // Rows in other domains: types the catalog declares too (Adobe's, Microsoft's, the
        // OpenDocument ones, …) must answer alike; the rest are apps' own types that Mac had.
        let declared = Self.extensions { !Self.isApples($0.identifier) && UTType($0.identifier, in: CatalogTests.registry)?.isDeclared == true }
        let others = Self.extensions { !Self.isApples($0.identifier) }
        print("""
            macOS 13 (utitools): extensions \(extensions.text), supertype sets \(supertypes.text); \
            rows naming other domains' types \(others.text), of which types declared here \(declared.text)
            """)
        for line in extensions.differences + supertypes.differences + declared.differences { print("  differs: " + line) }
        #expect(extensions.share >= 0.97, "extensions: \(extensions.text)")
        #expect(supertypes.share >= 0.95, "supertype sets: \(supertypes.text)")
        #expect(declared.share >= 0.97, "other domains' types declared here: \(declared.text)")
    }

    /// The preferred extension macOS 13 reports for each of its own types the listing answers.
    @Test func preferredExtensionsAreMacOS13s() {
        var preferred: [String: String] = [:]
        for row in Self.rows where Self.isApples(row.identifier) { preferred[row.identifier.lowercased()] = row.preferredExtension }
        var differences: [String] = []
        for (id, expected) in preferred.sorted(by: { $0.key < $1.key }) {
            let ours = UTType(id, in: CatalogTests.registry)?.preferredFilenameExtension
            if ours != expected { differences.append("\(id): macOS 13 .\(expected), ours .\(ours ?? "none")") }
        }
        #expect(preferred.count > 200)
        #expect(differences.isEmpty, "\(differences)")
    }
}
