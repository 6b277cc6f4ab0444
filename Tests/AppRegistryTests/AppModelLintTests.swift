import AppRegistry
import Foundation
import PropertyLists
import TestHelpers
import Testing
import UniformTypes

/// The app model and the linter read an Info.plist the same way: what lint accepts is what the
/// model (and so the registry, the chooser and the receiver) takes, and what the model ignores
/// lint reports. Also the checks added with the model: Apple's reserved public. domain, URL
/// schemes, silencing rules, and build variables at registration.
@Suite struct AppModelLintTests {
    func lint(_ xml: String, others: [AppBundle] = [], ignoring: Set<LintRule> = []) throws -> [LintFinding] {
        var options = PropertyListReadOptions()
        options.recordsLocations = true
        let document = try PropertyListReader.read(Array(xml.utf8), options: options)
        return InfoPlistLinter(catalog: TestCatalog.registry(), otherApps: others, ignoring: ignoring).lint(document)
    }

    func plist(_ xml: String) throws -> PropertyList { try PropertyListReader.read(Array(xml.utf8)).value }

    static let roles = """
        <plist><dict><key>CFBundleIdentifier</key><string>com.example.viewer</string>
        <key>LSSupportsOpeningDocumentsInPlace</key><string>YES</string>
        <key>CFBundleDocumentTypes</key><array>
          <dict><key>CFBundleTypeRole</key><string>QLGenerator</string><key>LSHandlerRank</key><string>Default</string>
            <key>LSItemContentTypes</key><array><string>public.data</string></array></dict>
          <dict><key>CFBundleTypeRole</key><string>Opener</string><key>LSHandlerRank</key><string>Owner</string>
            <key>LSItemContentTypes</key><array><string>public.plain-text</string></array></dict>
          <dict><key>CFBundleTypeRole</key><string>Viewer</string><key>LSHandlerRank</key><string>Primary</string>
            <key>LSItemContentTypes</key><array><string>public.jpeg</string></array></dict>
          <dict><key>CFBundleTypeRole</key><string>Editor</string><key>LSHandlerRank</key><string>Alternate</string>
            <key>LSItemContentTypes</key><array><string>public.png</string></array></dict>
        </array></dict></plist>
        """

    @Test func rolesAndRanksReadTheSameWayByLintAndModel() throws {
        let findings = try lint(Self.roles)
        // QLGenerator is a role LaunchServices knows: no finding; the model knows it opens nothing.
        #expect(!findings.contains { $0.message.contains("QLGenerator\"") })
        #expect(findings.contains { $0.rule == .role && $0.severity == .error && $0.message.contains("\"Opener\"") })
        #expect(findings.contains { $0.rule == .rank && $0.severity == .error && $0.message.contains("\"Primary\"") })
        let app = AppBundle(plist: try plist(Self.roles))
        #expect(app.claims.map(\.opensDocuments) == [false, false, false, true])
        #expect(app.claims[0].whyItOpensNothing?.contains("QLGenerator") == true)
        #expect(app.claims[1].whyItOpensNothing?.contains("Opener") == true)
        // A string macOS reads as a boolean: the model takes it, lint warns and says how it reads.
        #expect(app.opensDocumentsInPlace)
        #expect(findings.contains { $0.rule == .toleratedBoolean && $0.severity == .warning && $0.message.contains("macOS reads it as true") })
    }

    @Test func appleReservedPublicDomain() throws {
        let findings = try lint("""
            <plist><dict><key>CFBundleIdentifier</key><string>com.example.app</string>
            <key>UTImportedTypeDeclarations</key><array>
              <dict><key>UTTypeIdentifier</key><string>public.png</string><key>UTTypeConformsTo</key><string>public.image</string></dict>
              <dict><key>UTTypeIdentifier</key><string>public.made-up-format</string><key>UTTypeConformsTo</key><string>public.data</string></dict>
            </array></dict></plist>
            """)
        #expect(findings.filter { $0.rule == .reservedPublicDomain }.map(\.message).count == 1)
        #expect(findings.contains { $0.rule == .reservedPublicDomain && $0.severity == .error && $0.message.contains("public.made-up-format") })
        #expect(!findings.contains { $0.message.contains("public.png") })
    }

