import SystemCalls
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

    /// The catalog folder to use: the first of ``candidates(for:)`` that exists.
    public static func directory(for root: DeviceRoot) -> String? {
        candidates(for: root).first { FileSystem.isDirectory($0) }
    }

    /// Where a catalog is looked for, in order: the environment variable, the device root's own
    /// `UTIs/`, the install layout beside the running executable (`PREFIX/bin/TOOL` →
    /// `PREFIX/share/document-interchange/UTIs`), and, for a tool run from a build tree
    /// (`CHECKOUT/.build/…/TOOL`), the checkout's `UTIs/`.
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

    /// Why no catalog could be used: the places looked in.
    public struct NotFound: Error, Sendable, CustomStringConvertible {
        /// Every place looked in, in order.
        public var lookedIn: [String]
        /// "no type catalog found; looked in …".
        public var description: String { "no type catalog found; looked in " + lookedIn.joined(separator: ", ") }
    }

    /// The catalog folder, or an error naming every place looked in.
    public static func required(for root: DeviceRoot) throws(NotFound) -> String {
        let places = candidates(for: root)
        guard let found = places.first(where: { FileSystem.isDirectory($0) }) else { throw NotFound(lookedIn: places) }
        return found
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
/// modification time changes whenever an app is registered, unregistered or registered again) and
/// the shared MIME database's alias files: four `stat` calls and one directory read, whatever the
/// number of catalog files and apps. A catalog file replaced by a rename (package managers, most
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
        /// Whether this call rebuilt the file.
        public var rebuilt = false
    }

    /// The fingerprint of the sources as a query checks them: the catalog files, the `Apps/` folder
    /// and the shared MIME database's alias files.
    public static func fingerprint(root: DeviceRoot, catalog: String?) -> [UInt8] {
        var out: [UInt8] = []
        if let catalog {
            // The folder's own status changes whenever a file is added, removed or replaced by a
            // rename (as package managers and most editors save); each file's inode comes from the
            // listing itself. One `stat` and one `getdents` instead of a `stat` per file.
            append(catalog, FileSystem.rawStatus(catalog), to: &out)
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
        for path in [root.appsDirectory] + MIMEAliases.files() { append(path, FileSystem.rawStatus(path), to: &out) }
        return out
    }

    static func fingerprint(of paths: [String]) -> [UInt8] {
        var out: [UInt8] = []
        for path in paths { append(path, FileSystem.rawStatus(path), to: &out) }
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
    public static func open(root: DeviceRoot, catalog: String?) throws(FileSystemError) -> TypeRegistry {
        let fingerprint = fingerprint(root: root, catalog: catalog)
        // A query never creates a device root: on a root that does not exist (the user's default,
        // not set up yet) the catalog's compilation is kept in the user's cache folder instead.
        let file = root.exists ? root.registryFile : cacheFile(catalog: catalog)
        if let mapped = try? TypeRegistry(mapping: file), mapped.fingerprint == fingerprint {
            return mapped
        }
        let (registry, image, _) = compile(root: root, catalog: catalog)
        if root.exists || FileSystem.isDirectory(cacheDirectory) || (try? FileSystem.makeDirectories(cacheDirectory)) != nil {
            // A file the user cannot write (a read-only checkout, a system location): the query
            // is answered from the registry built in memory all the same.
            try? FileContents.write(image, to: .init(file))
        }
        return registry
    }

    /// `$XDG_CACHE_HOME/document-interchange` (else `~/.cache/document-interchange`): where the
    /// catalog's compilation is kept for queries on a device root that does not exist.
    public static var cacheDirectory: String {
        if let xdg = Environment.value("XDG_CACHE_HOME"), xdg.hasPrefix("/") { return xdg + "/document-interchange" }
        return Environment.home + "/.cache/document-interchange"
    }

    /// The cache file for `catalog` (one per catalog folder, so that a build tree and an
    /// installed copy do not rebuild each other's).
    static func cacheFile(catalog: String?) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (catalog ?? "").utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return cacheDirectory + "/registry-" + String(hash, radix: 16) + ".bin"
    }

    /// Reads every source and writes a new registry file.
    @discardableResult
    public static func rebuild(root: DeviceRoot, catalog: String?) throws(FileSystemError) -> (registry: TypeRegistry, report: BuildReport) {
        let (registry, image, report) = compile(root: root, catalog: catalog)
        do { try FileSystem.makeDirectories(root.path) } catch { throw FileSystemError(error) }
        do { try FileContents.write(image, to: .init(root.registryFile)) } catch { throw FileSystemError(error.message) }
        return (registry, report)
    }

    /// Reads every source and compiles the registry image, without writing it.
    static func compile(root: DeviceRoot, catalog: String?) -> (registry: TypeRegistry, image: [UInt8], report: BuildReport) {
        var result = BuildReport()
        result.rebuilt = true
        var declarations: [TypeDeclaration] = []
        // The fingerprint is taken before reading, so a source changed during the build makes the
        // next query rebuild again rather than trust a stale registry.
        let fingerprint = fingerprint(root: root, catalog: catalog)
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
        let image = TypeRegistry.compiledImage(declarations: declarations, mimeAliases: .load(from: MIMEAliases.files()),
                                               fingerprint: fingerprint,
                                               apps: apps)
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
