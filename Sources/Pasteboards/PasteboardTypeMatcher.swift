import AppRegistry
import Synchronization
import UniformTypes

/// Type questions a pasteboard asks of the device's type registry: does a stored type conform to
/// the one asked for (asking for `public.text` finds `public.utf8-plain-text`), and which MIME
/// types stand for a type on the desktop clipboard and back.
///
/// The registry is read on first need only: a paste of the exact type stored never maps it.
public final class PasteboardTypeMatcher: Sendable {
    private let loader: @Sendable () -> TypeRegistry?
    private struct State {
        var loaded = false
        var registry: TypeRegistry?
    }
    private let state = Mutex(State())

    /// A matcher over `registry`.
    public init(registry: TypeRegistry) {
        loader = { registry }
    }

    /// A matcher that calls `loader` the first time it needs a registry (`nil`: types match only
    /// when they are the same).
    public init(loading loader: @escaping @Sendable () -> TypeRegistry?) {
        self.loader = loader
    }

    /// A matcher over `root`'s registry and its catalog (see `TypeCatalog.directory(for:)`).
    public static func device(_ root: DeviceRoot) -> PasteboardTypeMatcher {
        PasteboardTypeMatcher { try? RegistryStore.open(root: root, catalog: TypeCatalog.directory(for: root)) }
    }

    /// The registry, read on first use.
    public var registry: TypeRegistry? {
        state.withLock { state in
            if !state.loaded {
                state.registry = loader()
                state.loaded = true
            }
            return state.registry
        }
    }

    /// Whether data of `stored` type answers a request for `wanted`: the same identifier, or a
    /// type that conforms to it in the registry.
    public func conforms(_ stored: String, to wanted: String) -> Bool {
        if PasteboardType.same(stored, wanted) { return true }
        guard let registry, let a = UTType(stored, in: registry), let b = UTType(wanted, in: registry) else { return false }
        return a.conforms(to: b)
    }

    // MARK: The desktop clipboard

    /// X11 selection targets that are not data (ICCCM): never imported as types.
    static let selectionMetaTargets: Set<String> = ["TARGETS", "MULTIPLE", "TIMESTAMP", "SAVE_TARGETS", "DELETE",
                                                    "INSERT_SELECTION", "INSERT_PROPERTY", "INCR", "ATOM_PAIR"]
    /// Names the desktop uses for UTF-8 text besides its MIME type (X11 atoms; GTK and Qt offer them).
    static let textTargets = ["text/plain;charset=utf-8", "UTF8_STRING", "text/plain", "TEXT", "STRING"]

    /// The MIME types (and X11 text targets) under which a representation of `type` is offered on
    /// the desktop clipboard, preferred first: the registry's MIME tags; for UTF-8 and plain text,
    /// the text targets every desktop program asks for; for a type with no MIME tag, the type
    /// identifier itself (so that another instance of this bridge gets it back unchanged).
    public func mimeTypes(for type: String) -> [String] {
        if conformsToPlainText(type) { return Self.textTargets }
        var result: [String] = []
        if let registry, let declared = UTType(type, in: registry) {
            result = declared.tags(of: .mimeType)
        }
        if result.isEmpty { result = [type] }
        return result
    }

    /// The type identifier for a MIME type (or X11 target) offered on the desktop clipboard; `nil`
    /// for targets that are not data. Text targets become `public.utf8-plain-text`; a MIME type
    /// the registry declares, its type; an identifier that is already a type identifier (offered
    /// by another bridge), itself; anything else, the registry's dynamic type for that tag.
    public func type(forMIME mime: String) -> String? {
        if Self.selectionMetaTargets.contains(mime) || mime.isEmpty { return nil }
        let lowered = mime.lowercased()
        if Self.textTargets.contains(where: { $0.lowercased() == lowered }) || lowered == "text/plain;charset=utf8" {
            return PasteboardType.utf8PlainText
        }
        if !mime.contains("/"), TypeIdentifierSyntax.isValid(mime), mime.contains(".") { return mime }
        guard let registry, let type = UTType(mimeType: mime, in: registry) else { return nil }
        return type.identifier
    }

    private func conformsToPlainText(_ type: String) -> Bool {
        PasteboardType.same(type, PasteboardType.utf8PlainText) || PasteboardType.same(type, PasteboardType.plainText)
    }
}
