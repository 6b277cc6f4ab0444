import AppRegistry
import Foundation
import PropertyLists
import Testing
import TestHelpers
import UniformTypes

@Suite struct EntitlementsLintTests {
    func lint(_ text: String) throws -> [LintFinding] {
        var options = PropertyListReadOptions()
        options.recordsLocations = true
        let document = try PropertyListReader.read(Array(text.utf8), options: options)
        return InfoPlistLinter(catalog: TypeRegistry(declarations: [])).lint(entitlements: document)
    }

    func plist(_ body: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\(body)\n</dict>\n</plist>\n"
    }

    @Test func validGroupsPass() throws {
        #expect(try lint(plist("<key>com.apple.security.application-groups</key><array><string>group.com.example.notes</string></array>")).isEmpty)
        let team = "<key>com.apple.developer.team-identifier</key><string>ABCDE12345</string><key>com.apple.security.application-groups</key><array><string>ABCDE12345.com.example</string></array>"
        #expect(try lint(plist(team)).isEmpty)
    }

    @Test func badGroupsAreFoundWithTheirLine() throws {
        let text = plist("""
        <key>com.apple.security.application-groups</key>
        <array>
            <string>com.example.notes</string>
            <string>group.com.example.ok</string>
            <string>group.com.example.ok</string>
            <integer>3</integer>
        </array>
        <key>com.apple.security.application-group</key><array/>
        """)
        let findings = try lint(text)
        let rules = findings.map(\.rule)
        #expect(rules.filter { $0 == .applicationGroups }.count == 3)
        #expect(rules.contains(.unknownKey))
        let first = try #require(findings.first { $0.message.contains("com.example.notes") })
        #expect(first.severity == .error && first.message.contains("does not start with \"group.\""))
        #expect(first.formatted(file: "App.entitlements").hasPrefix("App.entitlements:6:"))
        #expect(findings.contains { $0.severity == .warning && $0.message.contains("listed again") })
        #expect(findings.contains { $0.message.contains("did you mean com.apple.security.application-groups") })
    }

    @Test func wrongTypesAreErrors() throws {
        let findings = try lint(plist("<key>com.apple.security.application-groups</key><string>group.a</string><key>com.apple.developer.team-identifier</key><integer>1</integer>"))
        #expect(Set(findings.map(\.rule)) == [.applicationGroups, .teamIdentifier])
        #expect(findings.allSatisfy { $0.severity == .error })
    }

    @Test func utiLintChecksEntitlementsFilesAsEntitlements() throws {
        let sample = TestSupport.packageRoot.appendingPathComponent("Samples/AppGroups/Apps/GroupNotes.app/GroupNotes.entitlements").path
        let good = try TestSupport.run(TestSupport.uti, ["lint", sample])
        #expect(good.status == 0 && good.out.hasSuffix("1 file: 0 errors, 0 warnings\n"), "\(good.out)\(good.stderr)")
        let bad = try TestSupport.temporaryDirectory().appendingPathComponent("Bad.entitlements")
        try Data(plist("<key>com.apple.security.application-groups</key><array><string>notes</string></array>").utf8).write(to: bad)
        let run = try TestSupport.run(TestSupport.uti, ["lint", bad.path])
        #expect(run.status == 1 && run.out.contains("(application-groups)"), "\(run.out)")
    }
}
