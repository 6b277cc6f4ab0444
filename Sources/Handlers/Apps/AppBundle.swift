import SystemCalls
import PropertyLists
import UniformTypes

/// A registered app as the chooser sees it: the Info.plist keys that decide what it opens, how it
/// is named and how it is started.
public struct AppBundle: Sendable, Hashable {
    /// `CFBundleIdentifier` (the registration's name when the plist has none).
    public var bundleIdentifier: String
    /// `CFBundleDisplayName`, else `CFBundleName`, else the bundle identifier.
    public var name: String
    /// `CFBundleShortVersionString`.
    public var shortVersion: String?
    /// `CFBundleVersion`.
    public var version: String?
    /// `CFBundleDocumentTypes`.
    public var claims: [DocumentTypeClaim]
    /// The URL schemes of `CFBundleURLTypes` (`CFBundleURLSchemes`), lower-cased.
    public var urlSchemes: [String]
    /// `LSSupportsOpeningDocumentsInPlace`: the app opens the original, no copy is made.
    public var opensDocumentsInPlace: Bool
    /// How to start the app on Linux (``LaunchCommand/key``), when it declares one.
    public var launchCommand: LaunchCommand?
    /// Share extensions: the app's own `NSExtension` and those of `PlugIns/*.appex`.
    public var shareExtensions: [ShareExtension]
    /// The bundle folder (or the lone Info.plist) it was registered from.
    public var path: String
    /// Its Info.plist.
    public var infoPlistPath: String

    /// Reads a registered app's Info.plist (and its `PlugIns/*.appex` Info.plists).
    /// - Throws: the reader's error when the Info.plist cannot be read.
    public init(_ app: RegisteredApp) throws {
        let plist = try PropertyListReader.read(contentsOf: .init(app.infoPlistPath)).value
        self.init(plist: plist, path: app.path, infoPlistPath: app.infoPlistPath, fallbackIdentifier: app.name)
        if FileSystem.isDirectory(app.path + "/PlugIns") {
            for entry in FileSystem.entries(of: app.path + "/PlugIns").sorted() where entry.hasSuffix(".appex") {
                let file = app.path + "/PlugIns/" + entry + "/Info.plist"
                guard let extensionPlist = try? PropertyListReader.read(contentsOf: .init(file)).value else { continue }
                addPlugIn(named: entry, extensionPlist)
            }
        }
    }

    /// Builds the model from a registry record (``RegistryStore/appRecord``), without reading files.
    init?(record: PropertyList) {
        guard let info = record["Info"], let name = record["RegistrationName"]?.stringValue else { return nil }
        self.init(plist: info, path: record["Path"]?.stringValue ?? "", infoPlistPath: record["InfoPlistPath"]?.stringValue ?? "",
                  fallbackIdentifier: name)
        for plugIn in record["PlugIns"]?.arrayValue ?? [] {
            if let entry = plugIn["Name"]?.stringValue, let plist = plugIn["Info"] { addPlugIn(named: entry, plist) }
        }
    }

    mutating func addPlugIn(named entry: String, _ plist: PropertyList) {
        if let share = ShareExtension(plist: plist, fallbackIdentifier: bundleIdentifier + "." + String(entry.dropLast(6))) {
            shareExtensions.append(share)
        }
    }

    /// The registered apps as the registry recorded them when it was built (no Info.plist is
    /// read); `nil` when the registry has no records.
    public static func all(in registry: TypeRegistry) -> [AppBundle]? {
        let count = registry.appRecordCount
        guard count > 0 else { return nil }
        return decode(Array(0..<count), in: registry)
    }

    /// The registered apps that can matter for documents of `types`: those whose document types
    /// name one of the types or their supertypes, and those read for every document (legacy
    /// extension/MIME claims, share extensions). Ranking these gives the same answer as ranking
    /// every app, at a cost that does not grow with the number of apps.
    public static func considered(for types: [UTType], in registry: TypeRegistry) -> [AppBundle] {
        var indices = Set(registry.appsAlwaysConsidered)
        for type in types {
            if let number = type.typeNumber {
                indices.formUnion(registry.apps(claiming: number))
            } else {
                indices.formUnion(registry.apps(claimingUnregistered: type.identifier))
            }
            for supertype in type.supertypes {
                if let number = supertype.typeNumber { indices.formUnion(registry.apps(claiming: number)) }
            }
        }
        return decode(indices.sorted(), in: registry)
    }

    /// The registered app with this bundle identifier, as the registry recorded it.
    public static func registered(_ bundleIdentifier: String, in registry: TypeRegistry) -> AppBundle? {
        let matches = (0..<registry.appRecordCount).filter { registry.appIdentifier($0) == bundleIdentifier }
        return decode(matches, in: registry).first
    }

    /// Whether an app with this bundle identifier is registered.
    public static func isRegistered(_ bundleIdentifier: String, in registry: TypeRegistry) -> Bool {
        (0..<registry.appRecordCount).contains { registry.appIdentifier($0) == bundleIdentifier }
    }

    static func decode(_ indices: [Int], in registry: TypeRegistry) -> [AppBundle] {
        indices.compactMap { index in
            guard let bytes = registry.appRecord(index), let record = try? PropertyListReader.value(ofBinary: bytes) else { return nil }
            return AppBundle(record: record)
        }
    }

    /// Builds the model from an Info.plist value.
    public init(plist: PropertyList, path: String = "", infoPlistPath: String = "", fallbackIdentifier: String = "") {
        let root = PropertyListCursor(plist)
        // An unresolved build variable (`$(PRODUCT_BUNDLE_IDENTIFIER)`, `${PRODUCT_NAME}`) names
        // nothing: the registration name stands in, as in the type registry.
        func resolved(_ value: String?) -> String? {
            guard let value, !value.isEmpty, !value.contains("$(") && !value.contains("${") else { return nil }
            return value
        }
        // As the registry names apps: any `$` in an identifier means a build variable.
        let identifier = root["CFBundleIdentifier"]?.value.stringValue.flatMap { $0.isEmpty || $0.contains("$") ? nil : $0 } ?? fallbackIdentifier
        bundleIdentifier = identifier
        name = resolved(root["CFBundleDisplayName"]?.value.stringValue) ?? resolved(root["CFBundleName"]?.value.stringValue) ?? identifier
        shortVersion = root["CFBundleShortVersionString"]?.value.stringValue
        version = root["CFBundleVersion"]?.value.stringValue
        claims = DocumentTypeClaim.claims(in: plist)
        urlSchemes = ((try? root.array("CFBundleURLTypes")) ?? nil)?.flatMap { entry in
            (((try? entry.stringOrArray("CFBundleURLSchemes")) ?? nil) ?? []).map { $0.lowercased() }
        } ?? []
        opensDocumentsInPlace = root["LSSupportsOpeningDocumentsInPlace"]?.value.boolValue ?? false
        launchCommand = LaunchCommand(plist: plist)
        shareExtensions = ShareExtension(plist: plist, fallbackIdentifier: identifier + ".share").map { [$0] } ?? []
        self.path = path
        self.infoPlistPath = infoPlistPath
    }

    /// Every app registered on `root`, in registration-name order; apps whose Info.plist cannot
    /// be read are reported in `unreadable` and left out.
    public static func all(on root: DeviceRoot) -> (apps: [AppBundle], unreadable: [(path: String, error: String)]) {
        var apps: [AppBundle] = [], unreadable: [(String, String)] = []
        for app in RegisteredApp.all(on: root) {
            do { apps.append(try AppBundle(app)) } catch { unreadable.append((app.infoPlistPath, "\(error)")) }
        }
        return (apps, unreadable)
    }
}
