/// One `name=value` pair of a URL's query (RFC 3986 3.4 leaves the query's structure to the
/// scheme; `&`-separated pairs are what x-callback-url and the seeds use).
public struct QueryItem: Sendable, Hashable {
    /// The name, percent-decoded.
    public var name: String
    /// The value, percent-decoded; `nil` when the item has no `=`.
    public var value: String?

    /// An item.
    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }

    /// The items of a raw query (without the `?`): split at `&`, each at its first `=`, both
    /// sides percent-decoded. Empty items (`a=1&&b=2`) are skipped; `+` is not a space.
    public static func items<S: StringProtocol>(inQuery query: S) -> [QueryItem] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            if let eq = pair.firstIndex(of: "=") {
                return QueryItem(name: PercentEncoding.decoded(pair[..<eq]), value: PercentEncoding.decoded(pair[pair.index(after: eq)...]))
            }
            return QueryItem(name: PercentEncoding.decoded(pair), value: nil)
        }
    }

    /// The item as it goes into a query: name and value percent-encoded.
    public var encoded: String {
        PercentEncoding.encodedComponent(name) + (value.map { "=" + PercentEncoding.encodedComponent($0) } ?? "")
    }
}
