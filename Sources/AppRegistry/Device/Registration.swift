import OrderedCollections
import PropertyLists
import SystemCalls

/// Registering and unregistering apps on a device root: an entry in `ROOT/Apps/` that links to the
/// bundle folder (or to a lone Info.plist), named after the bundle identifier, and the build
/// variables it was registered with, if any (`Apps/.NAME.variables.plist`).
public enum Registration {
    /// Creates `ROOT/Apps` (and the root) if needed: registering is how a device root is set up.
    public static func ensureAppsDirectory(_ root: DeviceRoot) throws(AppRegistryError) {
        do { try FileSystem.makeDirectories(root.appsDirectory) } catch { throw .system(error) }
    }

    /// Registers the bundle or Info.plist at `path`; returns the entry's name.
    ///
    /// The name is the bundle identifier as built (with `variables` substituted), or, when it is
    /// still not usable (``BundleIdentifier/usable(_:)``), the file or folder name. An existing
    /// entry of that name is replaced (re-registering picks up a moved bundle or new variables).
    public static func register(_ path: String, on root: DeviceRoot, variables: BuildVariables = BuildVariables()) throws(AppRegistryError) -> String {
        let absolute: String
        do { absolute = try CurrentProcess.absolutePath(path) } catch { throw .system(error) }
        guard let app = RegisteredApp(name: "", path: absolute, variables: variables) else {
            throw .noInfoPlist(lookedIn: [absolute] + RegisteredApp.infoPlistCandidates(absolute))
        }
        let plist: PropertyList
        do { plist = try PropertyListReader.read(contentsOf: .init(app.infoPlistPath)).value } catch {
            throw .unreadable(path: app.infoPlistPath, reason: "\(error)")
        }
        var name = BundleIdentifier.usable(variables.substitute(plist).0["CFBundleIdentifier"]?.stringValue) ?? ""
        if !BundleIdentifier.canNameFolder(name) {
            name = String(absolute.split(separator: "/").last ?? "app")
            if name == "Info.plist" { name = String(absolute.split(separator: "/").dropLast().last ?? "app") }
        }
        guard BundleIdentifier.canNameFolder(name) else { throw .invalidBundleIdentifier(name) }
        try ensureAppsDirectory(root)
        let entry = root.appsDirectory + "/" + name
        if !absolute.hasPrefix(root.appsDirectory + "/") {
            if let info = FileSystem.linkStatus(entry), info.kind != .symbolicLink { throw .storedInRoot(entry) }
            do {
                if FileSystem.exists(entry) { try FileSystem.remove(entry) }
                try FileSystem.makeSymbolicLink(at: entry, pointingTo: absolute)
            } catch { throw .system(error) }
        }
        let file = RegisteredApp.variablesFile(of: name, on: root)
        do {
            if variables.values.isEmpty {
                if FileSystem.exists(file) { try FileSystem.remove(file) }
            } else {
                let sorted = variables.values.sorted { $0.key < $1.key }
                let value = PropertyList.dictionary(OrderedDictionary(uniqueKeysWithValues: sorted.map { ($0.key, PropertyList.string($0.value)) }))
                try AtomicFile.write((try? XMLPropertyListWriter().write(value)) ?? [], to: file)
            }
        } catch { throw .system(error) }
        return name
    }

    /// Removes the registration `name` (a link in `ROOT/Apps`, and its variables); bundles stored
    /// inside the root are left alone.
    public static func unregister(_ name: String, on root: DeviceRoot) throws(AppRegistryError) {
        let entry = root.appsDirectory + "/" + name
        guard BundleIdentifier.canNameFolder(name), let info = FileSystem.linkStatus(entry) else { throw .notRegistered(name) }
        guard info.kind == .symbolicLink else { throw .storedInRoot(entry) }
        do {
            try FileSystem.remove(entry)
            let file = RegisteredApp.variablesFile(of: name, on: root)
            if FileSystem.exists(file) { try FileSystem.remove(file) }
        } catch { throw .system(error) }
    }
}
