import AppGroups
import AppRegistry
import SystemCalls

/// Where a suite's defaults live: the property list (what `plutil` and `defaults export` read),
/// and beside it the journal of changes not yet merged into it and the small shared file whose
/// counter tells every process that something changed.
///
/// ```
/// Containers/APP-ID/Library/Preferences/APP-ID.plist        an app's own defaults
/// Groups/GROUP-ID/Library/Preferences/GROUP-ID.plist        a group's shared defaults
///                                     ….plist.journal       changes since the last merge
///                                     ….plist.shm           change counter, lock
/// ```
public struct DefaultsLocation: Sendable, Hashable {
    /// The suite (a bundle identifier or a group identifier).
    public var suite: String
    /// The folder holding the files.
    public var folder: String

    /// The suite `suite` in `folder`.
    /// - Throws: ``SharedDefaultsError/invalidSuiteName(_:reason:)`` for a name that is not a
    ///   plain file name.
    public init(suite: String, folder: String) throws(SharedDefaultsError) {
        guard BundleIdentifier.canNameFolder(suite) else { throw .invalidSuiteName(suite, reason: "it must be a plain file name") }
        self.suite = suite
        self.folder = folder
    }

    /// The defaults of the app `bundleIdentifier` on `root` (its container's `Library/Preferences`).
    public static func app(_ bundleIdentifier: String, on root: DeviceRoot) throws(SharedDefaultsError) -> DefaultsLocation {
        do {
            let container = try AppContainer(bundleIdentifier: bundleIdentifier, on: root)
            return try DefaultsLocation(suite: bundleIdentifier, folder: container.preferences)
        } catch let error as SharedDefaultsError {
            throw error
        } catch {
            throw .invalidSuiteName(bundleIdentifier, reason: "\(error)")
        }
    }

    /// The shared defaults of `group` for `member`, as `UserDefaults(suiteName: "group.…")`:
    /// the group container is created on first use and refused to non-members.
    public static func group(_ group: String, member: AppGroupMember, on root: DeviceRoot) throws(SharedDefaultsError) -> DefaultsLocation {
        let container: GroupContainer
        do { container = try GroupContainer(for: group, member: member, on: root) } catch { throw .group(error) }
        return try DefaultsLocation(suite: group, folder: container.preferences)
    }

    /// The defaults of a group on `root` without a membership check (administration: `defaults`).
    public static func group(_ group: String, on root: DeviceRoot) throws(SharedDefaultsError) -> DefaultsLocation {
        let container: GroupContainer
        do { container = try GroupContainer(unchecked: group, on: root) } catch { throw .group(error) }
        return try DefaultsLocation(suite: group, folder: container.preferences)
    }

    /// `SUITE.plist`.
    public var propertyList: String { folder + "/" + suite + ".plist" }
    /// `SUITE.plist.journal`.
    public var journal: String { propertyList + ".journal" }
    /// `SUITE.plist.shm`.
    public var sharedFile: String { propertyList + ".shm" }
}
