import AppRegistry
import Foundation
import Handlers
import PropertyLists
import TestHelpers
import Testing

/// A document delivery refuses (a folder to an app that copies, a device node) is refused before
/// the app's container is made: a refusal leaves no empty folders behind. A folder reaches an app
/// that opens documents in place (a package).
@Suite struct RefusedDocumentTests {
    static func app(inPlace: Bool) -> AppBundle {
        var app = AppBundle(plist: .dictionary(["CFBundleIdentifier": .string("com.example.taker")]), path: "/nonexistent/Taker.app",
                            infoPlistPath: "", fallbackIdentifier: "com.example.taker")
        app.opensDocumentsInPlace = inPlace
        return app
    }

    @Test func aRefusedDocumentLeavesNoContainer() throws {
        let root = DeviceRoot(path: try TestSupport.temporaryDirectory().path)
        let folder = try TestSupport.temporaryDirectory().path
        let delivery = Delivery(root: root, launch: false)
        for path in [folder, "/dev/zero"] {
            #expect(throws: HandlerError.self) { try delivery.deliver(path, type: "public.data", to: Self.app(inPlace: false)) }
            #expect(!FileManager.default.fileExists(atPath: root.containersDirectory), "\(path)")
        }
        #expect(throws: HandlerError.self) { try delivery.deliver("/dev/zero", type: "public.data", to: Self.app(inPlace: true)) }
        #expect(!FileManager.default.fileExists(atPath: root.containersDirectory))
        let inPlace = try delivery.deliver(folder, type: "public.folder", to: Self.app(inPlace: true))
        #expect(inPlace.inPlace && FileManager.default.fileExists(atPath: inPlace.requestPath))
    }
}
