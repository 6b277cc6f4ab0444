import Hashing
import PropertyLists
import SystemCalls
import UniformTypes

/// Keeps the compiled registry of a device root current: a query maps `registry.bin` when it was
/// built from the sources as they are now (``RegistryFingerprint``), and rebuilds it otherwise.
/// The apps in it are recorded as the app model reads them (``AppRecord``).
///
/// A query never creates a device root: on a root that does not exist (the user's default, not
/// set up yet) the catalog's compilation is kept in the user's cache folder instead. A missing,
/// truncated, foreign-version or damaged file is rebuilt. Rebuilds write a temporary file and
/// rename it into place, so a reader never sees a partial file and two processes rebuilding at
/// once both succeed (one rename wins; the contents are the same).
public enum RegistryStore {
    /// What a rebuild read, besides the registry: problems in individual plists.
    public struct BuildReport: Sendable {
        /// Per-file problems (unreadable plists, malformed declarations).
        public var diagnostics: [(file: String, diagnostic: DeclarationDiagnostic)] = []
        /// Problems in the shared MIME database's package files (skipped files and elements).
        public var mimeDiagnostics: [MIMEPackageDiagnostic] = []
        /// Whether this call rebuilt the file.
        public var rebuilt = false
    }

    /// The registry for `root`, mapped from its file when current, else rebuilt and written (to
    /// the root when it exists, else to the cache folder); from memory when neither can be written.
    /// - Parameter mimeDirectories: the shared MIME database's `mime` folders, most important
    ///   first; `nil` for the machine's, `[]` for none (Apple's types and the apps' alone).
    public static func open(root: DeviceRoot, catalog: String?, mimeDirectories: [String]? = nil) throws(AppRegistryError) -> TypeRegistry {
        let fingerprint = RegistryFingerprint.of(root: root, catalog: catalog, mimeDirectories: mimeDirectories)
        let file = root.exists ? root.registryFile : cacheFile(catalog: catalog, mimeDirectories: mimeDirectories)
        if let mapped = try? TypeRegistry(mapping: file), mapped.fingerprint == fingerprint {
            return mapped
        }
        let (registry, image, _) = compile(root: root, catalog: catalog, mimeDirectories: mimeDirectories)
        if root.exists || FileSystem.isDirectory(cacheDirectory) || (try? FileSystem.makeDirectories(cacheDirectory)) != nil {
            // A file the user cannot write (a read-only checkout, a system location): the query
            // is answered from the registry built in memory all the same.
            try? AtomicFile.write(image, to: file)
        }
        return registry
    }

    /// The registry a query of `root` answers from, with the installed catalog: a root that was
    /// named (`--root`, the environment) must exist, so that a typo creates nothing, and a
    /// catalog must be found, so that no tool answers with dynamic types alone.
    public static func forQuery(root: DeviceRoot) throws(AppRegistryError) -> TypeRegistry {
        if root.origin != .userDefault && !root.exists { throw .noDeviceRoot(root.path) }
        return try open(root: root, catalog: TypeCatalog.required(for: root))
    }

    /// Whether `registry` was compiled from `root`'s sources as they are now (a few `stat` calls).
    public static func isCurrent(_ registry: TypeRegistry, root: DeviceRoot, catalog: String?, mimeDirectories: [String]? = nil) -> Bool {
        registry.fingerprint == fingerprint(root: root, catalog: catalog, mimeDirectories: mimeDirectories)
    }

    /// The fingerprint of `root`'s sources as a query checks them (``RegistryFingerprint``).
    public static func fingerprint(root: DeviceRoot, catalog: String?, mimeDirectories: [String]? = nil) -> [UInt8] {
        RegistryFingerprint.of(root: root, catalog: catalog, mimeDirectories: mimeDirectories)
    }

    /// `$XDG_CACHE_HOME/document-interchange` (else `~/.cache/document-interchange`): where the
    /// catalog's compilation is kept for queries on a device root that does not exist.
    public static var cacheDirectory: String {
        if let xdg = Environment.value("XDG_CACHE_HOME"), xdg.hasPrefix("/") { return xdg + "/document-interchange" }
        return Environment.home + "/.cache/document-interchange"
    }

