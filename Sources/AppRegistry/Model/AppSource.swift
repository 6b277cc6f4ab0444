import PropertyLists
import SystemCalls
import UniformTypes

/// The files an app is read from: its Info.plist (build variables substituted with the values its
/// registration keeps), the Info.plists of `PlugIns/*.appex`, and its entitlements file.
public struct AppSource: Sendable {
    /// The Info.plist, variables substituted.
    public var plist: PropertyList
    /// `(folder name, Info.plist)` of each plug-in, in name order.
    public var plugIns: [(name: String, plist: PropertyList)]
    /// The entitlements.
    public var entitlements: Entitlements
    /// The registration it came from.
    public var app: RegisteredApp

    /// Reads the files of `app`.
    /// - Throws: ``AppRegistryError/unreadable(path:reason:)`` when the Info.plist (or the
    ///   entitlements file) cannot be read; an unreadable plug-in is left out.
    public init(_ app: RegisteredApp) throws(AppRegistryError) {
        self.app = app
        let raw: PropertyList
        do { raw = try PropertyListReader.read(contentsOf: .init(app.infoPlistPath)).value } catch {
            throw .unreadable(path: app.infoPlistPath, reason: "\(error)")
        }
        plist = app.variables.substitute(raw).0
        plugIns = []
        for entry in FileSystem.entries(of: app.path + "/PlugIns").sorted() where entry.hasSuffix(".appex") {
            guard let info = try? PropertyListReader.read(contentsOf: .init(app.path + "/PlugIns/" + entry + "/Info.plist")).value else { continue }
            plugIns.append((entry, app.variables.substitute(info).0))
        }
        entitlements = app.infoPlistPath == app.path ? Entitlements() : try Entitlements.read(bundle: app.path)
    }

    /// The app model.
    public var bundle: AppBundle {
        AppBundle(plist: plist, path: app.path, infoPlistPath: app.infoPlistPath, fallbackIdentifier: app.name,
                  plugIns: plugIns, entitlements: entitlements)
    }
}

extension AppBundle {
    /// Reads a registered app from its files.
    public init(_ app: RegisteredApp) throws(AppRegistryError) {
        self = try AppSource(app).bundle
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
