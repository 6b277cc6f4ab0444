import AppRegistry
import Foundation
import TestHelpers
import Testing
import UniformTypeIdentifiers

/// The suite the Apple-API code (AppleAPICode.swift) extends. Its trait points the default
/// registry at this repository's `UTIs/` and a temporary device root before any of it runs, so
/// nothing is read from or written to the user's home, and the answers do not depend on it.
@Suite(.testDevice) struct UniformTypeIdentifiersTests {}

/// A device root in a temporary folder with one registered app, `Drawing.app`, which exports
/// `com.example.drawing` and imports `com.example.shared-format`; the default registry answers
/// from it and the repository's catalog.
enum TestDevice {
    static let catalog = TestSupport.packageRoot.appendingPathComponent("UTIs").path

    static let root: URL = {
        let root = try! TestSupport.temporaryDirectory().appendingPathComponent("device")
        try! writeApp(in: root, name: "Drawing.app", plist: """
            <plist version="1.0"><dict>
              <key>CFBundleIdentifier</key><string>com.example.drawing-app</string>
              <key>UTExportedTypeDeclarations</key><array><dict>
                <key>UTTypeIdentifier</key><string>com.example.drawing</string>
                <key>UTTypeConformsTo</key><array><string>public.data</string><string>public.content</string></array>
                <key>UTTypeDescription</key><string>Example drawing</string>
                <key>UTTypeTagSpecification</key><dict>
                  <key>public.filename-extension</key><array><string>exdraw</string></array>
                  <key>public.mime-type</key><string>application/x-example-drawing</string>
                </dict>
              </dict></array>
              <key>UTImportedTypeDeclarations</key><array><dict>
                <key>UTTypeIdentifier</key><string>com.example.shared-format</string>
                <key>UTTypeConformsTo</key><array><string>public.data</string></array>
                <key>UTTypeTagSpecification</key><dict>
                  <key>public.filename-extension</key><array><string>shared</string></array>
                </dict>
              </dict></array>
            </dict></plist>
            """)
        // Apple's answers: the machine's shared MIME database is left out (with it, extensions
        // macOS does not know get freedesktop.org's types instead of dynamic ones; docs/uttype-api.md).
        DefaultTypeRegistry.use(root: DeviceRoot(path: root.path), catalog: catalog, mimeDirectories: [])
        return root
    }()

    /// Registers an app: `ROOT/Apps/NAME/Info.plist`.
    static func writeApp(in root: URL, name: String, plist: String) throws {
        let app = root.appendingPathComponent("Apps").appendingPathComponent(name)
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try Data(plist.utf8).write(to: app.appendingPathComponent("Info.plist"))
    }
}

/// Sets up ``TestDevice`` before the suite's tests run, and removes it after them.
struct TestDeviceTrait: SuiteTrait, TestScoping {
    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let root = TestDevice.root
        defer { if test.isSuite { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) } }
        try await function()
    }
}

extension Trait where Self == TestDeviceTrait {
    /// Points the default registry at ``TestDevice``.
    static var testDevice: Self { Self() }
}