    /// The cache file for `catalog` (one per catalog folder, so that a build tree and an
    /// installed copy do not rebuild each other's).
    static func cacheFile(catalog: String?, mimeDirectories: [String]? = nil) -> String {
        let hash = FNV1a64.hash((catalog ?? "") + "\u{0}" + (mimeDirectories?.joined(separator: ":") ?? "machine"))
        return cacheDirectory + "/registry-" + String(hash, radix: 16) + ".bin"
    }

    /// Reads every source and writes a new registry file into the root (creating it: rebuilding
    /// is asked for, `uti rebuild`, `uti register`).
    @discardableResult
    public static func rebuild(root: DeviceRoot, catalog: String?, mimeDirectories: [String]? = nil) throws(AppRegistryError) -> (registry: TypeRegistry, report: BuildReport) {
        let (registry, image, report) = compile(root: root, catalog: catalog, mimeDirectories: mimeDirectories)
        do {
            try FileSystem.makeDirectories(root.path)
            try AtomicFile.write(image, to: root.registryFile)
        } catch { throw .system(error) }
        return (registry, report)
    }

    /// The system catalog alone, compiled in memory (no apps, no shared MIME database): what the
    /// linter checks an Info.plist against.
    public static func catalogOnly(_ catalog: String) -> TypeRegistry {
        var report = BuildReport()
        var declarations: [TypeDeclaration] = []
        for file in TypeCatalog.files(in: catalog) {
            guard let value = try? PropertyListReader.read(contentsOf: .init(file)).value else { continue }
            declarations += read(value, file: file, source: String(file.split(separator: "/").last ?? ""), asSystem: true, into: &report)
        }
        return TypeRegistry(declarations: declarations)
    }

    /// Reads every source and compiles the registry image, without writing it.
    static func compile(root: DeviceRoot, catalog: String?, mimeDirectories: [String]? = nil) -> (registry: TypeRegistry, image: [UInt8], report: BuildReport) {
        var report = BuildReport()
        report.rebuilt = true
        var declarations: [TypeDeclaration] = []
        // The fingerprint is taken before reading, so a source changed during the build makes the
        // next query rebuild again rather than trust a stale registry.
        let fingerprint = RegistryFingerprint.of(root: root, catalog: catalog, mimeDirectories: mimeDirectories)
        for file in catalog.map(TypeCatalog.files(in:)) ?? [] {
            let document: PropertyListDocument
            do { document = try PropertyListReader.read(contentsOf: .init(file)) } catch {
                report.diagnostics.append((file, DeclarationDiagnostic(.error, "cannot read: \(error)", at: .root)))
                continue
            }
            declarations += read(document.value, file: file, source: String(file.split(separator: "/").last ?? ""), asSystem: true, into: &report)
        }
        var apps: [AppRecordInput] = []
        for app in RegisteredApp.all(on: root) {
            let source: AppSource
            do { source = try AppSource(app) } catch {
                report.diagnostics.append((app.infoPlistPath, DeclarationDiagnostic(.error, "cannot read: \(error)", at: .root)))
                continue
            }
            let input = AppRecord.input(for: source)
            apps.append(input)
            let translations = app.localizedStrings()
            declarations += read(source.plist, file: app.infoPlistPath, source: input.identifier, asSystem: false, into: &report).map { declaration in
                var d = declaration
                if let description = d.description {
                    for (language, strings) in translations { if let text = strings[description] { d.localizedDescriptions[language] = text } }
                }
                return d
            }
        }
        let directories = mimeDirectories ?? SharedMIMEDatabase.mimeDirectories()
        let database = SharedMIMEDatabase.load(mimeDirectories: directories)
        report.mimeDiagnostics = database.diagnostics
        let image = TypeRegistry.compiledImage(declarations: declarations, mimeAliases: .load(from: MIMEAliases.files(in: directories)),
                                               mimeDatabase: database, fingerprint: fingerprint, apps: apps)
        // The image was just compiled from validated tables, so opening it cannot fail.
        return (try! TypeRegistry(compiledImage: image), image, report)
    }

    static func read(_ value: PropertyList, file: String, source: String, asSystem: Bool, into report: inout BuildReport) -> [TypeDeclaration] {
        var diagnostics: [DeclarationDiagnostic] = []
        let found = TypeDeclaration.declarations(in: value, source: source, asSystem: asSystem, diagnostics: &diagnostics)
        report.diagnostics += diagnostics.map { (file, $0) }
        return found
    }
}
