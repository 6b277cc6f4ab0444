import AppInterchange
import AppRegistry
import Foundation
import OrderedCollections
import PropertyLists
import TestHelpers
import Testing
@testable import InterchangeKit

/// The only Linux-specific file of these tests: the suite, and a device of four apps as their
/// Info.plists and entitlements declare them. Each seed article describes two apps talking;
/// here both run in the test process, which acts as one app at a time (``acting(as:_:)``), as
/// the launcher's `DI_BUNDLE_IDENTIFIER` would make a process of each.
///
/// - `com.enharmonichq.sender` / `com.enharmonichq.viewer` (000): the viewer handles
///   `com.EnharmonicHQ.Viewer://`, which the sender may ask about.
/// - `com.example.appA` / `com.example.appB` (003): `appA://` and `appB://`, each may ask about
///   the other; B is a real program (Tests/SeedAppB) that its launch command starts. A declares
///   the activity type `com.example.appA.list-contacts` (002).
/// - The sender is in `group.com.atomicbird.demonotes` (004).
@Suite(.interchangeDevice, .serialized) struct InterchangeKitTests {}

enum InterchangeDevice {
    static let folder: URL = try! TestSupport.temporaryDirectory()
    static let root = DeviceRoot(path: folder.appendingPathComponent("device").path)

    static let made: Bool = {
        // The sender and the viewer are one team's: named pasteboards are shared between apps
        // with the same team ID (since iOS 7; the article predates it).
        // App B is a real program (Tests/SeedAppB), started by its launch command.
        let appB = [TestSupport.productsDirectory.appendingPathComponent("seed-app-b").path]
        let apps: [(id: String, schemes: [String], queries: [String], groups: [String], team: String?, launch: [String]?)] = [
            ("com.enharmonichq.sender", [], ["com.enharmonichq.viewer"], ["group.com.atomicbird.demonotes"], "ENHARMONIC", nil),
            ("com.enharmonichq.viewer", ["com.EnharmonicHQ.Viewer"], [], [], "ENHARMONIC", nil),
            ("com.example.appA", ["appA"], ["appB"], [], nil, nil),
            ("com.example.appB", ["appB"], ["appA"], [], nil, appB),
        ]
        for app in apps {
            var info: OrderedDictionary<String, PropertyList> = ["CFBundleIdentifier": .string(app.id), "CFBundleName": .string(app.id)]
            if !app.schemes.isEmpty {
                info["CFBundleURLTypes"] = .array([.dictionary(["CFBundleURLName": .string(app.id), "CFBundleURLSchemes": .array(app.schemes.map { .string($0) })])])
            }
            if !app.queries.isEmpty { info["LSApplicationQueriesSchemes"] = .array(app.queries.map { .string($0) }) }
            if let launch = app.launch { info[LaunchCommand.key] = .array(launch.map { .string($0) }) }
            if app.id == "com.example.appA" {
                // A offers its contact list for Handoff (seed 002's activity).
                info["NSUserActivityTypes"] = .array([.string("com.example.appA.list-contacts")])
                // A opens text documents (Open In hands them to it through the Inbox).
                info["CFBundleDocumentTypes"] = .array([.dictionary(["CFBundleTypeName": .string("Text"), "CFBundleTypeRole": .string("Editor"),
                                                                     "LSItemContentTypes": .array([.string("public.plain-text")])])])
            }
            let bundle = folder.appendingPathComponent("bundles/\(app.id).app")
            try! FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
            try! Data(try! XMLPropertyListWriter().write(.dictionary(info))).write(to: bundle.appendingPathComponent("Info.plist"))
            if !app.groups.isEmpty || app.team != nil {
                var values: OrderedDictionary<String, PropertyList> = [:]
                if !app.groups.isEmpty { values["com.apple.security.application-groups"] = .array(app.groups.map { .string($0) }) }
                if let team = app.team { values[Entitlements.teamIdentifierKey] = .string(team) }
                let entitlements: PropertyList = .dictionary(values)
                try! Data(try! XMLPropertyListWriter().write(entitlements)).write(to: bundle.appendingPathComponent("\(app.id).entitlements"))
            }
            _ = try! Registration.register(bundle.path, on: root)
        }
        try! RegistryStore.rebuild(root: root, catalog: TestSupport.packageRoot.appendingPathComponent("UTIs").path, mimeDirectories: [])
        return true
    }()
}

/// Runs `body` with this process acting as the app `bundleIdentifier` of the device.
@MainActor
func acting<T>(as bundleIdentifier: String, _ body: () throws -> T) throws -> T {
    _ = InterchangeDevice.made
    let app = try InterchangeApp(bundleIdentifier: bundleIdentifier, root: InterchangeDevice.root)
    let previous = CurrentApp.actingAs.withLock { current in defer { current = app }; return current }
    defer { CurrentApp.actingAs.withLock { $0 = previous } }
    return try body()
}

struct InterchangeDeviceTrait: SuiteTrait, TestScoping {
    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        _ = InterchangeDevice.made
        try await function()
        if test.isSuite { try? FileManager.default.removeItem(at: InterchangeDevice.folder) }
    }
}

extension Trait where Self == InterchangeDeviceTrait {
    static var interchangeDevice: InterchangeDeviceTrait { InterchangeDeviceTrait() }
}
