import Foundation
import PropertyLists
import Testing
import UniformTypes

/// A small catalog in the UTIs/ form, with the relations Apple declares for these types, so the
/// engine's semantics can be tested apart from the full catalog.
public enum TestCatalog {
    /// A type declaration in the UTIs/ form.
    public static func type(_ id: String, _ parents: [String], ext: [String] = [], mime: [String] = [], description: String? = nil) -> PropertyList {
        var entry: [(String, PropertyList)] = [("UTTypeIdentifier", .string(id)),
                                                ("UTTypeConformsTo", .array(parents.map(PropertyList.string)))]
        if let description { entry.append(("UTTypeDescription", .string(description))) }
        var tags: [(String, PropertyList)] = []
        if !ext.isEmpty { tags.append(("public.filename-extension", .array(ext.map(PropertyList.string)))) }
        if !mime.isEmpty { tags.append(("public.mime-type", .array(mime.map(PropertyList.string)))) }
        if !tags.isEmpty { entry.append(("UTTypeTagSpecification", .dictionary(.init(uniqueKeysWithValues: tags)))) }
        return .dictionary(.init(uniqueKeysWithValues: entry))
    }

    /// The catalog as one property list.
    public static let plist: PropertyList = .dictionary(["UTExportedTypeDeclarations": .array([
        type("public.item", [], description: "item"),
        type("public.content", [], description: "content"),
        type("public.data", ["public.item"], description: "data"),
        type("public.directory", ["public.item"]),
        type("public.archive", [], description: "archive"),
        type("public.image", ["public.data", "public.content"], description: "image"),
        type("public.jpeg", ["public.image"], ext: ["jpeg", "jpg", "jpe"], mime: ["image/jpeg"], description: "JPEG image"),
        type("public.png", ["public.image"], ext: ["png"], mime: ["image/png"], description: "PNG image"),
        type("public.tiff", ["public.image"], ext: ["tiff", "tif"], mime: ["image/tiff"]),
        type("public.text", ["public.data", "public.content"], description: "text"),
        type("public.plain-text", ["public.text"], ext: ["txt", "text"], mime: ["text/plain"]),
        type("public.delimited-values-text", ["public.plain-text"]),
        type("public.comma-separated-values-text", ["public.delimited-values-text"], ext: ["csv"], mime: ["text/csv"]),
        type("public.xml", ["public.text"], ext: ["xml"], mime: ["application/xml", "text/xml"]),
        type("public.svg-image", ["public.image", "public.xml"], ext: ["svg"], mime: ["image/svg+xml"]),
        type("public.html", ["public.text"], ext: ["html", "htm"], mime: ["text/html"]),
        type("public.yaml", ["public.text"], ext: ["yml", "yaml"], mime: ["application/x-yaml"]),
        type("com.pkware.zip-archive", ["public.data", "public.archive"], ext: ["zip"], mime: ["application/zip"]),
        type("public.zip-archive", ["com.pkware.zip-archive"]),
        type("public.audiovisual-content", ["public.data", "public.content"]),
        type("public.movie", ["public.audiovisual-content"]),
        type("public.audio", ["public.audiovisual-content"]),
        type("public.mpeg-4", ["public.movie"], ext: ["mp4", "mpeg4"], mime: ["video/mp4"]),
        type("public.mpeg-4-audio", ["public.audio"], ext: ["m4a", "mp4"], mime: ["audio/mp4"]),
        type("public.mpeg-2-transport-stream", ["public.movie"], ext: ["ts"], mime: ["video/mp2t"]),
        type("com.microsoft.typescript", ["public.plain-text"], ext: ["ts"]),
    ])])

    /// A registry of this catalog and `apps`' declarations.
    public static func registry(apps: [(source: String, plist: PropertyList)] = []) -> TypeRegistry {
        test.registry(apps: apps)
    }

    /// A catalog the behaviour vectors run against: this small one, or the real one in UTIs/.
    public struct Under: Sendable, CustomTestStringConvertible {
        /// Its name in test output.
        public var name: String
        /// Its catalog files.
        public var plists: [PropertyList]
        /// Its name in test output.
        public var testDescription: String { name }

        /// A registry of this catalog and `apps`' declarations.
        public func registry(apps: [(source: String, plist: PropertyList)] = []) -> TypeRegistry {
            var diagnostics: [DeclarationDiagnostic] = []
            var all: [TypeDeclaration] = []
            for plist in plists { all += TypeDeclaration.declarations(in: plist, source: "catalog", asSystem: true, diagnostics: &diagnostics) }
            for app in apps { all += TypeDeclaration.declarations(in: app.plist, source: app.source, diagnostics: &diagnostics) }
            return TypeRegistry(declarations: all)
        }
    }

    /// This small catalog.
    public static let test = Under(name: "test catalog", plists: [plist])
    /// The real one in UTIs/.
    public static let real: Under = {
        let dir = TestSupport.packageRoot.appendingPathComponent("UTIs")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".plist") }.sorted()
        return Under(name: "UTIs/", plists: files.compactMap { try? PropertyListReader.read(contentsOf: .init(dir.appendingPathComponent($0).path)).value })
    }()
    /// Both.
    public static let both = [test, real]
}
