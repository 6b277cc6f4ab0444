import AppRegistry
import Foundation
import PropertyLists
import TestHelpers
import Testing
import UniformTypes
@testable import Handlers

/// The handler order, starting with ../shared/vectors/type-behaviour.md #15.
@Suite struct HandlerRankingTests {
    static func registry() -> TypeRegistry {
        func t(_ id: String, _ parents: [String], ext: [String] = [], mime: [String] = []) -> TypeDeclaration {
            var tags: [TagClass: [String]] = [:]
            if !ext.isEmpty { tags[.filenameExtension] = ext }
            if !mime.isEmpty { tags[.mimeType] = mime }
            return TypeDeclaration(identifier: id, conformsTo: parents, tags: tags, kind: .system, source: "test")
        }
        return TypeRegistry(declarations: [
            t("public.item", []), t("public.content", []), t("public.data", ["public.item"]),
            t("public.image", ["public.data", "public.content"]),
            t("public.jpeg", ["public.image"], ext: ["jpeg", "jpg"], mime: ["image/jpeg"]),
            t("public.text", ["public.data", "public.content"]),
            t("public.plain-text", ["public.text"], ext: ["txt"], mime: ["text/plain"]),
        ])
    }

    let registry = Self.registry()

    func claims(_ xml: String) throws -> [DocumentTypeClaim] {
        DocumentTypeClaim.claims(in: try PropertyListReader.read(Array("<plist><dict><key>CFBundleDocumentTypes</key><array>\(xml)</array></dict></plist>".utf8)).value)
    }

    func entry(role: String? = "Editor", rank: String?, types: [String]) -> String {
        var s = "<dict>"
        if let role { s += "<key>CFBundleTypeRole</key><string>\(role)</string>" }
        if let rank { s += "<key>LSHandlerRank</key><string>\(rank)</string>" }
        s += "<key>LSItemContentTypes</key><array>" + types.map { "<string>\($0)</string>" }.joined() + "</array></dict>"
        return s
    }

    @Test func vector15() throws {
        let apps: [(bundleIdentifier: String, claims: [DocumentTypeClaim])] = [
            ("A", try claims(entry(rank: "Owner", types: ["public.jpeg"]))),
            ("B", try claims(entry(rank: nil, types: ["public.image"]))),
            ("C", try claims(entry(rank: "Alternate", types: ["public.jpeg"]))),
            ("D", try claims(entry(rank: "Default", types: ["public.data"]))),
            ("E", try claims(entry(rank: "None", types: ["public.jpeg"]))),
        ]
        let jpeg = UTType("public.jpeg", in: registry)!
        let ranked = HandlerRanking(registry: registry).rank(type: jpeg, fileName: "photo.jpg", apps: apps)
        #expect(Set(ranked.map(\.bundleIdentifier)) == ["A", "B", "C", "D"])
        #expect(ranked.first?.bundleIdentifier == "A")
        #expect(ranked.last?.bundleIdentifier == "D")
        // Specific claims by rank: Owner (A), Default (B, distance 1), Alternate (C); then the wildcard.
        #expect(ranked.map(\.bundleIdentifier) == ["A", "B", "C", "D"])
        #expect(ranked[1].distance == 1 && ranked[1].claim.rank == .default)
        #expect(ranked[3].isWildcard && ranked[3].reason.contains("a wildcard claim"))
    }

