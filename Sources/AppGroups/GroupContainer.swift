import AppRegistry
import SystemCalls

/// An App Group's shared container on a device root: `ROOT/Groups/GROUP-ID/`, beside the apps'
/// own containers (``AppRegistry/DeviceRoot``). It is what Apple's
/// `containerURL(forSecurityApplicationGroupIdentifier:)` gives: created on first use, readable
/// and writable by its owner only (mode 0700), and given only to members of the group.
///
/// ```swift
/// let container = try GroupContainer(for: "group.com.example.notes", member: member, on: root)
/// try bytes.write(to: container.path + "/note.txt")
/// ```
public struct GroupContainer: Sendable, Hashable {
    /// The group.
    public var identifier: String
    /// The container folder (absolute).
    public var path: String

    /// The container of `group` on `root` for `member`, created (with `Library/Preferences/`)
    /// when it does not exist yet.
    /// - Throws: ``AppGroupError/notAMember(bundleIdentifier:group:memberOf:entitlementsFile:)``
    ///   when `member`'s entitlements do not list `group`; ``AppGroupError/invalidIdentifier(_:reason:)``;
    ///   ``AppGroupError/noDeviceRoot(_:)``; ``AppGroupError/unsafeContainer(path:reason:)`` when
    ///   what is there is a link, not a folder, or another user's.
    public init(for group: String, member: AppGroupMember, on root: DeviceRoot) throws(AppGroupError) {
        try member.checkMembership(of: group)
        try self.init(group, team: member.teamIdentifier, on: root)
        try create()
    }

    /// Where the container of `group` is on `root`, without asking who wants it or creating it
    /// (for administration: the `defaults` tool, listings).
    /// - Throws: ``AppGroupError/invalidIdentifier(_:reason:)``.
    public init(unchecked group: String, on root: DeviceRoot) throws(AppGroupError) {
        try self.init(group, team: nil, on: root)
    }

    private init(_ group: String, team: String?, on root: DeviceRoot) throws(AppGroupError) {
        if let reason = AppGroupIdentifier.problem(with: group, teamIdentifier: team) { throw .invalidIdentifier(group, reason: reason) }
        identifier = group
        path = root.groupsDirectory + "/" + group
        guard root.exists else { throw .noDeviceRoot(root.path) }
    }

    /// `Library/`.
    public var library: String { path + "/Library" }
    /// `Library/Preferences/`: the group's shared defaults (`GROUP-ID.plist`).
    public var preferences: String { path + "/Library/Preferences" }
    /// Whether the container exists.
    public var exists: Bool { FileSystem.isDirectory(path) }

    /// Creates the container (mode 0700) and `Library/Preferences/` when missing; tightens the
    /// mode of one that lets other users in.
    /// - Throws: ``AppGroupError/unsafeContainer(path:reason:)`` for a link, a non-folder or a
    ///   folder of another user; ``AppGroupError/system(_:)``.
    public func create() throws(AppGroupError) {
        let groups = String(path[..<path.lastIndex(of: "/")!])
        do {
            try FileSystem.makeDirectories(groups)
            let parent = try OwnedDescriptor.openFolder(groups, followLinks: true)
            let name = Array(identifier.utf8)
            try parent.makeFolder(name, permissions: 0o700)
            guard let status = try parent.status(of: name) else { throw SystemCallError(.lstat, path: path, errno: .noSuchFileOrDirectory) }
            guard status.kind == .directory else { throw AppGroupError.unsafeContainer(path: path, reason: "it is \(status.kind.phrase), not a folder") }
            guard status.owner == UserIdentity.effective else {
                throw AppGroupError.unsafeContainer(path: path, reason: "it belongs to user \(status.owner), not to this user (\(UserIdentity.effective))")
            }
            let folder = try parent.open(name, .readOnly, options: [.directory, .noFollow])
            if status.permissions & 0o077 != 0 { try folder.setPermissions(0o700) }
            try folder.makeFolder(Array("Library".utf8), permissions: 0o700)
            let library = try folder.open(Array("Library".utf8), .readOnly, options: [.directory, .noFollow])
            try library.makeFolder(Array("Preferences".utf8), permissions: 0o700)
        } catch let error as AppGroupError {
            throw error
        } catch let error as SystemCallError {
            throw .system(error)
        } catch {
            throw .unsafeContainer(path: path, reason: "\(error)")
        }
    }

    /// The groups that have a container on `root`, sorted (hidden names left out).
    public static func identifiers(on root: DeviceRoot) -> [String] {
        FileSystem.entries(of: root.groupsDirectory).filter { !$0.hasPrefix(".") && FileSystem.isDirectory(root.groupsDirectory + "/" + $0) }.sorted()
    }
}
