import AppGroups
import AppRegistry
import OrderedCollections
import PropertyLists
import Synchronization
import SystemCalls

/// `UserDefaults` for Linux, shared between processes: an app's own defaults or an App Group's
/// (`UserDefaults(suiteName: "group.…")`), with nothing lost when several processes write at once
/// or one is killed.
///
/// ```swift
/// let shared = try SharedDefaults(suiteName: "group.com.example.notes", member: member, on: root)
/// shared.set(.string("Buy milk"), forKey: "note")      // returns in microseconds
/// shared.string(forKey: "note")                         // "Buy milk", here and in every member
/// let token = shared.observe { change in print(change.keys) }
/// ```
///
/// What a call promises (docs/app-groups.md has the figures):
/// - `set` and `removeObject` return once the change is in the suite's journal: this process
///   sees it at once, every other process's next read sees it, and it survives this process being
///   killed (`kill -9`). It does not yet survive a power loss.
/// - ``synchronize()`` merges the journal into the property list and flushes it to the disk: after
///   it returns `true`, the change survives a power loss. Merges also happen in the background
///   once writes pause (50 ms), so the property list stays current for `plutil` and backups.
/// - A read whose suite has not changed makes no system call.
public final class SharedDefaults: Sendable {
    let store: SuiteStore
    private let registered = Mutex<OrderedDictionary<String, PropertyList>>([:])

    /// The suite's files.
    public var location: DefaultsLocation { store.location }

    /// The defaults of the suite at `location` (no membership check: the caller decided).
    public init(location: DefaultsLocation) {
        store = SuiteStore(location)
    }

    /// `UserDefaults(suiteName:)` for `member`: a `group.…` name gives the group's shared
    /// defaults (refused unless `member` is in the group), the member's own bundle identifier its
    /// own defaults.
    /// - Throws: ``SharedDefaultsError/group(_:)`` for a group `member` is not in, or an invalid
    ///   name.
    public convenience init(suiteName: String, member: AppGroupMember, on root: DeviceRoot) throws(SharedDefaultsError) {
        if suiteName == member.bundleIdentifier {
            self.init(location: try .app(suiteName, on: root))
        } else {
            self.init(location: try .group(suiteName, member: member, on: root))
        }
    }

    /// `UserDefaults(suiteName:)` with Apple's shape: for the app the launcher started
    /// (`DI_BUNDLE_IDENTIFIER`) on its device root (`DOCUMENT_INTERCHANGE_ROOT`, else the
    /// user's), found as `UTType` finds its registry, so Apple code makes no set-up call. `nil`
    /// (as Foundation's initializer) when the app is unknown or not in the group; a `nil` suite
    /// name is the app's own defaults.
    ///
    /// Linux's Foundation has `UserDefaults(suiteName:)` too, but keeps a suite in
    /// `~/.config/SUITE.plist`, not the group's container: processes of a group would not share it.
    public convenience init?(suiteName: String?) {
        let root = DeviceRoot.resolve(explicit: nil)
        guard let identifier = Environment.value(LaunchCommand.identityVariable).flatMap({ $0.isEmpty ? nil : $0 }),
              let catalog = try? TypeCatalog.requiredForPrograms(on: root),
              let registry = try? RegistryStore.open(root: root, catalog: catalog),
              let app = AppBundle.registered(identifier, in: registry) else { return nil }
        do {
            try self.init(suiteName: suiteName ?? identifier, member: AppGroupMember(app: app), on: root)
        } catch {
            return nil
        }
    }

    /// `UserDefaults.standard` for `member`: its own defaults.
    public static func standard(for member: AppGroupMember, on root: DeviceRoot) throws(SharedDefaultsError) -> SharedDefaults {
        SharedDefaults(location: try .app(member.bundleIdentifier, on: root))
    }

    // MARK: Reading

    /// The value for `key`: the suite's own, else the registered default; `nil` when neither.
    public func object(forKey key: String) -> PropertyList? {
        store.withValues { $0[key] } ?? registered.withLock { $0[key] }
    }

    /// The string for `key`, or `nil` when absent or not a string.
    public func string(forKey key: String) -> String? { object(forKey: key)?.stringValue }

    /// The integer for `key` (a real truncated, a boolean 1 or 0, a string parsed, as
    /// Foundation converts), or 0.
    public func integer(forKey key: String) -> Int {
        switch object(forKey: key) {
        case .integer(let n)?: Int(n)
        case .unsignedInteger(let n)?: Int(truncatingIfNeeded: n)
        case .real(let r)? where r.isFinite && abs(r) < 9.2e18: Int(r)
        case .bool(let b)?: b ? 1 : 0
        case .string(let s)?: Int(s) ?? Double(s).flatMap { $0.isFinite && abs($0) < 9.2e18 ? Int($0) : nil } ?? 0
        default: 0
        }
    }

    /// The number for `key` as a `Double`, or 0.
    public func double(forKey key: String) -> Double {
        switch object(forKey: key) {
        case .integer(let n)?: Double(n)
        case .unsignedInteger(let n)?: Double(n)
        case .real(let r)?: r
        case .bool(let b)?: b ? 1 : 0
        case .string(let s)?: Double(s) ?? 0
        default: 0
        }
    }