    @Test func rolesAndLegacyKeys() throws {
        let apps: [(bundleIdentifier: String, claims: [DocumentTypeClaim])] = [
            ("shell", try claims(entry(role: "Shell", rank: "Owner", types: ["public.jpeg"]))),
            ("none", try claims(entry(role: "None", rank: "Owner", types: ["public.jpeg"]))),
            ("viewer", try claims(entry(role: "Viewer", rank: "Default", types: ["public.jpeg"]))),
            ("editor", try claims(entry(role: "Editor", rank: "Default", types: ["public.jpeg"]))),
            // LSItemContentTypes present: the legacy extension list of the same entry is ignored.
            ("mixed", try claims("<dict><key>CFBundleTypeRole</key><string>Editor</string><key>LSItemContentTypes</key><array><string>public.plain-text</string></array><key>CFBundleTypeExtensions</key><array><string>jpg</string></array></dict>")),
            ("legacy", try claims("<dict><key>CFBundleTypeRole</key><string>Viewer</string><key>CFBundleTypeExtensions</key><array><string>JPG</string></array></dict>")),
            ("star", try claims("<dict><key>CFBundleTypeRole</key><string>Viewer</string><key>CFBundleTypeExtensions</key><array><string>*</string></array></dict>")),
        ]
        let jpeg = UTType("public.jpeg", in: registry)!
        let ranked = HandlerRanking(registry: registry).rank(type: jpeg, fileName: "photo.jpg", apps: apps)
        #expect(ranked.map(\.bundleIdentifier) == ["editor", "legacy", "viewer", "star"])
        // The user's default for a supertype wins.
        let withDefault = HandlerRanking(registry: registry).rank(type: jpeg, fileName: "photo.jpg", apps: apps, userDefaults: ["public.image": "star"])
        #expect(withDefault.first?.bundleIdentifier == "star" && withDefault.first?.isUserDefault == true)
    }

    /// The ranking over registry numbers (what `openin` uses) answers exactly as the one over
    /// identifier strings, for the 31 corpus apps and every type of the catalog.
    @Test func numberedIndexAgreesWithTheStringIndex() throws {
        let device = DeviceRoot(path: try TestSupport.temporaryDirectory().path)
        // Without the machine's shared MIME database: the dynamic types below must stay dynamic.
        let registry = try RegistryStore.open(root: device, catalog: TestSupport.packageRoot.appendingPathComponent("UTIs").path, mimeDirectories: [])
        let bundles = try FileManager.default.contentsOfDirectory(atPath: TestSupport.infoPlistCorpus.path).filter { $0.hasSuffix(".plist") }.sorted().map { name in
            AppBundle(plist: try PropertyListReader.read(contentsOf: .init(TestSupport.infoPlistCorpus.appendingPathComponent(name).path)).value,
                      fallbackIdentifier: name)
        }
        let plain = HandlerIndex(bundles: bundles), numbered = HandlerIndex(bundles: bundles, registry: registry)
        #expect(plain.numbered == nil && numbered.numbered != nil)
        let ranking = HandlerRanking(registry: registry)
        var compared = 0
        for id in registry.allNumbers {
            let type = try #require(UTType(registry.identifier(of: id), in: registry))
            let name = "file." + (type.preferredFilenameExtension ?? "bin")
            let a = ranking.rank(type: type, fileName: name, index: plain, userDefaults: ["public.image": "com.ridiculousfish.HexFiend"])
            let b = ranking.rank(type: type, fileName: name, index: numbered, userDefaults: ["public.image": "com.ridiculousfish.HexFiend"])
            #expect(a == b, "\(type.identifier)")
            compared += a.isEmpty ? 0 : 1
        }
        #expect(compared > 500)
        // Dynamic types (no number): an unknown extension, a MIME type nothing declares, with and
        // without a conformance, and a claim naming the dynamic identifier itself.
        let plainText = UTType("public.plain-text", in: registry)
        let dynamic = [UTType(filenameExtension: "xyz", in: registry)!, UTType(mimeType: "text/x-csrc", in: registry)!,
                       UTType(filenameExtension: "qqq", conformingTo: plainText, in: registry)!]
        for type in dynamic {
            #expect(type.isDynamic)
            for defaults in [[:], [type.identifier: "com.whomwah.quicklookstephen"]] {
                let a = ranking.rank(type: type, fileName: "x.xyz", mimeType: "text/x-csrc", index: plain, userDefaults: defaults)
                let b = ranking.rank(type: type, fileName: "x.xyz", mimeType: "text/x-csrc", index: numbered, userDefaults: defaults)
                #expect(a == b && !a.isEmpty, "\(type.identifier)")
            }
        }
    }

