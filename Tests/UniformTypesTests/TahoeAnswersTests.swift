import Foundation
import TestHelpers
import Testing
import UniformTypes

/// The catalog against what macOS 26.5.1 answered to `UTType(filenameExtension:)` for 770
/// extensions of programming and markup languages (Fixtures/macos26-answers.tsv, with its source):
/// a newer Mac than VenturaAnswersTests' and mostly other extensions. Three figures:
/// - rows answered by one of macOS's own types (`public.`, `com.apple.`);
/// - rows answered by another domain's type that the catalog declares too (a GLSL shader, …);
/// - rows macOS answers with a dynamic type: the catalog must not claim them either (on Linux the
///   shared MIME database may still type such a file; that is not the catalog's claim).
/// The remaining rows name types of apps that Mac had (Markdown and Guitar Pro editors, …);
/// they are printed, not counted.
@Suite struct TahoeAnswersTests {
    struct Row { var fileExtension: String, answer: String }

    static let rows: [Row] = {
        let url = TestSupport.packageRoot.appendingPathComponent("Tests/UniformTypesTests/Fixtures/macos26-answers.tsv")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: "\t").map(String.init)
            return line.hasPrefix("#") || f.count != 2 ? nil : Row(fileExtension: f[0], answer: f[1])
        }
    }()

    static func figures(of rows: [Row]) -> VenturaAnswersTests.Figures {
        var figures = VenturaAnswersTests.Figures()
        for row in rows {
            figures.total += 1
            let ours = UTType(filenameExtension: row.fileExtension, in: CatalogTests.registry)
            let answer = ours.map { $0.isDynamic ? "dynamic" : $0.identifier.lowercased() }
            if answer == row.answer.lowercased() {
                figures.agreeing += 1
            } else {
                figures.differences.append(".\(row.fileExtension): macOS 26 \(row.answer), ours \(ours?.identifier ?? "none")")
            }
        }
        return figures
    }

    @Test func theListingIsThere() {
        #expect(Self.rows.count == 770)
        #expect(Self.rows.filter { $0.answer == "dynamic" }.count == 651)
    }

    @Test func answersAsMacOS26() {
        let apples = Self.rows.filter { VenturaAnswersTests.isApples($0.answer) }
        let declaredHere = Self.rows.filter {
            $0.answer != "dynamic" && !VenturaAnswersTests.isApples($0.answer) && UTType($0.answer, in: CatalogTests.registry)?.isDeclared == true
        }
        let dynamic = Self.rows.filter { $0.answer == "dynamic" }
        let appsTypes = Self.rows.filter {
            $0.answer != "dynamic" && !VenturaAnswersTests.isApples($0.answer) && UTType($0.answer, in: CatalogTests.registry)?.isDeclared != true
        }
        let (a, d, n) = (Self.figures(of: apples), Self.figures(of: declaredHere), Self.figures(of: dynamic))
        print("""
            macOS 26.5.1: macOS's own types \(a.text), other domains' types declared here \(d.text), \
            dynamic \(n.text); \(appsTypes.count) rows name apps' types: \
            \(appsTypes.map { "\($0.fileExtension) \($0.answer)" }.joined(separator: ", "))
            """)
        for line in a.differences + d.differences + n.differences { print("  differs: " + line) }
        #expect(a.share >= 0.97, "macOS's own types: \(a.text)")
        #expect(d.share >= 0.97, "other domains' types declared here: \(d.text)")
        #expect(n.share >= 0.97, "dynamic: \(n.text)")
    }
}