    /// The boolean for `key` (a non-zero number, or a string YES/true/1, is true), or `false`.
    public func bool(forKey key: String) -> Bool {
        switch object(forKey: key) {
        case .bool(let b)?: b
        case .integer(let n)?: n != 0
        case .unsignedInteger(let n)?: n != 0
        case .real(let r)?: r != 0
        case .string(let s)?: ["yes", "true"].contains(s.lowercased()) || (Int(s) ?? 0) != 0
        default: false
        }
    }

    /// The bytes for `key`, or `nil`.
    public func data(forKey key: String) -> [UInt8]? {
        if case .data(let bytes)? = object(forKey: key) { return bytes }
        return nil
    }

    /// The array for `key`, or `nil`.
    public func array(forKey key: String) -> [PropertyList]? {
        if case .array(let elements)? = object(forKey: key) { return elements }
        return nil
    }

    /// The array of strings for `key`, or `nil` when absent or holding anything but strings.
    public func stringArray(forKey key: String) -> [String]? {
        guard let elements = array(forKey: key) else { return nil }
        let strings = elements.compactMap(\.stringValue)
        return strings.count == elements.count ? strings : nil
    }

    /// The dictionary for `key`, or `nil`.
    public func dictionary(forKey key: String) -> OrderedDictionary<String, PropertyList>? {
        if case .dictionary(let entries)? = object(forKey: key) { return entries }
        return nil
    }

    /// Every value: the registered defaults overridden by the suite's own.
    public func dictionaryRepresentation() -> OrderedDictionary<String, PropertyList> {
        var all = registered.withLock { $0 }
        store.withValues { values in for (key, value) in values { all[key] = value } }
        return all
    }

    /// The suite's own values (no registered defaults): what its property list holds once merged.
    public func persistentDomain() -> OrderedDictionary<String, PropertyList> { store.withValues { $0 } }

    // MARK: Writing

    /// Sets `value` for `key` (`nil` removes it). Failures are kept in ``lastError`` and make the
    /// next ``synchronize()`` return `false`; ``save(_:forKey:)`` throws them instead.
    public func set(_ value: PropertyList?, forKey key: String) {
        do { try self.save(value, forKey: key) } catch { store.record(error) }
    }

    /// Sets a string.
    public func set(_ value: String, forKey key: String) { set(.string(value), forKey: key) }
    /// Sets an integer.
    public func set(_ value: Int, forKey key: String) { set(.integer(Int64(value)), forKey: key) }
    /// Sets a real number.
    public func set(_ value: Double, forKey key: String) { set(.real(value), forKey: key) }
    /// Sets a boolean.
    public func set(_ value: Bool, forKey key: String) { set(.bool(value), forKey: key) }

    /// Removes the value for `key` (a registered default shows through again).
    public func removeObject(forKey key: String) { set(nil, forKey: key) }

    /// Sets `value` for `key` (`nil` removes it), throwing what went wrong.
    public func save(_ value: PropertyList?, forKey key: String) throws(SharedDefaultsError) {
        try store.append(value.map { .set(key, $0) } ?? .remove(key))
    }

    /// Replaces every value of the suite with `values` (`defaults import`, `setPersistentDomain`).
    public func setPersistentDomain(_ values: OrderedDictionary<String, PropertyList>) throws(SharedDefaultsError) {
        try store.append(.replaceAll(values))
    }

    /// Removes every value and the suite's property list (`removePersistentDomain(forName:)`).
    public func removePersistentDomain() throws(SharedDefaultsError) { try store.removeAll() }

    /// Changes the suite's values as one step no other process interleaves with: `body` gets the
    /// current values and returns the new value of each key it changes (`nil`: removed).
    public func modify(_ body: (OrderedDictionary<String, PropertyList>) throws(SharedDefaultsError) -> [(key: String, value: PropertyList?)]) throws(SharedDefaultsError) {
        try store.update { (values) throws(SharedDefaultsError) -> [JournalRecord] in
            try body(values).map { $0.value.map { [key = $0.key] v in .set(key, v) } ?? .remove($0.key) }
        }
    }

    /// Registers fallback values, used for keys the suite does not hold (not stored, this
    /// object only), as `UserDefaults.register(defaults:)`.
    public func register(defaults: [String: PropertyList]) {
        registered.withLock { for key in defaults.keys.sorted() { $0[key] = defaults[key] } }
    }

    /// Merges the journal into the property list and flushes it to the disk; `false` when that
    /// failed (``lastError`` says why) or an earlier write had failed.
    @discardableResult
    public func synchronize() -> Bool {
        let failedBefore = store.takeUnreportedFailure()
        do { try store.merge() } catch {
            store.record(error, reported: true)
            return false
        }
        return !failedBefore
    }

    /// ``synchronize()``, throwing what went wrong.
    public func flush() throws(SharedDefaultsError) { try store.merge() }

    /// The last error a write, a read or a background merge met, if any.
    public var lastError: SharedDefaultsError? { store.lastError }
}