    /// Ranking only the apps the registry says can matter (what `openin` does) answers as ranking
    /// every registered app, for the 31 corpus apps and every catalog type.
    @Test func consideredAppsRankAsAllApps() throws {
        let root = try TestSupport.temporaryDirectory()
        let apps = root.appendingPathComponent("Apps")
        try FileManager.default.createDirectory(at: apps, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: TestSupport.infoPlistCorpus.path) where name.hasSuffix(".plist") {
            try FileManager.default.createSymbolicLink(at: apps.appendingPathComponent(name), withDestinationURL: TestSupport.infoPlistCorpus.appendingPathComponent(name))
        }
        let registry = try RegistryStore.open(root: DeviceRoot(path: root.path), catalog: TestSupport.packageRoot.appendingPathComponent("UTIs").path)
        let all = try #require(AppBundle.all(in: registry))
        #expect(all.count == 31)
        let ranking = HandlerRanking(registry: registry)
        let everyApp = HandlerIndex(bundles: all, registry: registry)
        var smaller = 0
        for id in registry.allNumbers {
            let type = try #require(UTType(registry.identifier(of: id), in: registry))
            let name = "file." + (type.preferredFilenameExtension ?? "bin")
            let considered = AppBundle.considered(for: [type], in: registry)
            if considered.count < all.count { smaller += 1 }
            #expect(ranking.rank(type: type, fileName: name, index: HandlerIndex(bundles: considered, registry: registry))
                    == ranking.rank(type: type, fileName: name, index: everyApp), "\(type.identifier)")
        }
        #expect(smaller > 500, "the registry narrows the apps to read")
        for type in [UTType(filenameExtension: "xyz", in: registry)!, UTType(mimeType: "text/x-csrc", in: registry)!] {
            #expect(ranking.rank(type: type, fileName: "a.xyz", index: HandlerIndex(bundles: AppBundle.considered(for: [type], in: registry), registry: registry))
                    == ranking.rank(type: type, fileName: "a.xyz", index: everyApp))
        }
    }
}

extension HandlerRankingTests {
    /// What lint accepts is what the chooser does: a Quick Look generator (role QLGenerator, a
    /// role lint knows) and a claim with a role LaunchServices does not know are never offered;
    /// the refusal says why.
    @Test func quickLookGeneratorsAndUnknownRolesAreNeverOffered() throws {
        let plist = try PropertyListReader.read(Array("""
            <plist><dict><key>CFBundleIdentifier</key><string>com.example.previewer</string><key>CFBundleName</key><string>Previewer</string>
            <key>CFBundleDocumentTypes</key><array>
              <dict><key>CFBundleTypeRole</key><string>QLGenerator</string><key>LSItemContentTypes</key><array><string>public.data</string></array></dict>
              <dict><key>CFBundleTypeRole</key><string>Opener</string><key>LSItemContentTypes</key><array><string>public.png</string></array></dict>
            </array></dict></plist>
            """.utf8)).value
        let registry = try RegistryStore.open(root: DeviceRoot(path: try TestSupport.temporaryDirectory().path),
                                              catalog: TestSupport.packageRoot.appendingPathComponent("UTIs").path)
        let app = AppBundle(plist: plist)
        let png = try #require(UTType("public.png", in: registry))
        #expect(HandlerRanking(registry: registry).rank(type: png, fileName: "a.png", index: HandlerIndex(bundles: [app], registry: registry)).isEmpty)
        let dir = try TestSupport.temporaryDirectory()
        let file = dir.appendingPathComponent("a.png")
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: file)
        let sheet = Chooser(registry: registry, bundles: [app]).sheet(for: [file.path], sourceApplication: "org.example.sender")
        #expect(sheet.apps.isEmpty)
        let reason = try #require(sheet.refusals.first?.reason)
        #expect(reason.contains("QLGenerator") || reason.contains("Opener"), "\(reason)")
    }
}
