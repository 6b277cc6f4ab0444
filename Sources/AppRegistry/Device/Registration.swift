import OrderedCollections
import PropertyLists
import Spelling
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
    /// The name is the bundle identifier as built (with `variables` substituted), or, while there
    /// is none or it still holds a build variable, the file or folder name. A property list with
    /// none of an Info.plist's keys, or with an invalid identifier, is not an app and is refused
    /// (``AppRegistryError/notAnApp(path:reason:)``).
    /// An existing entry of that name is replaced (re-registering picks up a moved bundle or new
    /// variables). A root that does not exist is created when it is the user's default, or with
    /// `creatingRoot` (a program's call is on purpose; `uti register` passes it only for
    /// `--create-root`, so that a typo creates nothing).
    public static func register(_ path: String, on root: DeviceRoot, variables: BuildVariables = BuildVariables(),
                                creatingRoot: Bool = true) throws(AppRegistryError) -> String {
        if !root.exists && root.origin != .userDefault && !creatingRoot {
            throw .noDeviceRootToCreate(root.path, similar: similarFolder(to: root.path))
        }
        let absolute: String
        do { absolute = try CurrentProcess.absolutePath(path) } catch { throw .system(error) }
        guard let app = RegisteredApp(name: "", path: absolute, variables: variables) else {
            throw .noInfoPlist(lookedIn: [absolute] + RegisteredApp.infoPlistCandidates(absolute))
        }
        let plist: PropertyList
        do { plist = try PropertyListReader.read(contentsOf: .init(app.infoPlistPath)).value } catch {
            throw .unreadable(path: app.infoPlistPath, reason: "\(error)")
        }
        // Only an app is registered: a property list with none of an Info.plist's keys (a
        // document) is refused before anything is created. An app without a usable identifier
        // (a source tree's Info.plist: `$(PRODUCT_BUNDLE_IDENTIFIER)`, or none where Xcode
        // generates it) is named after its file or folder, until `--define` resolves it.
        guard case .dictionary(let keys) = plist else { throw .notAnApp(path: app.infoPlistPath, reason: .notADictionary) }
        guard keys.keys.contains(where: InfoPlistKeys.topLevel.contains) else { throw .notAnApp(path: app.infoPlistPath, reason: .noInfoPlistKeys) }
        let written = variables.substitute(plist).0["CFBundleIdentifier"]?.stringValue ?? ""
        let name: String
        if let usable = BundleIdentifier.usable(written) {
            if let problem = BundleIdentifier.problem(with: usable) {
                throw .notAnApp(path: app.infoPlistPath, reason: .invalidBundleIdentifier(usable, problem: problem))
            }
            name = usable
        } else {
            let last = String(absolute.split(separator: "/").last ?? "app")
            name = last == "Info.plist" ? String(absolute.split(separator: "/").dropLast().last ?? "app") : last
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

    /// A folder beside `path` whose name is one or two edits from its name (`Samples` for
    /// `Sampels`), for a did-you-mean.
    public static func similarFolder(to path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard let last = parts.last.map(String.init) else { return nil }
        let parent = "/" + parts.dropLast().joined(separator: "/")
        let folders = FileSystem.entries(of: parent).filter { FileSystem.isDirectory(parent + "/" + $0) && $0 != last }
        guard let nearest = Spelling.nearest(to: last, among: folders) else { return nil }
        return (parent == "/" ? "" : parent) + "/" + nearest
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
