import AppRegistry
import Foundation
import PropertyLists
import TestHelpers
import Testing
import UniformTypes

/// A share extension's `NSExtensionActivationRule` (``AppRegistry/ShareExtension``): the counts
/// per kind and in total against the real catalog, and predicates, which are never taken.
@Suite struct ShareExtensionRuleTests {
    @Test func shareRulesCountKindsAndTotals() throws {
        let registry = try RegistryStore.open(root: DeviceRoot(path: try TestSupport.temporaryDirectory().path),
                                              catalog: TestSupport.packageRoot.appendingPathComponent("UTIs").path)
        func rule(_ entries: String) throws -> ShareExtension {
            let xml = "<plist><dict><key>CFBundleIdentifier</key><string>x.share</string><key>NSExtension</key><dict>"
                + "<key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string><key>NSExtensionAttributes</key><dict>"
                + "<key>NSExtensionActivationRule</key>\(entries)</dict></dict></dict></plist>"
            return try #require(ShareExtension(plist: try PropertyListReader.read(Array(xml.utf8)).value, fallbackIdentifier: "x"))
        }
        let t = { (id: String) in UTType(id, in: registry)! }
        let images = try rule("<dict><key>NSExtensionActivationSupportsImageWithMaxCount</key><integer>2</integer></dict>")
        #expect(images.accepts([t("public.png"), t("public.jpeg")], in: registry).accepted)
        #expect(!images.accepts([t("public.png"), t("public.jpeg"), t("public.png")], in: registry).accepted)
        #expect(!images.accepts([t("com.adobe.pdf")], in: registry).accepted)
        let files = try rule("<dict><key>NSExtensionActivationSupportsFileWithMaxCount</key><integer>3</integer>"
                             + "<key>NSExtensionActivationSupportsAttachmentsWithMaxCount</key><integer>2</integer></dict>")
        #expect(files.accepts([t("com.adobe.pdf"), t("public.png")], in: registry).accepted)   // images count as files here
        #expect(!files.accepts([t("com.adobe.pdf"), t("public.png"), t("public.zip-archive")], in: registry).accepted)
        #expect(try rule("<string>TRUEPREDICATE</string>").accepts([t("public.data")], in: registry).accepted)
        let predicate = try rule("<string>SUBQUERY(extensionItems, $e, …).@count == 1</string>")
        #expect(!predicate.accepts([t("public.png")], in: registry).accepted)
    }

    /// The interactive sheet, driven through a pseudo-terminal (Fixtures/drive_pty.py).
}
