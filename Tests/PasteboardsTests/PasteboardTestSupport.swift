import AppRegistry
import Foundation
import SystemCalls
import TestHelpers
import UniformTypes
@testable import Pasteboards

/// Devices, registries and tools for the pasteboard tests.
enum Fixture {
    /// A new, empty device root.
    static func root() throws -> DeviceRoot {
        DeviceRoot(path: try TestSupport.temporaryDirectory().path)
    }

    /// A small registry: text types, images, and an app's own type.
    static let registry: TypeRegistry = {
        func t(_ id: String, _ parents: [String], mime: [String] = []) -> TypeDeclaration {
            TypeDeclaration(identifier: id, conformsTo: parents, tags: mime.isEmpty ? [:] : [.mimeType: mime], kind: .system, source: "test")
        }
        return TypeRegistry(declarations: [
            t("public.item", []), t("public.content", []), t("public.data", ["public.item"]),
            t("public.text", ["public.data", "public.content"]),
            t("public.plain-text", ["public.text"], mime: ["text/plain"]),
            t("public.utf8-plain-text", ["public.plain-text"]),
            t("public.html", ["public.text"], mime: ["text/html"]),
            t("public.rtf", ["public.text"], mime: ["text/rtf"]),
            t("public.image", ["public.data", "public.content"]),
            t("public.png", ["public.image"], mime: ["image/png"]),
            t("com.example.datapackage", ["public.data"], mime: ["application/x-com.example.datapackage"]),
        ])
    }()

    /// A store on `root` over the test registry.
    static func store(_ root: DeviceRoot, limits: PasteboardLimits = PasteboardLimits(), now: (@Sendable () -> Double)? = nil) -> PasteboardStore {
        PasteboardStore(root: root, limits: limits, types: PasteboardTypeMatcher(registry: registry), clock: now.map { SystemCalls.Clock(now: $0) } ?? SystemCalls.Clock.system)
    }

    static var pbcopy: String { TestSupport.productsDirectory.appendingPathComponent("pbcopy").path }
    static var pbpaste: String { TestSupport.productsDirectory.appendingPathComponent("pbpaste").path }
    static var pasteboardd: String { TestSupport.productsDirectory.appendingPathComponent("pasteboardd").path }

    /// Runs a tool with `DOCUMENT_INTERCHANGE_ROOT` set to `root`, no inherited fault rules, and
    /// `environment` added.
    static func run(_ tool: String, _ arguments: [String], root: DeviceRoot, stdin: Data? = nil, environment: [String: String] = [:]) throws -> ToolRun {
        let base = ["DOCUMENT_INTERCHANGE_ROOT": root.path, "DI_FAULTS": ""]
        return try TestSupport.run(tool, arguments, stdin: stdin, environment: base.merging(environment) { $1 })
    }
}

/// What a tool did.
typealias ToolRun = TestSupport.Run

/// Paths of the fixtures and built products.
enum TestSupportPaths {
    /// A file of Fixtures/.
    static func fixture(_ name: String) -> String {
        TestSupport.packageRoot.appendingPathComponent("Tests/PasteboardsTests/Fixtures/" + name).path
    }
    /// The folder of the built tools.
    static var products: String { TestSupport.productsDirectory.path }
}
