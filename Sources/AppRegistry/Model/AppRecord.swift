import OrderedCollections
import PropertyLists
import UniformTypes

/// An app as the compiled registry keeps it, so that a query reads no Info.plist: the keys the
/// app model reads (``InfoPlistKeys/recorded``), its plug-ins' and its entitlements, and where it
/// was registered from. Written by the registry store, read back into an ``AppBundle``.
public enum AppRecord {
    /// The record of the app read from `source`, with what the registry indexes.
    public static func input(for source: AppSource) -> AppRecordInput {
        func kept(_ plist: PropertyList) -> PropertyList {
            var info: OrderedDictionary<String, PropertyList> = [:]
            for key in InfoPlistKeys.recorded { if let value = plist[key] { info[key] = value } }
            return .dictionary(info)
        }
        let record = PropertyList.dictionary([
            "RegistrationName": .string(source.app.name), "Path": .string(source.app.path),
            "InfoPlistPath": .string(source.app.infoPlistPath), "Info": kept(source.plist),
            "PlugIns": .array(source.plugIns.map { .dictionary(["Name": .string($0.name), "Info": kept($0.plist)]) }),
            "Entitlements": source.entitlements.values,
        ])
        let bundle = source.bundle
        return AppRecordInput(identifier: bundle.bundleIdentifier, record: BinaryPropertyListWriter().write(record),
                              claimedTypes: bundle.claimedTypes, alwaysConsidered: bundle.isAlwaysConsidered,
                              urlSchemes: bundle.urlSchemes)
    }

    /// The app a record holds.
    public static func bundle(from record: PropertyList) -> AppBundle? {
        guard let info = record["Info"], let name = record["RegistrationName"]?.stringValue else { return nil }
        let plugIns = (record["PlugIns"]?.arrayValue ?? []).compactMap { plugIn -> (String, PropertyList)? in
            guard let entry = plugIn["Name"]?.stringValue, let plist = plugIn["Info"] else { return nil }
            return (entry, plist)
        }
        return AppBundle(plist: info, path: record["Path"]?.stringValue ?? "", infoPlistPath: record["InfoPlistPath"]?.stringValue ?? "",
                         fallbackIdentifier: name, plugIns: plugIns, entitlements: Entitlements(record["Entitlements"] ?? .dictionary([:])))
    }
}

extension AppBundle {
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
            if let number = type.number(in: registry) {
                indices.formUnion(registry.apps(claiming: number))
            } else {
                indices.formUnion(registry.apps(claimingUnregistered: type.identifier))
            }
            for supertype in type.supertypes {
                if let number = supertype.number(in: registry) { indices.formUnion(registry.apps(claiming: number)) }
            }
        }
        return decode(indices.sorted(), in: registry)
    }

    /// The registered app with this bundle identifier, as the registry recorded it.
    public static func registered(_ bundleIdentifier: String, in registry: TypeRegistry) -> AppBundle? {
        let matches = (0..<registry.appRecordCount).filter { registry.appIdentifier($0) == bundleIdentifier }
        return decode(matches, in: registry).first
    }

    /// The registered apps that handle URLs of `scheme` (ignoring case), from the registry's index
    /// of schemes, in registration-name order (not yet in the order that decides which opens it).
    public static func handling(scheme: String, in registry: TypeRegistry) -> [AppBundle] {
        decode(registry.apps(handlingScheme: scheme), in: registry)
    }

    /// The registered apps that declare `activityType` in `NSUserActivityTypes` (compared exactly,
    /// as Apple does), in registration-name order: the apps that can continue such an activity.
    public static func continuing(_ activityType: String, in registry: TypeRegistry) -> [AppBundle] {
        (all(in: registry) ?? []).filter { $0.activityTypes.contains(activityType) }
    }

    /// Whether an app with this bundle identifier is registered.
    public static func isRegistered(_ bundleIdentifier: String, in registry: TypeRegistry) -> Bool {
        (0..<registry.appRecordCount).contains { registry.appIdentifier($0) == bundleIdentifier }
    }

    static func decode(_ indices: [Int], in registry: TypeRegistry) -> [AppBundle] {
        indices.compactMap { index in
            guard let bytes = registry.appRecord(index), let record = try? PropertyListReader.value(ofBinary: bytes) else { return nil }
            return AppRecord.bundle(from: record)
        }
    }
}
