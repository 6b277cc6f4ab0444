import AppGroups
import AppRegistry
import SystemCalls

/// The domains of a device root as the `defaults` tool names them: an App Group identifier
/// (`group.…`) is the group's shared defaults, anything else an app's own (by bundle identifier).
public enum DefaultsDomain {
    /// Where the defaults of `domain` are on `root`.
    /// - Throws: ``SharedDefaultsError/invalidSuiteName(_:reason:)`` or ``SharedDefaultsError/group(_:)``.
    public static func location(of domain: String, on root: DeviceRoot) throws(SharedDefaultsError) -> DefaultsLocation {
        if domain.hasPrefix(AppGroupIdentifier.prefix) { return try .group(domain, on: root) }
        if let problem = BundleIdentifier.problem(with: domain) { throw .invalidSuiteName(domain, reason: problem) }
        return try .app(domain, on: root)
    }

    /// Whether `location` holds any defaults (a property list, or a journal not yet merged);
    /// looking does not create anything.
    public static func exists(_ location: DefaultsLocation) -> Bool {
        FileSystem.isRegularFile(location.propertyList) || (FileSystem.status(location.journal)?.size ?? 0) > 0
    }

    /// Every domain on `root` that holds defaults, sorted: the apps' and the groups'.
    public static func all(on root: DeviceRoot) -> [String] {
        var names: [String] = []
        for id in AppContainer.identifiers(on: root) {
            if let location = try? DefaultsLocation.app(id, on: root), exists(location) { names.append(id) }
        }
        for id in GroupContainer.identifiers(on: root) {
            if let location = try? DefaultsLocation.group(id, on: root), exists(location) { names.append(id) }
        }
        return names.sorted()
    }

    /// The domains `root` knows without creating one: its registered apps' bundle identifiers
    /// (their share extensions' too), the App Groups their entitlements list, and every domain
    /// that already holds defaults. A write to any other domain creates it: the `defaults` tool
    /// asks for that on purpose (`--new-domain`), so that a typo creates nothing.
    public static func known(on root: DeviceRoot) -> Set<String> {
        var names = Set(all(on: root))
        for app in AppBundle.all(on: root).apps {
            names.insert(app.bundleIdentifier)
            names.formUnion(app.shareExtensions.map(\.activityType))
            names.formUnion(app.entitlements.applicationGroups)
        }
        return names
    }

    /// Makes the folder of `location` ready for writing: a group's container is created as
    /// ``AppGroups/GroupContainer/create()`` does (mode 0700); an app's preferences folder is
    /// created in its container.
    public static func prepare(_ location: DefaultsLocation, domain: String, on root: DeviceRoot) throws(SharedDefaultsError) {
        guard root.exists else { throw .group(.noDeviceRoot(root.path)) }
        if domain.hasPrefix(AppGroupIdentifier.prefix) {
            do { try GroupContainer(unchecked: domain, on: root).create() } catch { throw .group(error) }
        } else {
            do { try FileSystem.makeDirectories(location.folder, permissions: 0o700) } catch { throw .system(error) }
        }
    }
}
