import Foundation
import TestHelpers
import Testing

/// Every library module has a DocC catalog (Sources/MODULE/MODULE.docc) whose page is the
/// module's, and every guide it lists is a file in the catalog that resolves to one of docs/*.md
/// with a title DocC reads. scripts/build-docs (run by .ci/run) builds them with the DocC plugin.
@Suite struct DocumentationCatalogTests {
    static var sources: URL { TestSupport.packageRoot.appendingPathComponent("Sources") }

    /// The library modules: every target folder that is neither a tool (main.swift) nor a C module.
    static var libraries: [String] {
        let fm = FileManager.default
        return ((try? fm.contentsOfDirectory(atPath: sources.path)) ?? []).filter { name in
            let folder = sources.appendingPathComponent(name).path
            let isC = name.hasPrefix("C") && name.dropFirst().first?.isUppercase == true
            return !isC && !fm.fileExists(atPath: folder + "/main.swift")
        }.sorted()
    }

    @Test func everyLibraryHasACatalogWhoseGuidesResolve() throws {
        #expect(Self.libraries.count >= 20)
        for module in Self.libraries {
            let catalog = Self.sources.appendingPathComponent("\(module)/\(module).docc")
            let page = catalog.appendingPathComponent("\(module).md")
            guard let text = try? String(contentsOf: page, encoding: .utf8) else { Issue.record("\(module): no \(page.path)"); continue }
            #expect(text.hasPrefix("# ``\(module)``"), "\(module): the page must be the module's")
            for line in text.split(separator: "\n") where line.hasPrefix("- <doc:") {
                let name = line.dropFirst("- <doc:".count).dropLast()
                let guide = catalog.appendingPathComponent("\(name).md").resolvingSymlinksInPath()
                guard let article = try? String(contentsOf: guide, encoding: .utf8) else { Issue.record("\(module): guide \(name) does not resolve"); continue }
                #expect(article.hasPrefix("# "), "\(module): \(name) must start with its title for DocC")
            }
        }
    }
}
