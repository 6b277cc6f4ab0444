import AppRegistry
import Foundation
import TestHelpers
import Testing
@testable import UniformTypeIdentifiers

/// Which registry the calls without one use, and when it is read again.
extension UniformTypeIdentifiersTests {
    @Test func theDefaultRegistryIsTheTestDevice() throws {
        #expect(DefaultTypeRegistry.source.root.path == TestDevice.root.path)
        #expect(DefaultTypeRegistry.source.catalog == TestDevice.catalog)
        #expect(UTType.png.isDeclared)
        // Compiled and written into the test device, nowhere else.
        #expect(FileManager.default.fileExists(atPath: TestDevice.root.appendingPathComponent("registry.bin").path))
        #expect(RegistryStore.isCurrent(DefaultTypeRegistry.current, root: DeviceRoot(path: TestDevice.root.path), catalog: TestDevice.catalog, mimeDirectories: []))
    }

    @Test func aProgramBuiltFromThisPackageFindsItsCatalog() {
        #expect(TypeCatalog.packageCatalog == TestDevice.catalog)
        // InterchangeApp finds it by the same rule as UTType.
        #expect(TypeCatalog.forPrograms(on: DeviceRoot(path: "/nonexistent")) == TestDevice.catalog)
    }

    @Test func anAppRegisteredLaterIsSeenAtTheNextCheck() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let source = TypeRegistrySource(root: DeviceRoot(path: root.path), catalog: TestDevice.catalog, refreshInterval: .zero)
        let before = source.registry
        #expect(UTType("com.example.late", in: before) == nil)
        #expect(source.registry === before)   // nothing changed: the same mapped registry
        try TestDevice.writeApp(in: root, name: "Late.app", plist: Self.latePlist)
        let after = source.registry
        #expect(after !== before)
        let late = try #require(UTType("com.example.late", in: after))
        let oldData = try #require(UTType("public.data", in: before))
        let oldItem = try #require(UTType("public.item", in: before))
        let oldPNG = try #require(UTType("public.png", in: before))
        #expect(late.isDeclared && late.conforms(to: oldData) && late.conforms(to: oldItem))
        // A type of the old registry still compares with the new one's, by identifier.
        #expect(oldPNG == UTType("public.png", in: after))
    }

    @Test func withinTheIntervalTheRegistryIsKeptUntilReload() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let source = TypeRegistrySource(root: DeviceRoot(path: root.path), catalog: TestDevice.catalog, refreshInterval: .seconds(3600))
        let before = source.registry
        try TestDevice.writeApp(in: root, name: "Late.app", plist: Self.latePlist)
        #expect(source.registry === before)
        source.reload()
        #expect(UTType("com.example.late", in: source.registry) != nil)
    }

    @Test func anUnreadableRootStillAnswersDynamicTypes() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        // A file where the device root should be: nothing can be written or read there.
        let file = root.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: file)
        let source = TypeRegistrySource(root: DeviceRoot(path: file.path), catalog: TestDevice.catalog, mimeDirectories: [])
        #expect(UTType("public.png", in: source.registry)?.isDeclared == true)
        #expect(UTType(filenameExtension: "srt", in: source.registry)?.identifier == "dyn.ah62d4rv4ge81g6xy")
    }

    static let latePlist = """
        <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.late-app</string>
        <key>UTExportedTypeDeclarations</key><array><dict>
          <key>UTTypeIdentifier</key><string>com.example.late</string>
          <key>UTTypeConformsTo</key><string>public.data</string>
        </dict></array></dict></plist>
        """
}
