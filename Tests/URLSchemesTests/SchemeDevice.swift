import AppRegistry
import Foundation
import OrderedCollections
import PropertyLists
import TestHelpers
import UniformTypes

/// A device root made of generated apps: each an Info.plist in a bundle folder of its own,
/// registered as `uti register` does, the registry compiled with the checkout's catalog.
struct SchemeDevice {
    let root: DeviceRoot
    let folder: URL

    static var catalog: String { TestSupport.packageRoot.appendingPathComponent("UTIs").path }

    /// One app: identifier, URL types as (schemes, role), queried schemes, launch command.
    struct App {
        var identifier: String
        var name: String? = nil
        var urlTypes: [(schemes: [String], role: String?)] = []
        var queries: [String] = []
        var launch: [String]? = nil
        var documentTypes: [String] = []
    }

    init(_ apps: [App]) throws {
        folder = try TestSupport.temporaryDirectory()
        root = DeviceRoot(path: folder.appendingPathComponent("device").path)
        for app in apps { try add(app) }
        try RegistryStore.rebuild(root: root, catalog: Self.catalog, mimeDirectories: [])
    }

    func add(_ app: App) throws {
        var info: OrderedDictionary<String, PropertyList> = ["CFBundleIdentifier": .string(app.identifier),
                                                              "CFBundleName": .string(app.name ?? app.identifier)]
        if !app.urlTypes.isEmpty {
            info["CFBundleURLTypes"] = .array(app.urlTypes.map { type in
                var entry: OrderedDictionary<String, PropertyList> = ["CFBundleURLName": .string(app.identifier + ".url"),
                                                                       "CFBundleURLSchemes": .array(type.schemes.map { .string($0) })]
                if let role = type.role { entry["CFBundleTypeRole"] = .string(role) }
                return .dictionary(entry)
            })
        }
        if !app.queries.isEmpty { info["LSApplicationQueriesSchemes"] = .array(app.queries.map { .string($0) }) }
        if !app.documentTypes.isEmpty {
            info["CFBundleDocumentTypes"] = .array([.dictionary(["CFBundleTypeName": .string("Documents"), "CFBundleTypeRole": .string("Editor"),
                                                                 "LSItemContentTypes": .array(app.documentTypes.map { .string($0) })])])
        }
        if let launch = app.launch { info[LaunchCommand.key] = .array(launch.map { .string($0) }) }
        let bundle = folder.appendingPathComponent("bundles/\(app.identifier).app")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Data(try XMLPropertyListWriter().write(.dictionary(info))).write(to: bundle.appendingPathComponent("Info.plist"))
        _ = try Registration.register(bundle.path, on: root)
    }

    func registry() throws -> TypeRegistry { try RegistryStore.open(root: root, catalog: Self.catalog, mimeDirectories: []) }
}
