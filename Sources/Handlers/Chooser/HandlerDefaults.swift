import AppRegistry
import OrderedCollections
import PropertyLists
import SystemCalls
import SystemPackage
import UniformTypes

/// The user's default app per type, with fallback to supertypes (as `LSSetDefaultRoleHandlerForContentType`
/// and mimeapps.list's Default Applications): `ROOT/Preferences/DefaultHandlers.plist`, a dictionary
/// of type identifier → bundle identifier, written atomically.
public struct HandlerDefaults: Sendable {
    /// The file.
    public var path: String
    /// Type identifier → bundle identifier.
    public var entries: OrderedDictionary<String, String>

    /// Reads the defaults of `root` (none when the file is missing).
    /// - Throws: ``HandlerError`` when the file exists but cannot be read as a dictionary.
    public init(root: DeviceRoot) throws(HandlerError) {
        path = root.path + "/Preferences/DefaultHandlers.plist"
        entries = [:]
        guard FileSystem.status(path) != nil else { return }
        let plist: PropertyList
        do { plist = try PropertyListReader.read(contentsOf: FilePath(path)).value } catch { throw .refused("\(path): \(error)") }
        guard case .dictionary(let dict) = plist else { throw .refused("\(path): not a dictionary of type → bundle identifier") }
        for (type, value) in dict { if let id = value.stringValue { entries[type] = id } }
    }

    /// The default for `type`'s identifier itself, if set.
    public func get(_ type: String) -> String? {
        entries.first { TypeIdentifierSyntax.normalized($0.key) == TypeIdentifierSyntax.normalized(type) }?.value
    }

    /// Sets or (with `nil`) removes the default for `type`, and writes the file.
    public mutating func set(_ type: String, to bundleIdentifier: String?) throws(HandlerError) {
        for key in entries.keys where TypeIdentifierSyntax.normalized(key) == TypeIdentifierSyntax.normalized(type) { entries[key] = nil }
        if let bundleIdentifier { entries[type] = bundleIdentifier }
        if let slash = path.lastIndex(of: "/") {
            do { try FileSystem.makeDirectories(String(path[..<slash])) } catch { throw .system(error) }
        }
        let value = PropertyList.dictionary(OrderedDictionary(uniqueKeysWithValues: entries.map { ($0.key, PropertyList.string($0.value)) }))
        do { try FileContents.write(try XMLPropertyListWriter().write(value), to: FilePath(path)) } catch { throw .refused("\(path): \(error)") }
    }

    /// The default that applies to documents of `type`: set for the type itself, else for its
    /// nearest supertype (``DefaultHandlerRule``), as `openin default get` answers.
    public func applying(to type: UTType, registry: TypeRegistry) -> DefaultHandlerRule.Match? {
        let distance = HandlerRanking(registry: registry).distancesFromType(type)
        return DefaultHandlerRule.nearest(in: byType, distance: { distance[TypeIdentifierSyntax.normalized($0)] })
    }

    /// The entries as the ranking takes them.
    public var byType: [String: String] { Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a }) }
}
