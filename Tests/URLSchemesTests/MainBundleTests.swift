import AppInterchange
import Foundation
import TestHelpers
import Testing

/// Which bundle a program was started from, as Apple finds `Bundle.main`: from the command as
/// given (absolute, relative to the working folder, or a name on `PATH`), up to the enclosing
/// `X.app` with an Info.plist, never through the executable's link; a bundle in `ROOT/Apps/` is
/// installed on `ROOT`. (AppStartedFromItsBundleTests runs the real sample app this way.)
@Suite struct MainBundleTests {
    /// A folder holding `ROOT/Apps/Tool.app` (Info.plist, `bin/tool` a link to `/usr/bin/env`,
    /// outside any bundle), `ROOT/Documents`, and `Bundles/Loose.app` outside any device root.
    static func layout() throws -> URL {
        let folder = try TestSupport.temporaryDirectory()
        let fm = FileManager.default
        for (bundle, identifier) in [("device/Apps/Tool.app", "com.example.tool"), ("Bundles/Loose.app", "$(PRODUCT_BUNDLE_IDENTIFIER)")] {
            let bin = folder.appendingPathComponent(bundle + "/bin")
            try fm.createDirectory(at: bin, withIntermediateDirectories: true)
            try Data("""
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict>
                <key>CFBundleIdentifier</key><string>\(identifier)</string>
                <key>CFBundleName</key><string>Tool</string>
                </dict></plist>
                """.utf8).write(to: folder.appendingPathComponent(bundle + "/Info.plist"))
            try fm.createSymbolicLink(atPath: bin.appendingPathComponent("tool").path, withDestinationPath: "/usr/bin/env")
        }
        try fm.createDirectory(at: folder.appendingPathComponent("device/Documents"), withIntermediateDirectories: true)
        // A folder named like a bundle, without an Info.plist, inside the real one: passed over.
        let nested = folder.appendingPathComponent("device/Apps/Tool.app/Helpers/Inner.app/bin")
        try fm.createDirectory(at: nested, withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: nested.appendingPathComponent("helper").path, withDestinationPath: "/usr/bin/env")
        return folder
    }

    @Test func aProgramStartedFromItsBundleFindsItAndItsDeviceRoot() throws {
        let folder = try Self.layout()
        let root = folder.appendingPathComponent("device").path
        let bundle = root + "/Apps/Tool.app"
        for (command, workingDirectory, searchPath) in [(bundle + "/bin/tool", nil, nil),
                                                        ("Apps/Tool.app/bin/tool", root, nil),
                                                        ("./Apps//Tool.app/bin/tool", root, nil),
                                                        ("tool", nil, "/nonexistent::\(bundle)/bin"),
                                                        (bundle + "/Helpers/Inner.app/bin/helper", nil, nil)] as [(String, String?, String?)] {
            let found = try #require(MainBundle.startedAs(command, workingDirectory: workingDirectory, searchPath: searchPath), "\(command)")
            #expect(found.bundlePath == bundle, "\(command)")
            #expect(found.bundleIdentifier == "com.example.tool", "\(command)")
            #expect(found.infoDictionary["CFBundleName"]?.stringValue == "Tool", "\(command)")
            #expect(found.deviceRoot?.path == root, "\(command)")
        }
    }

    /// `..` is resolved where it stands (the folders before it may be links), so the bundle's
    /// path names no `..`; what follows it is kept as started.
    @Test func parentReferencesAreResolved() throws {
        let folder = try Self.layout()
        let real = folder.appendingPathComponent("device").resolvingSymlinksInPath().path
        let found = try #require(MainBundle.startedAs("../Apps/Tool.app/bin/tool", workingDirectory: folder.appendingPathComponent("device/Documents").path))
        #expect(found.bundlePath == real + "/Apps/Tool.app")
        #expect(found.deviceRoot?.path == real)
    }

    /// A bundle outside a device root is still the app's bundle, with no root; an identifier
    /// that is an unresolved build variable names nobody (the one rule, `BundleIdentifier.usable`).
    @Test func aBundleOutsideADeviceRootHasNoRoot() throws {
        let folder = try Self.layout()
        let found = try #require(MainBundle.startedAs(folder.appendingPathComponent("Bundles/Loose.app/bin/tool").path))
        #expect(found.bundlePath == folder.appendingPathComponent("Bundles/Loose.app").path)
        #expect(found.deviceRoot == nil)
        #expect(found.bundleIdentifier == nil)
        #expect(found.infoDictionary["CFBundleIdentifier"]?.stringValue == "$(PRODUCT_BUNDLE_IDENTIFIER)")
    }

    @Test func aProgramStartedFromNoBundleHasNone() throws {
        let folder = try Self.layout()
        #expect(MainBundle.startedAs("/usr/bin/env") == nil)
        #expect(MainBundle.startedAs("env", searchPath: "/usr/bin") == nil)
        #expect(MainBundle.startedAs("tool", searchPath: folder.path) == nil)
        #expect(MainBundle.startedAs("") == nil)
        // The test runner itself was started from its build folder.
        #expect(MainBundle.current == nil)
    }
}
