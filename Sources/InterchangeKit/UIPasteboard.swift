import AppInterchange
import Foundation
import Pasteboards

/// UIKit's pasteboard, on the device root's pasteboards (docs/pasteboards.md): the general one,
/// named ones (an app's own, or shared with its App Group), and unique ones for a data package
/// handed to another app through a URL. Reads and writes go to the shared store at once, so
/// another process sees them, as on iOS.
///
/// As on iOS, the calls do not throw: a write that fails (over the size limit, a name another
/// app owns) leaves the pasteboard as it was; ``lastError`` (not Apple's) says why.
public final class UIPasteboard: @unchecked Sendable {
    /// A pasteboard's name (`UIPasteboard.Name("com.example.shared")`).
    public struct Name: RawRepresentable, Hashable, Sendable {
        /// The name.
        public var rawValue: String
        /// A name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// A name.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The general pasteboard's name.
        public static let general = Name("com.apple.UIKit.pboard.general")
        /// The find pasteboard's name (deprecated on iOS, kept for code that names it).
        public static let find = Name("com.apple.UIKit.pboard.find")
    }

    /// What ``setItems(_:options:)`` takes besides the items.
    public struct OptionsKey: RawRepresentable, Hashable, Sendable {
        /// The key.
        public var rawValue: String
        /// A key.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// `Bool`: the items stay on this device (here: never leave the device root, as always).
        public static let localOnly = OptionsKey(rawValue: "UIPasteboardOptionLocalOnly")
        /// `Date`: after it, the items are gone.
        public static let expirationDate = OptionsKey(rawValue: "UIPasteboardOptionExpirationDate")
    }

    /// The engine's pasteboard this one is.
    let pasteboard: Pasteboard
    /// Why the last call that could not do what it was asked failed (`nil` after a success).
    public private(set) var lastError: (any Error)?

    init(_ pasteboard: Pasteboard) { self.pasteboard = pasteboard }

    /// The store and the requester: the current app when the launcher named one, else the user.
    static var store: PasteboardStore { PasteboardStore(root: CurrentApp.root) }
    static var client: PasteboardClient {
        guard let app = try? CurrentApp.app.get() else { return .user }
        return PasteboardClient(app: app.bundle)
    }

    /// The general pasteboard, shared by every app (and, with pasteboardd, the desktop's clipboard).
    public class var general: UIPasteboard { UIPasteboard(store.general(for: client)) }

    /// The pasteboard named `name`; with `create`, made when missing. `nil` when it does not
    /// exist and `create` is false, or another app owns the name.
    public init?(name: UIPasteboard.Name, create: Bool) {
        if name == .general { pasteboard = Self.store.general(for: Self.client); return }
        guard let found = try? Self.store.pasteboard(named: PasteboardName(rawValue: name.rawValue), create: create, for: Self.client) else { return nil }
        pasteboard = found
    }

    /// A new pasteboard with a name no other has, kept while this process lives (as on iOS 10
    /// and later, where pasteboards are not persistent).
    public class func withUniqueName() -> UIPasteboard {
        // The store makes the name; it fails only when the device root cannot be written, and
        // Apple's API has no failure here: the general pasteboard is the only honest fallback.
        (try? store.pasteboardWithUniqueName(for: client)).map(UIPasteboard.init) ?? general
    }

    /// Removes the pasteboard named `name` (not the general one).
    public class func remove(withName name: UIPasteboard.Name) {
        try? store.remove(named: PasteboardName(rawValue: name.rawValue), for: client)
    }

    /// Its name.
    public var name: UIPasteboard.Name {
        pasteboard.name == .general ? .general : Name(pasteboard.name.rawValue)
    }

    /// Deprecated on iOS (pasteboards are never persistent since iOS 10); setting it does nothing.
    @available(*, deprecated, message: "pasteboards are not persistent")
    public var isPersistent: Bool {
        get { false }
        set {}
    }

    /// Increases with every change, by any app.
    public var changeCount: Int { (try? pasteboard.changeCount()) ?? 0 }

    /// The types of the first item.
    public var types: [String] { (try? pasteboard.contents())?.types(inItem: 0) ?? [] }

    /// How many items it holds.
    public var numberOfItems: Int { (try? pasteboard.contents())?.numberOfItems ?? 0 }

    /// Whether the first item has a representation of one of `pasteboardTypes` (or a type conforming to one).
    public func contains(pasteboardTypes: [String]) -> Bool {
        (try? pasteboard.contents())?.contains(pasteboardTypes: pasteboardTypes, inItem: 0) ?? false
    }

