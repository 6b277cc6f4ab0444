import AppRegistry
import Handlers
import PropertyLists
import Testing
import UniformTypes
@testable import URLSchemes

/// The registry's index of schemes, the documented order for a contested scheme, the user's
/// defaults, and canOpenURL with the 50-entry limit.
@Suite struct SchemeDirectoryTests {
    @Test func theIndexFindsHandlersIgnoringCaseAndSkipsWhatOpensNothing() throws {
        let device = try SchemeDevice([
            .init(identifier: "com.example.a", urlTypes: [(["AppA", "shared"], "Editor")]),
            .init(identifier: "com.example.b", urlTypes: [(["appb"], nil), (["declared-only"], "None"), (["1bad"], "Viewer")]),
            .init(identifier: "com.example.c", urlTypes: [(["shared"], "Viewer"), (["weird"], "Bogus")]),
            .init(identifier: "com.example.plain"),
        ])
        let registry = try device.registry()
        func handlers(_ scheme: String) -> [String] { registry.apps(handlingScheme: scheme).compactMap(registry.appIdentifier) }
        #expect(handlers("appa") == ["com.example.a"])
        #expect(handlers("APPA") == ["com.example.a"])
        #expect(handlers("appb") == ["com.example.b"])
        #expect(Set(handlers("shared")) == ["com.example.a", "com.example.c"])
        #expect(handlers("declared-only").isEmpty)      // role None claims nothing
        #expect(handlers("1bad").isEmpty)               // not a valid scheme
        #expect(handlers("weird").isEmpty)              // unknown role
        #expect(handlers("nosuch").isEmpty)
        #expect(registry.hasApp(handlingScheme: "Shared") && !registry.hasApp(handlingScheme: "shared2"))
        #expect(registry.handledSchemes == ["appa", "appb", "shared"])
    }

