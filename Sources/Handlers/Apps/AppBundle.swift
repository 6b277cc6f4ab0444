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
        if let share = ShareExtension(plist: plist, fallbackIdentifier: bundleIdentifier + "." + entry.dropLast(6)) {
            shareExtensions.append(share)
        }
    }

    /// The registered apps as the registry recorded them when it was built (one binary property
    /// list instead of every Info.plist); `nil` when the registry has no records.
    public static func all(in registry: TypeRegistry) -> [AppBundle]? {
        let bytes = registry.appRecordBytes
        guard !bytes.isEmpty, let records = try? PropertyListReader.read(bytes).value.arrayValue else { return nil }
        return records.compactMap(AppBundle.init(record:))
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
        let identifier = resolved(root["CFBundleIdentifier"]?.value.stringValue) ?? fallbackIdentifier
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
