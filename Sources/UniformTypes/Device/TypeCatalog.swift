import OrderedCollections
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
        // Plain buffers and string slicing only: this runs in every query process, where each new
        // array type costs a run-time metadata lookup.
        let executable: String? = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { buffer in
            let n = readlink("/proc/self/exe", buffer.baseAddress!, 4095)
            return n > 0 ? String(decoding: UnsafeBufferPointer(rebasing: buffer[..<n]), as: UTF8.self) : nil
        }
        guard var dir = executable else { return nil }
        for _ in 0..<5 {
            guard let slash = dir.lastIndex(of: "/"), slash != dir.startIndex else { break }
            dir = String(dir[..<slash])
            if FileSystem.isDirectory(dir + "/UTIs") { return dir + "/UTIs" }
            if FileSystem.isDirectory(dir + "/share/document-interchange/UTIs") { return dir + "/share/document-interchange/UTIs" }
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
/// What "as they are now" checks, on every query: the catalog folder (its modification time and
/// inode) and the inode of each catalog file as the folder listing gives it, the `Apps/` folder (its
/// modification time changes whenever an app is registered, unregistered or registered again) and,
/// for each `mime` folder of the shared MIME database, its `packages/` folder (a package added,
/// removed or replaced) and its `mime.cache` (which `update-mime-database` replaces after every
/// package change, so a package rewritten in place is seen once the database is updated, as every
/// package manager does): eight `stat` calls and one directory read with the default XDG folders,
/// whatever the number of catalog files, apps and packages. A catalog file replaced by a rename (package managers, most
/// editors) or added or removed is seen; one rewritten in place keeps its inode and the folder's
/// time, and is picked up by `uti rebuild`. Likewise, as with `lsregister` on macOS, an edit to the
/// Info.plist of an app that is already registered is picked up when the app is registered again
/// (which replaces its entry) or by `uti rebuild`. (Checking every catalog file and every
/// registered Info.plist cost 58 and 3,000 `stat` calls; the latter 7.8 ms per query with 1,000
/// apps here.)
///
/// A missing, truncated, foreign-version or damaged file is rebuilt too. Rebuilds write a temporary
/// file and rename it into place, so a reader never sees a partial file and two processes
/// rebuilding at once both succeed (one rename wins; the contents are the same).
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

    /// The fingerprint of the sources as a query checks them: the catalog files, the `Apps/` folder
    /// and the shared MIME database's package folders and caches.
    /// - Parameter mimeDirectories: the shared MIME database's `mime` folders, most important
    ///   first; `nil` for the machine's (``SharedMIMEDatabase/mimeDirectories()``), `[]` for none.
    public static func fingerprint(root: DeviceRoot, catalog: String?, mimeDirectories: [String]? = nil) -> [UInt8] {
        var out: [UInt8] = []
        if let catalog {
            // The folder's own status changes whenever a file is added, removed or replaced by a
            // rename (as package managers and most editors save); each file's inode comes from the
            // listing itself. One `stat` and one `getdents` instead of a `stat` per file.
            append(catalog, FileSystem.status(catalog), to: &out)
            // Each `.plist` entry's name and inode hashed (FNV-1a) and combined in an order-free
            // way (count, sum, xor), straight from the directory buffer: no strings, no sort.
            var count: UInt64 = 0, sum: UInt64 = 0, mixed: UInt64 = 0
            FileSystem.forEachEntry(of: catalog) { name, inode in
                let length = name.count
                guard length > 6, name[length - 6] == 0x2E, name[length - 5] == 0x70, name[length - 4] == 0x6C,
                      name[length - 3] == 0x69, name[length - 2] == 0x73, name[length - 1] == 0x74 else { return }   // ".plist"
                var hash: UInt64 = 0xcbf2_9ce4_8422_2325
                for byte in name { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
                for k in 0..<8 { hash = (hash ^ ((inode >> (8 * UInt64(k))) & 0xFF)) &* 0x100_0000_01b3 }
                count &+= 1
                sum &+= hash
                mixed ^= hash &* 0x9E37_79B9_7F4A_7C15
            }
            for value in [count, sum, mixed] { withUnsafeBytes(of: value.littleEndian) { out += $0 } }
            out.append(0x0A)
        }
        append(root.appsDirectory, FileSystem.status(root.appsDirectory), to: &out)
        for directory in mimeDirectories ?? SharedMIMEDatabase.mimeDirectories() {
            let packages = directory + "/packages", cache = directory + "/mime.cache"
            append(packages, FileSystem.status(packages), to: &out)
            append(cache, FileSystem.status(cache), to: &out)
        }
        return out
    }

    static func fingerprint(of paths: [String]) -> [UInt8] {
        var out: [UInt8] = []
        for path in paths { append(path, FileSystem.status(path), to: &out) }
        return out
    }

    private static func append(_ path: String, _ info: stat?, to out: inout [UInt8]) {
        out += path.utf8
        out.append(0)
        if let info {
            for value in [UInt64(info.st_size), UInt64(info.st_mtim.tv_sec), UInt64(info.st_mtim.tv_nsec), UInt64(info.st_ino)] {
                withUnsafeBytes(of: value.littleEndian) { out += $0 }
            }
        }
        out.append(0x0A)
    }

    /// The registry for `root`, mapped from its file when current, else rebuilt and written.
    /// - Parameter mimeDirectories: the shared MIME database's `mime` folders, most important
    ///   first; `nil` for the machine's, `[]` for none (Apple's types and the apps' alone).
    public static func open(root: DeviceRoot, catalog: String?, mimeDirectories: [String]? = nil) throws(FileSystemError) -> TypeRegistry {
        let fingerprint = fingerprint(root: root, catalog: catalog, mimeDirectories: mimeDirectories)
        if let mapped = try? TypeRegistry(mapping: root.registryFile), mapped.fingerprint == fingerprint {
            return mapped
        }
        do {
            return try rebuild(root: root, catalog: catalog, mimeDirectories: mimeDirectories).registry
        } catch {
            // A device root the user cannot write (a read-only checkout, a system location):
            // answer from a registry built in memory rather than fail the query.
            return compile(root: root, catalog: catalog, mimeDirectories: mimeDirectories).registry
        }
    }

    /// Reads every source and writes a new registry file.
    @discardableResult
    public static func rebuild(root: DeviceRoot, catalog: String?, mimeDirectories: [String]? = nil) throws(FileSystemError) -> (registry: TypeRegistry, report: BuildReport) {
        let (registry, image, report) = compile(root: root, catalog: catalog, mimeDirectories: mimeDirectories)
        try FileSystem.makeDirectories(root.path)
        do { try FileContents.write(image, to: .init(root.registryFile)) } catch { throw FileSystemError(error.message) }
        return (registry, report)
    }

    /// Reads every source and compiles the registry image, without writing it.
    static func compile(root: DeviceRoot, catalog: String?, mimeDirectories: [String]? = nil) -> (registry: TypeRegistry, image: [UInt8], report: BuildReport) {
        var result = BuildReport()
        result.rebuilt = true
        var declarations: [TypeDeclaration] = []
        // The fingerprint is taken before reading, so a source changed during the build makes the
        // next query rebuild again rather than trust a stale registry.
        let fingerprint = fingerprint(root: root, catalog: catalog, mimeDirectories: mimeDirectories)
        for file in catalog.map(TypeCatalog.files(in:)) ?? [] {
            declarations += read(file, source: String(file.split(separator: "/").last ?? ""), asSystem: true, into: &result)
        }
        var apps: [AppRecordInput] = []
        for app in RegisteredApp.all(on: root) {
            let plist = try? PropertyListReader.read(contentsOf: .init(app.infoPlistPath)).value
            if let plist { apps.append(appRecord(app, plist)) }
            let bundleID = plist?["CFBundleIdentifier"]?.stringValue
            let name = bundleID.flatMap { $0.contains("$") ? nil : $0 } ?? app.name
            let translations = app.localizedStrings()
            declarations += read(app.infoPlistPath, source: name, asSystem: false, into: &result).map { declaration in
                var d = declaration
                if let description = d.description {
                    for (language, strings) in translations { if let text = strings[description] { d.localizedDescriptions[language] = text } }
                }
                return d
            }
        }
        let directories = mimeDirectories ?? SharedMIMEDatabase.mimeDirectories()
        let database = SharedMIMEDatabase.load(mimeDirectories: directories)
        result.mimeDiagnostics = database.diagnostics
        let image = TypeRegistry.compiledImage(declarations: declarations, mimeAliases: .load(from: MIMEAliases.files(in: directories)),
                                               mimeDatabase: database, fingerprint: fingerprint, apps: apps)
        // The image was just compiled from validated tables, so opening it cannot fail.
        return (try! TypeRegistry(image: RegistryImageStorage(copying: image)), image, result)
    }

    /// The Info.plist keys kept per app in the registry for the handler chooser (identity, document
    /// types, URL types, opening in place, the launch command, share extensions).
    public static let appRecordKeys = ["CFBundleIdentifier", "CFBundleDisplayName", "CFBundleName", "CFBundleShortVersionString",
                                       "CFBundleVersion", "CFBundleDocumentTypes", "CFBundleURLTypes",
                                       "LSSupportsOpeningDocumentsInPlace", "DILaunchCommand", "NSExtension"]

    /// One app's record: `RegistrationName`, `Path`, `InfoPlistPath`, `Info` (the kept keys) and
    /// `PlugIns` (`Name` and `Info` of each `PlugIns/*.appex`), with the types it claims.
    static func appRecord(_ app: RegisteredApp, _ plist: PropertyList) -> AppRecordInput {
        func kept(_ plist: PropertyList) -> PropertyList {
            var info: OrderedDictionary<String, PropertyList> = [:]
            for key in appRecordKeys { if let value = plist[key] { info[key] = value } }
            return .dictionary(info)
        }
        var plugIns: [PropertyList] = []
        for name in FileSystem.entries(of: app.path + "/PlugIns").sorted() where name.hasSuffix(".appex") {
            guard let info = try? PropertyListReader.read(contentsOf: .init(app.path + "/PlugIns/" + name + "/Info.plist")).value else { continue }
            plugIns.append(.dictionary(["Name": .string(name), "Info": kept(info)]))
        }
        let record = PropertyList.dictionary(["RegistrationName": .string(app.name), "Path": .string(app.path),
                                              "InfoPlistPath": .string(app.infoPlistPath), "Info": kept(plist), "PlugIns": .array(plugIns)])
        var claimed: [String] = [], legacy = false
        for entry in plist["CFBundleDocumentTypes"]?.arrayValue ?? [] {
            switch entry["LSItemContentTypes"] {
            case .string(let id)?: claimed.append(id)
            case .array(let ids)?: claimed += ids.compactMap(\.stringValue)
            default: legacy = true
            }
        }
        let identifier = plist["CFBundleIdentifier"]?.stringValue.flatMap { $0.isEmpty || $0.contains("$") ? nil : $0 } ?? app.name
        return AppRecordInput(identifier: identifier, record: BinaryPropertyListWriter().write(record), claimedTypes: claimed,
                              alwaysConsidered: legacy || plist["NSExtension"] != nil || !plugIns.isEmpty)
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