    /// The order of docs/url-schemes.md: default, the app named by the scheme, role, identifier.
    @Test func aContestedSchemeHasOneDocumentedOrder() throws {
        let device = try SchemeDevice([
            .init(identifier: "com.zeta.viewer", urlTypes: [(["contested"], "Viewer")]),
            .init(identifier: "com.alpha.shell", urlTypes: [(["contested"], "Shell")]),
            .init(identifier: "com.mid.editor", urlTypes: [(["contested", "com.example.owner"], "Editor")]),
            .init(identifier: "com.aaa.editor", urlTypes: [(["contested"], "Editor")]),
            .init(identifier: "com.example.owner", urlTypes: [(["com.example.owner"], "Viewer")]),
        ])
        var directory = SchemeDirectory(registry: try device.registry())
        #expect(directory.resolve("contested").candidates.map(\.app.bundleIdentifier) ==
                ["com.aaa.editor", "com.mid.editor", "com.zeta.viewer", "com.alpha.shell"])
        #expect(directory.resolve("Contested").isContested)
        // An app whose bundle identifier is the scheme wins over a hijacking Editor.
        #expect(directory.resolve("com.example.owner").candidates.map(\.app.bundleIdentifier) == ["com.example.owner", "com.mid.editor"])
        #expect(directory.resolve("com.example.owner").handler?.isNamedByScheme == true)
        // The user's default comes first; a default for an app that does not claim it is ignored.
        var defaults = try SchemeDefaults(root: device.root)
        try defaults.set("CONTESTED", to: "com.alpha.shell")
        try defaults.set("com.example.owner", to: "com.zeta.viewer")
        directory = SchemeDirectory(registry: try device.registry(), defaults: try SchemeDefaults(root: device.root))
        #expect(directory.resolve("contested").candidates.map(\.app.bundleIdentifier).first == "com.alpha.shell")
        #expect(directory.resolve("contested").handler?.reason.contains("the user's default") == true)
        #expect(directory.resolve("com.example.owner").handler?.app.bundleIdentifier == "com.example.owner")
        #expect(directory.resolve("com.example.owner").staleDefault == "com.zeta.viewer")
        // The file is the one documented, schemes lowercased.
        let stored = try PropertyListReader.read(contentsOf: .init(SchemeDefaults.file(on: device.root))).value
        #expect(stored["contested"]?.stringValue == "com.alpha.shell")
    }

    @Test func canOpenURLAnswersForTheSenderWithTheFiftyEntryLimit() throws {
        let queried = (1...60).map { "s\($0)" }
        let device = try SchemeDevice([
            .init(identifier: "com.example.sender", queries: ["handled", "unhandled"] + queried),
            .init(identifier: "com.example.handler", urlTypes: [(["handled"] + queried, "Editor")]),
        ])
        let directory = SchemeDirectory(registry: try device.registry())
        func answer(_ url: String, _ sender: String = "com.example.sender") throws -> CanOpenAnswer {
            directory.canOpen(try SchemeURL(url), from: sender)
        }
        #expect(try answer("HANDLED://x") == .yes(scheme: "handled", handler: "com.example.handler"))
        #expect(try answer("unhandled:") == .noHandler(scheme: "unhandled"))
        #expect(try answer("other:") == .notQueried(scheme: "other", sender: "com.example.sender"))
        #expect(try answer("s48:") .canOpen)                      // entry 50
        #expect(try answer("s49:") == .pastQueryLimit(scheme: "s49", sender: "com.example.sender", position: 51))
        #expect(try answer("handled:", "com.example.nobody") == .unknownSender("com.example.nobody"))
        #expect(try answer("s49:").description.contains("only the first 50 count"))
        // The prepared question answers the same.
        let sender = try #require(AppBundle.registered("com.example.sender", in: try device.registry()))
        let question = directory.question(from: sender)
        // Past the filter (same length, first and last byte as a yes), control bytes that set
        // bit 5 turn into digits ("s4\u{18}" would read "s48"), colons past the eighth byte, no colon.
        for url in ["handled://x", "unhandled:", "other:", "s48:", "s49:", "Handled:y", "bad url", "1x:",
                    "HANDLED:", "hanxxed:", "s4\u{18}:", "s\u{14}8:", "\u{13}48:", "s48", "s", ":", "", "s4_8:", "s4-8:",
                    "handled-twelve-bytes-long:", "unhandled:x", "8handled:", "handled\u{0}:", "s48:://"] {
            let expected = (try? SchemeURL(url)).map { directory.canOpen($0, from: sender).canOpen } ?? false
            #expect(question.canOpen(url) == expected, "\(url)")
        }
    }

    /// The prepared question finds a scheme's colon eight bytes at a time, then reads on byte by
    /// byte: schemes of every length around that boundary answer as the directory does.
    @Test func theQuestionAnswersSchemesOfEveryLength() throws {
        let schemes = (1...20).map { "s" + String(repeating: "x", count: $0 - 1) }
        let device = try SchemeDevice([
            .init(identifier: "com.example.sender", queries: schemes.filter { $0.count % 2 == 1 } + ["com.example.app2+x"]),
            .init(identifier: "com.example.handler", urlTypes: [(schemes + ["com.example.app2+x"], "Viewer")]),
        ])
        let directory = SchemeDirectory(registry: try device.registry())
        let sender = try #require(AppBundle.registered("com.example.sender", in: try device.registry()))
        let question = directory.question(from: sender)
        for scheme in schemes + ["com.example.app2+x", "COM.Example.App2+X", "com.example.app2+y", "com.example.app2\u{0B}x"] {
            for url in [scheme + ":", scheme + "://x/y?z", scheme.uppercased() + ":a", scheme] {
                let expected = (try? SchemeURL(url)).map { directory.canOpen($0, from: sender).canOpen } ?? false
                #expect(question.canOpen(url) == expected, "\(url)")
            }
        }
        #expect(question.canOpen(schemes[18] + ":") && !question.canOpen(schemes[19] + ":"))   // 19 bytes queried, 20 not
    }

    /// 1,000 apps, each with its own scheme: every hit found, no miss, as GIO's benchmark asks.
    @Test func aThousandAppsAnswerExactly() throws {
        var apps = (0..<1000).map { SchemeDevice.App(identifier: "org.example.App\($0)", urlTypes: [(["app\($0)"], "Viewer")]) }
        apps.append(.init(identifier: "org.example.asker", queries: (0..<50).map { "app\($0 * 20)" }))
        let device = try SchemeDevice(apps)
        let registry = try device.registry()
        #expect(registry.appRecordCount == 1001)
        for i in 0..<1000 {
            #expect(registry.apps(handlingScheme: "app\(i)").compactMap(registry.appIdentifier) == ["org.example.App\(i)"])
            #expect(!registry.hasApp(handlingScheme: "nosuch\(i)"))
        }
        let asker = try #require(AppBundle.registered("org.example.asker", in: registry))
        let question = SchemeDirectory(registry: registry).question(from: asker)
        #expect((0..<1000).filter { question.canOpen("app\($0)://") } == (0..<50).map { $0 * 20 })
    }

    @Test func theLinterReportsRolesThatOpenNothing() throws {
        let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>CFBundleIdentifier</key><string>com.example.lint</string>
        <key>CFBundleURLTypes</key><array>
          <dict><key>CFBundleURLSchemes</key><array><string>ok</string></array><key>CFBundleTypeRole</key><string>None</string></dict>
        </array>
        </dict></plist>
        """
        var options = PropertyListReadOptions()
        options.recordsLocations = true
        let document = try PropertyListReader.read(Array(plist.utf8), options: options)
        let findings = InfoPlistLinter(catalog: RegistryStore.catalogOnly(SchemeDevice.catalog)).lint(document)
        #expect(findings.contains { $0.rule == .role && $0.severity == .warning && $0.message.contains("declares these schemes without handling them") })
    }
}
