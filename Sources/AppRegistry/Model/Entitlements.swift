import OrderedCollections
import PropertyLists
import SystemCalls

/// An app's entitlements: the property list Xcode writes as `NAME.entitlements` and signs into
/// the app. On Linux there is no signature to carry them, so a bundle keeps them as a file beside
/// its Info.plist: `Entitlements.plist`, else the first `*.entitlements` (in name order).
public struct Entitlements: Sendable, Hashable {
    /// The key of App Group membership.
    public static let applicationGroupsKey = "com.apple.security.application-groups"
    /// The key of the team identifier.
    public static let teamIdentifierKey = "com.apple.developer.team-identifier"

    /// Every entitlement as written.
    public var values: PropertyList
    /// The file they were read from, if any.
    public var path: String?

    /// Entitlements from a value.
    public init(_ values: PropertyList = .dictionary([:]), path: String? = nil) {
        self.values = values
        self.path = path
    }

    /// The App Groups the app belongs to (`group.…` identifiers, in order).
    public var applicationGroups: [String] { InfoPlistValue.strings(values[Self.applicationGroupsKey]) }

    /// The developer team, when the entitlements name one.
    public var teamIdentifier: String? { values[Self.teamIdentifierKey]?.stringValue }

    /// The entitlements file of the bundle folder `bundle`, if it has one.
    public static func file(inBundle bundle: String) -> String? {
        let candidates = [bundle + "/Entitlements.plist", bundle + "/Contents/Entitlements.plist"]
        if let found = candidates.first(where: FileSystem.isRegularFile) { return found }
        for folder in [bundle, bundle + "/Contents"] {
            if let name = FileSystem.entries(of: folder).sorted().first(where: { $0.hasSuffix(".entitlements") }) { return folder + "/" + name }
        }
        return nil
    }

    /// Reads the entitlements of the bundle folder `bundle` (none when it has no file).
    /// - Throws: ``AppRegistryError/unreadable(path:reason:)`` when the file cannot be read.
    public static func read(bundle: String) throws(AppRegistryError) -> Entitlements {
        guard let path = file(inBundle: bundle) else { return Entitlements() }
        do { return Entitlements(try PropertyListReader.read(contentsOf: .init(path)).value, path: path) } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
    }
}
