import SystemCalls
import PropertyLists
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Registering and unregistering apps on a device root: an entry in `ROOT/Apps/` that links to the
/// bundle folder (or to a lone Info.plist), named after the bundle identifier.
public enum Registration {
    /// Why a registration failed.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong.
        public var message: String
        /// The message.
        public var description: String { message }
    }

    /// Creates `ROOT/Apps` if needed.
    public static func ensureAppsDirectory(_ root: DeviceRoot) throws(FileSystemError) {
        do { try FileSystem.makeDirectories(root.appsDirectory) } catch { throw FileSystemError(error) }
    }

    /// Registers the bundle or Info.plist at `path`; returns the entry's name.
    ///
    /// The name is the bundle identifier, or, when the Info.plist has none or only an unresolved
    /// build variable (`$(PRODUCT_BUNDLE_IDENTIFIER)`), the file or folder name. An existing entry
    /// of that name is replaced (re-registering picks up a moved bundle).
    public static func register(_ path: String, on root: DeviceRoot) throws(Failure) -> String {
        let absolute = path.hasPrefix("/") ? path : currentDirectory() + "/" + path
        guard let app = RegisteredApp(name: "", path: absolute) else {
            throw Failure(message: "no Info.plist there (looked for the file itself, Info.plist and Contents/Info.plist)")
        }
        let plist: PropertyList
        do { plist = try PropertyListReader.read(contentsOf: .init(app.infoPlistPath)).value } catch {
            throw Failure(message: "\(app.infoPlistPath): \(error)")
        }
        var name = plist["CFBundleIdentifier"]?.stringValue ?? ""
        if name.isEmpty || name.contains("$") || name.contains("/") || name.hasPrefix(".") {
            name = String(absolute.split(separator: "/").last ?? "app")
            if name == "Info.plist" { name = String(absolute.split(separator: "/").dropLast().last ?? "app") }
        }
        let entry = root.appsDirectory + "/" + name
        if absolute.hasPrefix(root.appsDirectory + "/") { return name }
        if let info = lstatus(entry), info.st_mode & S_IFMT != S_IFLNK {
            throw Failure(message: "\(entry) exists and is not a registration link")
        }
        unlink(entry)
        guard symlink(absolute, entry) == 0 else {
            throw Failure(message: "\(entry): \(String(cString: strerror(errno)))")
        }
        return name
    }

    /// Removes the registration `name` (a link in `ROOT/Apps`); bundles stored inside the root are
    /// left alone.
    public static func unregister(_ name: String, on root: DeviceRoot) throws(Failure) {
        let entry = root.appsDirectory + "/" + name
        guard !name.contains("/"), let info = lstatus(entry) else { throw Failure(message: "not registered") }
        guard info.st_mode & S_IFMT == S_IFLNK else {
            throw Failure(message: "\(entry) is a bundle stored in the device root; remove it yourself")
        }
        guard unlink(entry) == 0 else { throw Failure(message: "\(entry): \(String(cString: strerror(errno)))") }
    }

    static func lstatus(_ path: String) -> stat? {
        var info = stat()
        return lstat(path, &info) == 0 ? info : nil
    }

    static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
