import PropertyLists
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The system type catalog: property lists in `UTExportedTypeDeclarations` form, one per domain
/// (`UTIs/public.plist`, `UTIs/com.apple.plist`, …), read as system declarations.
public enum TypeCatalog {
    /// The environment variable that names a catalog folder.
    public static let environmentVariable = "DOCUMENT_INTERCHANGE_CATALOG"

    /// The catalog folder to use: the environment variable, the device root's own `UTIs/`, then
    /// `UTIs/` found beside or above the running executable (a build tree or an install prefix).
    public static func directory(for root: DeviceRoot) -> String? {
        if let env = DeviceRoot.environment(environmentVariable), !env.isEmpty { return env }
        if FileSystem.isDirectory(root.catalogDirectory) { return root.catalogDirectory }
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        var dir = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        for _ in 0..<5 {
            guard let slash = dir.lastIndex(of: "/"), slash != dir.startIndex else { break }
            dir = String(dir[..<slash])
            for candidate in [dir + "/UTIs", dir + "/share/document-interchange/UTIs"] where FileSystem.isDirectory(candidate) {
                return candidate
            }
        }
        return nil
    }

    /// The catalog's files, sorted.
    public static func files(in directory: String) -> [String] {
        FileSystem.entries(of: directory).filter { $0.hasSuffix(".plist") }.sorted().map { directory + "/" + $0 }
    }
}

/// Keeps the compiled registry of a device root current: a query maps `registry.bin` when it was
/// built from the sources as they are now, and rebuilds it otherwise.
///
/// The sources are every catalog file and every registered app's Info.plist; the registry records
/// a fingerprint of them (path, size, modification time, inode), so adding, removing, replacing or
/// editing any of them triggers a rebuild. A missing, truncated, foreign-version or damaged file is
/// rebuilt too. Rebuilds write a temporary file and rename it into place, so a reader never sees a
/// partial file and two processes rebuilding at once both succeed (one rename wins; the contents
/// are the same).
public enum RegistryStore {
    /// What a rebuild read, besides the registry: problems in individual plists.
    public struct BuildReport: Sendable {
        /// Per-file problems (unreadable plists, malformed declarations).
        public var diagnostics: [(file: String, diagnostic: DeclarationDiagnostic)] = []
        /// Whether this call rebuilt the file.
        public var rebuilt = false
    }

    /// The source files, in a fixed order.
    public static func sources(root: DeviceRoot, catalog: String?) -> [String] {
        (catalog.map(TypeCatalog.files(in:)) ?? []) + RegisteredApp.all(on: root).map(\.infoPlistPath)
    }

    /// The fingerprint of the sources as they are now.
    public static func fingerprint(of sources: [String]) -> [UInt8] {
        var out: [UInt8] = []
        for path in sources {
            out += path.utf8
            out.append(0)
            if let info = FileSystem.status(path) {
                for value in [UInt64(info.st_size), UInt64(info.st_mtim.tv_sec), UInt64(info.st_mtim.tv_nsec), UInt64(info.st_ino)] {
                    withUnsafeBytes(of: value.littleEndian) { out += $0 }
                }
            }
            out.append(0x0A)
        }
        return out
    }

    /// The registry for `root`, mapped from its file when current, else rebuilt and written.
    public static func open(root: DeviceRoot, catalog: String?) throws(FileSystemError) -> TypeRegistry {
        let sources = sources(root: root, catalog: catalog)
        let fingerprint = fingerprint(of: sources)
        if let mapped = try? TypeRegistry(mapping: root.registryFile), mapped.fingerprint == fingerprint {
            return mapped
        }
        return try rebuild(root: root, catalog: catalog).registry
    }

    /// Reads every source and writes a new registry file.
    @discardableResult
    public static func rebuild(root: DeviceRoot, catalog: String?) throws(FileSystemError) -> (registry: TypeRegistry, report: BuildReport) {
        var result = BuildReport()
        result.rebuilt = true
        var declarations: [TypeDeclaration] = []
        // The fingerprint is taken before reading, so a source changed during the build makes the
        // next query rebuild again rather than trust a stale registry.
        let sources = sources(root: root, catalog: catalog)
        let fingerprint = fingerprint(of: sources)
        for file in catalog.map(TypeCatalog.files(in:)) ?? [] {
            declarations += read(file, source: String(file.split(separator: "/").last ?? ""), asSystem: true, into: &result)
        }
        for app in RegisteredApp.all(on: root) {
            let plist = try? PropertyListReader.read(contentsOf: .init(app.infoPlistPath)).value
            let bundleID = plist?["CFBundleIdentifier"]?.stringValue
            let name = bundleID.flatMap { $0.contains("$") ? nil : $0 } ?? app.name
            declarations += read(app.infoPlistPath, source: name, asSystem: false, into: &result)
        }
        let image = TypeRegistry.compiledImage(declarations: declarations, fingerprint: fingerprint)
        try FileSystem.makeDirectories(root.path)
        try FileSystem.writeAtomically(image, to: root.registryFile)
        return (try! TypeRegistry(image: RegistryImageStorage(copying: image)), result)
    }

    static func read(_ file: String, source: String, asSystem: Bool, into report: inout BuildReport) -> [TypeDeclaration] {
        let document: PropertyListDocument
        do { document = try PropertyListReader.read(contentsOf: .init(file)) } catch {
            report.diagnostics.append((file, DeclarationDiagnostic(.error, "cannot read: \(error)", at: .root)))
            return []
        }
        var diagnostics: [DeclarationDiagnostic] = []
        let found = TypeDeclaration.declarations(in: document.value, source: source, asSystem: asSystem, diagnostics: &diagnostics)
        report.diagnostics += diagnostics.map { (file, $0) }
        return found
    }
}
