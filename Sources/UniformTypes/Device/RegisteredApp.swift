import PropertyLists

/// An app registered on a device root, located by its entry in `Apps/`.
public struct RegisteredApp: Sendable, Hashable {
    /// The entry's name in `Apps/` (usually the bundle identifier with `.app`).
    public var name: String
    /// The entry's path: a bundle folder, or an Info.plist file (a bundle reduced to its plist).
    public var path: String
    /// The Info.plist: `Info.plist` (iOS layout) or `Contents/Info.plist` (macOS), or the entry itself.
    public var infoPlistPath: String

    /// Finds the Info.plist of the entry at `path`; `nil` when there is none.
    public init?(name: String, path: String) {
        self.name = name
        self.path = path
        if FileSystem.isRegularFile(path) {
            infoPlistPath = path
        } else if FileSystem.isRegularFile(path + "/Info.plist") {
            infoPlistPath = path + "/Info.plist"
        } else if FileSystem.isRegularFile(path + "/Contents/Info.plist") {
            infoPlistPath = path + "/Contents/Info.plist"
        } else {
            return nil
        }
    }

    /// The bundle's `InfoPlist.strings` for `language` (`en.lproj`, or `Base.lproj`), if any.
    public func localizedStringsPath(language: String) -> String? {
        let bundle = infoPlistPath.hasSuffix("/Contents/Info.plist") ? path + "/Contents/Resources" : path
        for folder in ["\(language).lproj", "Base.lproj"] {
            let candidate = "\(bundle)/\(folder)/InfoPlist.strings"
            if FileSystem.isRegularFile(candidate) { return candidate }
        }
        return nil
    }

    /// The apps registered on `root`, sorted by name (the order never matters to the registry).
    public static func all(on root: DeviceRoot) -> [RegisteredApp] {
        FileSystem.entries(of: root.appsDirectory).sorted().compactMap {
            RegisteredApp(name: $0, path: root.appsDirectory + "/" + $0)
        }
    }
}
