import SystemCalls

/// The system type catalog: property lists in `UTExportedTypeDeclarations` form, one per domain
/// (`UTIs/public.plist`, `UTIs/com.apple.plist`, …), read as system declarations.
public enum TypeCatalog {
    /// The environment variable that names a catalog folder.
    public static let environmentVariable = "DOCUMENT_INTERCHANGE_CATALOG"

    /// The catalog folder to use: the first of ``candidates(for:)`` that exists.
    public static func directory(for root: DeviceRoot) -> String? {
        candidates(for: root).first { FileSystem.isDirectory($0) }
    }

    /// Where a catalog is looked for, in order: the environment variable, the device root's own
    /// `UTIs/`, the install layout beside the running executable (`PREFIX/bin/TOOL` →
    /// `PREFIX/share/document-interchange/UTIs`), and, for a tool run from a build tree
    /// (`CHECKOUT/.build/…/TOOL`), the checkout's `UTIs/`. (A tool copied elsewhere alone finds
    /// none and says so; a program that imports the library also looks in ``packageCatalog``:
    /// ``forPrograms(on:)``.)
    public static func candidates(for root: DeviceRoot) -> [String] {
        var places: [String] = []
        if let env = Environment.value(environmentVariable), !env.isEmpty { places.append(env) }
        places.append(root.catalogDirectory)
        if let executable = CurrentProcess.executablePath(), let slash = executable.lastIndex(of: "/") {
            let bin = String(executable[..<slash])
            if let up = bin.lastIndex(of: "/") {
                places.append(String(bin[..<up]) + "/share/document-interchange/UTIs")
            }
            if let checkout = Self.checkout(containing: executable) { places.append(checkout + "/UTIs") }
        }
        return places
    }

    /// The catalog of a program that imports the library (`UTType`, `InterchangeApp`): the first
    /// of ``candidates(for:)`` that exists, else ``packageCatalog``, so that an app built against
    /// this package with SwiftPM finds the catalog without an installation. One rule for both.
    public static func forPrograms(on root: DeviceRoot) -> String? {
        directory(for: root) ?? packageCatalog
    }

    /// ``forPrograms(on:)``, or the error naming every place looked in.
    public static func requiredForPrograms(on root: DeviceRoot) throws(AppRegistryError) -> String {
        guard let found = forPrograms(on: root) else { throw .noCatalog(lookedIn: candidates(for: root) + ["the UTIs/ folder of the package it was built from"]) }
        return found
    }

    /// The `UTIs/` folder of the checkout this file was compiled from, when it still exists
    /// (`CHECKOUT/Sources/AppRegistry/Device/TypeCatalog.swift` → `CHECKOUT/UTIs`).
    public static var packageCatalog: String? {
        var path = #filePath
        for _ in 0..<4 {
            guard let slash = path.lastIndex(of: "/") else { return nil }
            path = String(path[..<slash])
        }
        return FileSystem.isDirectory(path + "/UTIs") ? path + "/UTIs" : nil
    }

    /// The folder that holds the build folder (`.build`, `.build-NAME`, `.build_NAME`) the
    /// executable at `path` is in, if it is in one. Scanned by hand: this runs in every query
    /// process, where string-search generics cost run-time metadata.
    static func checkout(containing path: String) -> String? {
        let bytes = Array(path.utf8)
        let marker: [UInt8] = Array("/.build".utf8)
        var i = 0
        while i + marker.count < bytes.count {
            if bytes[i] == 0x2F, Array(bytes[i..<(i + marker.count)]) == marker {
                let next = bytes[i + marker.count]
                if next == 0x2F || next == 0x2D || next == 0x5F { return String(decoding: bytes[..<i], as: UTF8.self) }
            }
            i += 1
        }
        return nil
    }

    /// The catalog folder, or ``AppRegistryError/noCatalog(lookedIn:)`` naming every place looked in.
    public static func required(for root: DeviceRoot) throws(AppRegistryError) -> String {
        let places = candidates(for: root)
        guard let found = places.first(where: { FileSystem.isDirectory($0) }) else { throw .noCatalog(lookedIn: places) }
        return found
    }

    /// The catalog's files, sorted.
    public static func files(in directory: String) -> [String] {
        FileSystem.entries(of: directory).filter { $0.hasSuffix(".plist") }.sorted().map { directory + "/" + $0 }
    }
}