    /// The first item's bytes of `pasteboardType`.
    public func data(forPasteboardType pasteboardType: String) -> Data? {
        (try? pasteboard.data(forPasteboardType: pasteboardType)).flatMap { $0 }.map { Data($0) }
    }

    /// Replaces the contents with one item holding `data` as `pasteboardType`.
    public func setData(_ data: Data, forPasteboardType pasteboardType: String) {
        record { () throws(PasteboardError) in _ = try pasteboard.setData(Array(data), forPasteboardType: pasteboardType) }
    }

    /// The first item's value of `pasteboardType`: a `String` for text types, a `URL` for
    /// `public.url`, else `Data`.
    public func value(forPasteboardType pasteboardType: String) -> Any? {
        data(forPasteboardType: pasteboardType).map { PasteboardValue.decode($0, type: pasteboardType) }
    }

    /// Replaces the contents with one item holding `value` (`String`, `URL`, `Data`) as `pasteboardType`.
    public func setValue(_ value: Any, forPasteboardType pasteboardType: String) {
        setItems([[pasteboardType: value]])
    }

    /// Every item, as type → value (`String`, `URL` or `Data`, as ``value(forPasteboardType:)``).
    public var items: [[String: Any]] {
        get {
            guard let contents = try? pasteboard.contents() else { return [] }
            return contents.items.map { item in
                Dictionary(item.representations.map { ($0.type, PasteboardValue.decode(Data($0.data), type: $0.type)) }, uniquingKeysWith: { a, _ in a })
            }
        }
        set { setItems(newValue) }
    }

    /// Replaces the contents with `items` (type → `String`, `URL` or `Data`); `options` may hold
    /// ``OptionsKey/localOnly`` and ``OptionsKey/expirationDate``.
    public func setItems(_ items: [[String: Any]], options: [UIPasteboard.OptionsKey: Any] = [:]) {
        let expiry = (options[.expirationDate] as? Date).map { $0.timeIntervalSince1970 }
        let write = PasteboardWriteOptions(localOnly: options[.localOnly] as? Bool ?? false, expirationDate: expiry)
        record { () throws(PasteboardError) in _ = try pasteboard.setItems(items.map(PasteboardValue.item), options: write) }
    }

    /// Appends `items` after the ones it holds.
    public func addItems(_ items: [[String: Any]]) {
        record { () throws(PasteboardError) in _ = try pasteboard.addItems(items.map(PasteboardValue.item)) }
    }

    /// The first item's text; setting it replaces the contents with that text.
    public var string: String? {
        get { strings?.first }
        set { setItems(newValue.map { [[PasteboardValue.textType: $0 as Any]] } ?? []) }
    }

    /// Every item's text (`nil` when none has any).
    public var strings: [String]? {
        get { firstOfEachItem { PasteboardValue.textTypes.contains($0) }.map { String(decoding: $0, as: UTF8.self) }.nilIfEmpty }
        set { setItems((newValue ?? []).map { [PasteboardValue.textType: $0 as Any] }) }
    }

    /// The first item's URL; setting it replaces the contents with that URL.
    public var url: URL? {
        get { urls?.first }
        set { setItems(newValue.map { [[PasteboardValue.urlType: $0 as Any]] } ?? []) }
    }

    /// Every item's URL (`nil` when none has one).
    public var urls: [URL]? {
        get { firstOfEachItem { $0 == PasteboardValue.urlType }.compactMap { URL(string: String(decoding: $0, as: UTF8.self)) }.nilIfEmpty }
        set { setItems((newValue ?? []).map { [PasteboardValue.urlType: $0 as Any] }) }
    }

    /// Each item's first representation whose type `matches`, in item order.
    private func firstOfEachItem(_ matches: (String) -> Bool) -> [[UInt8]] {
        ((try? pasteboard.contents())?.items ?? []).compactMap { item in item.representations.first { matches($0.type) }?.data }
    }

    /// Whether an item holds text.
    public var hasStrings: Bool { strings != nil }
    /// Whether an item holds a URL.
    public var hasURLs: Bool { urls != nil }

    private func record(_ body: () throws(PasteboardError) -> Void) {
        do { try body(); lastError = nil } catch { lastError = error }
    }
}

extension Array {
    /// `nil` for an empty array: UIKit's `strings` and `urls` are `nil` when nothing matches.
    var nilIfEmpty: [Element]? { isEmpty ? nil : self }
}