    @Test func urlSchemesAcrossApps() throws {
        let other = AppBundle(plist: try plist("""
            <plist><dict><key>CFBundleIdentifier</key><string>com.example.other</string>
            <key>CFBundleURLTypes</key><array><dict><key>CFBundleURLSchemes</key><array><string>shared</string></array></dict></array>
            </dict></plist>
            """))
        let queried = (0..<52).map { "<string>q\($0)</string>" }.joined()
        let findings = try lint("""
            <plist><dict><key>CFBundleIdentifier</key><string>com.example.mine</string>
            <key>CFBundleURLTypes</key><array><dict><key>CFBundleURLName</key><string>com.example.mine</string>
              <key>CFBundleURLSchemes</key><array><string>my_scheme</string><string>SHARED</string><string>com.example.other</string><string>9lives</string></array>
              <key>CFBundleTypeRole</key><string>Launcher</string></dict></array>
            <key>LSApplicationQueriesSchemes</key><array>\(queried)</array>
            </dict></plist>
            """, others: [other])
        #expect(findings.contains { $0.rule == .urlScheme && $0.severity == .error && $0.message.contains("\"my_scheme\"") })
        #expect(findings.contains { $0.rule == .urlScheme && $0.message.contains("\"9lives\"") && $0.message.contains("start with a letter") })
        #expect(findings.contains { $0.rule == .contestedScheme && $0.message.contains("SHARED is also claimed by com.example.other") })
        #expect(findings.contains { $0.rule == .schemeIsBundleIdentifier && $0.message.contains("com.example.other") })
        #expect(findings.contains { $0.rule == .role && $0.message.contains("\"Launcher\"") })
        #expect(findings.contains { $0.rule == .queriedSchemes && $0.message.contains("52 schemes; only the first 50 count") })
        // Silenced rules are not reported.
        let quiet = try lint("""
            <plist><dict><key>CFBundleIdentifier</key><string>com.example.mine</string>
            <key>CFBundleURLTypes</key><array><dict><key>CFBundleURLSchemes</key><array><string>shared</string></array></dict></array>
            </dict></plist>
            """, others: [other], ignoring: [.contestedScheme])
        #expect(quiet.isEmpty, "\(quiet)")
    }

    @Test func activityTypesAcrossApps() throws {
        let firefox = AppBundle(plist: try plist("""
            <plist><dict><key>CFBundleIdentifier</key><string>org.mozilla.ios.Firefox</string>
            <key>NSUserActivityTypes</key><array><string>org.mozilla.ios.firefox.browsing</string><string>QuickActionIntent</string></array>
            </dict></plist>
            """))
        let findings = try lint("""
            <plist><dict><key>CFBundleIdentifier</key><string>com.brave.ios.browser</string>
            <key>NSUserActivityTypes</key><array>
              <string>com.brave.ios.browsing</string><string>org.mozilla.ios.firefox.browsing</string><string>QuickActionIntent</string>
              <string>browsing</string><string>com.brave.ios.browsing</string><string></string><integer>3</integer>
            </array></dict></plist>
            """, others: [firefox])
        let activity = findings.filter { $0.rule == .activityType }
        #expect(activity.contains { $0.severity == .warning && $0.message.contains("in the domain org.mozilla, not this app's (com.brave)") })
        #expect(activity.contains { $0.message.contains("\"browsing\" is not a reverse-DNS name") })
        #expect(activity.contains { $0.message.contains("com.brave.ios.browsing is declared again") })
        #expect(activity.contains { $0.severity == .error && $0.message.contains("empty activity type") })
        #expect(activity.count == 4, "\(activity)")
        #expect(findings.contains { $0.rule == .valueType && $0.severity == .error && $0.message.contains("an activity type must be a string") })
        // Firefox's type is contested; an intent's class name is shared by design, so it is not.
        let contested = findings.filter { $0.rule == .contestedActivityType }
        #expect(contested.count == 1 && contested.first?.message.contains("org.mozilla.ios.firefox.browsing is also declared by org.mozilla.ios.Firefox") == true)
        // The value must be an array; the model reads only its strings.
        let lone = try lint("<plist><dict><key>NSUserActivityTypes</key><string>com.example.one</string></dict></plist>")
        #expect(lone.contains { $0.rule == .valueType && $0.message.contains("must be an array of strings") })
        #expect(ActivityType.kind(of: "INSendMessageIntent") == .intent && ActivityType.kind(of: "org.kiwix.kiwix.article-view") == .reverseDNS)
        #expect(ActivityType.kind(of: "com..x") == .other && ActivityType.kind(of: "1com.example.x") == .other)
    }

