import AppRegistry
import OrderedCollections
import PropertyLists
import SystemCalls
import SystemPackage

/// The user's default app per URL scheme (`openurl default set SCHEME BUNDLE`), beside the
/// defaults per type (``HandlerDefaults``) and in the same style:
/// `ROOT/Preferences/DefaultSchemeHandlers.plist`, a dictionary of scheme → bundle identifier,
/// written atomically. Schemes are stored normalized (lowercase): they compare ignoring case.
public struct SchemeDefaults: Sendable {
    /// The file.
    public var path: String
    /// Scheme (lowercase) → bundle identifier.
    public var entries: OrderedDictionary<String, String>

    /// The file of `root`.
    public static func file(on root: DeviceRoot) -> String { root.preferencesDirectory + "/DefaultSchemeHandlers.plist" }

    /// Reads the defaults of `root` (none when the file is missing).
    /// - Throws: ``HandlerError/unreadableFile(path:reason:)`` when the file exists but is not a
    ///   dictionary of strings.
    public init(root: DeviceRoot) throws(HandlerError) {
        path = Self.file(on: root)
        entries = [:]
        guard FileSystem.status(path) != nil else { return }
        let plist: PropertyList
        do { plist = try PropertyListReader.read(contentsOf: FilePath(path)).value } catch { throw .unreadableFile(path: path, reason: "\(error)") }
        guard case .dictionary(let dict) = plist else { throw .unreadableFile(path: path, reason: "not a dictionary of scheme → bundle identifier") }
        for (scheme, value) in dict { if let id = value.stringValue { entries[URLType.normalized(scheme)] = id } }
    }

    /// The default for `scheme`, if set.
    public func get(_ scheme: String) -> String? { entries[URLType.normalized(scheme)] }

    /// Sets or (with `nil`) removes the default for `scheme`, and writes the file.
    public mutating func set(_ scheme: String, to bundleIdentifier: String?) throws(HandlerError) {
        entries[URLType.normalized(scheme)] = bundleIdentifier
        do { try FileSystem.makeDirectories(String(path[..<path.lastIndex(of: "/")!])) } catch { throw .system(error) }
        let value = PropertyList.dictionary(OrderedDictionary(uniqueKeysWithValues: entries.map { ($0.key, PropertyList.string($0.value)) }))
        let bytes: [UInt8]
        do { bytes = try XMLPropertyListWriter().write(value) } catch { throw .unreadableFile(path: path, reason: "\(error)") }
        do { try AtomicFile.write(bytes, to: path) } catch { throw .system(error) }
    }
}
