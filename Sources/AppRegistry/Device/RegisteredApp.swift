import SystemCalls
import PropertyLists

/// An app registered on a device root, located by its entry in `Apps/`.
public struct RegisteredApp: Sendable, Hashable {
    /// The entry's name in `Apps/` (usually the bundle identifier with `.app`).
    public var name: String
    /// The entry's path: a bundle folder, or an Info.plist file (a bundle reduced to its plist).
    public var path: String
    /// The Info.plist: `Info.plist` (iOS layout) or `Contents/Info.plist` (macOS), or the entry itself.
    public var infoPlistPath: String
    /// The build variables the registration was given (`uti register --define`), applied to the
    /// Info.plist before anything reads it.
    public var variables: BuildVariables

    /// Where an Info.plist is looked for in a bundle folder, in order.
    public static func infoPlistCandidates(_ path: String) -> [String] { [path + "/Info.plist", path + "/Contents/Info.plist"] }

    /// Finds the Info.plist of the entry at `path`; `nil` when there is none.
    public init?(name: String, path: String, variables: BuildVariables = BuildVariables()) {
        self.name = name
        self.path = path
        self.variables = variables
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

    /// The bundle's `LANG.lproj/InfoPlist.strings` tables by language (`Base` is not a language and
    /// is skipped); unreadable files are skipped too.
    public func localizedStrings() -> [String: [String: String]] {
        guard infoPlistPath != path else { return [:] }
        let resources = infoPlistPath.hasSuffix("/Contents/Info.plist") ? path + "/Contents/Resources" : path
        var tables: [String: [String: String]] = [:]
        for folder in FileSystem.entries(of: resources) where folder.hasSuffix(".lproj") && folder != "Base.lproj" {
            let language = String(folder.dropLast(".lproj".count))
            guard let value = try? PropertyListReader.read(contentsOf: .init("\(resources)/\(folder)/InfoPlist.strings")).value,
                  case .dictionary(let entries) = value else { continue }
            tables[language] = entries.reduce(into: [:]) { table, entry in
                if let text = entry.value.stringValue { table[entry.key] = text }
            }
        }
        return tables
    }

    /// The apps registered on `root`, sorted by name (the order never matters to the registry).
    /// Hidden names are the registrations' own files (their build variables), not apps.
    public static func all(on root: DeviceRoot) -> [RegisteredApp] {
        FileSystem.entries(of: root.appsDirectory).filter { !$0.hasPrefix(".") }.sorted().compactMap { name in
            let variables = (try? PropertyListReader.read(contentsOf: .init(variablesFile(of: name, on: root))).value)?
                .dictionaryValue.map { BuildVariables($0.reduce(into: [:]) { $0[$1.key] = $1.value.stringValue }) } ?? BuildVariables()
            return RegisteredApp(name: name, path: root.appsDirectory + "/" + name, variables: variables)
        }
    }

    /// Where the registration `name` keeps its build variables: `Apps/.NAME.variables.plist`.
    public static func variablesFile(of name: String, on root: DeviceRoot) -> String {
        root.appsDirectory + "/." + name + ".variables.plist"
    }
}