    @Test func lintCommandSummaryAndIgnore() throws {
        let dir = try TestSupport.temporaryDirectory()
        let file = dir.appendingPathComponent("Info.plist")
        try Data("""
            <plist><dict><key>CFBundleIdentifier</key><string>com.example.x</string>
            <key>CFBundleDocumentTypes</key><array><dict><key>LSItemContentTypes</key><array><string>public.png</string></array></dict>
              <dict><key>LSItemContentTypes</key><array><string>public.jpeg</string></array></dict></array></dict></plist>
            """.utf8).write(to: file)
        let run = try TestSupport.run(TestSupport.uti, ["lint", file.path])
        #expect(run.status == 0 && run.out.contains("2 document types without LSHandlerRank") && run.out.hasSuffix("1 file: 0 errors, 1 warning\n"), "\(run.out)")
        let silenced = try TestSupport.run(TestSupport.uti, ["lint", "--ignore", "missing-rank", file.path])
        #expect(silenced.out == "1 file: 0 errors, 0 warnings; silenced: missing-rank\n", "\(silenced.out)")
        let unknown = try TestSupport.run(TestSupport.uti, ["lint", "--ignore", "missing-ranks", file.path])
        #expect(unknown.status == 2 && unknown.stderr.contains("--ignore takes one of") && unknown.stderr.contains("not 'missing-ranks'"))
    }

    @Test func registerResolvesBuildVariables() throws {
        let dir = try TestSupport.temporaryDirectory()
        let bundle = dir.appendingPathComponent("Built.app")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Data("""
            <plist><dict><key>CFBundleIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
            <key>UTExportedTypeDeclarations</key><array><dict><key>UTTypeIdentifier</key><string>$(PRODUCT_BUNDLE_IDENTIFIER).doc</string>
              <key>UTTypeConformsTo</key><string>public.data</string>
              <key>UTTypeTagSpecification</key><dict><key>public.filename-extension</key><string>builtdoc</string></dict></dict></array>
            </dict></plist>
            """.utf8).write(to: bundle.appendingPathComponent("Info.plist"))
        let root = dir.appendingPathComponent("device").path
        let plain = try TestSupport.run(TestSupport.uti, ["--root", root, "register", "--create-root", bundle.path])
        #expect(plain.out.contains("registered Built.app"), "\(plain.out)\(plain.stderr)")
        #expect(try TestSupport.run(TestSupport.uti, ["--root", root, "unregister", "Built.app"]).status == 0)
        let defined = try TestSupport.run(TestSupport.uti, ["--root", root, "register", "--define", "PRODUCT_BUNDLE_IDENTIFIER=com.example.built", bundle.path])
        #expect(defined.out.contains("registered com.example.built"), "\(defined.out)\(defined.stderr)")
        #expect(try TestSupport.run(TestSupport.uti, ["--root", root, "for-extension", "builtdoc"]).out == "com.example.built.doc\n")
        #expect(FileManager.default.fileExists(atPath: root + "/Apps/.com.example.built.variables.plist"))
        // Unregistering removes the variables too.
        #expect(try TestSupport.run(TestSupport.uti, ["--root", root, "unregister", "com.example.built"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: root + "/Apps/.com.example.built.variables.plist"))
    }
}
