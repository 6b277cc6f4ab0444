/// The encodings a property list can be stored in.
public enum PropertyListFormat: String, Sendable, Hashable, CaseIterable {
    /// Apple's XML property list (`plutil -convert xml1`).
    case xml = "xml1"
    /// CoreFoundation's `bplist00` binary property list (`plutil -convert binary1`).
    case binary = "binary1"
    /// The old NeXT/OpenStep text form, also used by `.strings` files. Read only.
    case openStep = "openstep"
    /// JSON: written by `plutil -convert json`, read when ``PropertyListReadOptions/readsJSON`` is
    /// set (dates, data and UIDs have no JSON form).
    case json = "json"
}
