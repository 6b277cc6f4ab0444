/// An x-callback-url request (x-callback-url.com, version 1.0): `SCHEME://x-callback-url/ACTION?…`
/// with the caller's name (`x-source`) and where to answer: `x-success` (with result parameters
/// added), `x-error` (with `errorCode` and `errorMessage`), `x-cancel`.
///
/// ```swift
/// let request = try XCallbackRequest(scheme: "person-viewer", action: "exportPerson",
///                                    source: "com.example.person-editor",
///                                    success: try SchemeURL("person-editor://x-callback-url/personExported"))
/// // person-viewer://x-callback-url/exportPerson?x-source=com.example.person-editor&x-success=person-editor%3A%2F%2F…
/// ```
public struct XCallbackRequest: Sendable, Hashable {
    /// The host that marks an x-callback-url.
    public static let host = "x-callback-url"

    /// The URL of the request.
    public var url: SchemeURL
    /// The action: the path after the host, without its leading `/`.
    public var action: String
    /// `x-source`: the caller's name, as the caller states it.
    public var source: String?
    /// `x-success`, `x-error`, `x-cancel`: where to answer, when given (and valid URLs).
    public var success: SchemeURL?, error: SchemeURL?, cancel: SchemeURL?
    /// The other query items: the action's parameters.
    public var parameters: [QueryItem]

    /// Reads an x-callback-url request; `nil` when `url`'s host is not `x-callback-url`. Answer
    /// URLs that do not parse are left out (answering is then impossible, not harmful).
    public init?(_ url: SchemeURL) {
        guard url.host?.lowercased() == Self.host else { return nil }
        self.url = url
        action = String(url.path.drop { $0 == "/" })
        parameters = []
        for item in url.queryItems {
            switch item.name {
            case "x-source": source = item.value
            case "x-success": success = item.value.flatMap { try? SchemeURL($0) }
            case "x-error": error = item.value.flatMap { try? SchemeURL($0) }
            case "x-cancel": cancel = item.value.flatMap { try? SchemeURL($0) }
            default: parameters.append(item)
            }
        }
    }

    /// A request to send: `scheme://x-callback-url/action?PARAMETERS&x-source=…&x-success=…&x-error=…&x-cancel=…`.
    public init(scheme: String, action: String, parameters: [QueryItem] = [], source: String? = nil,
                success: SchemeURL? = nil, error: SchemeURL? = nil, cancel: SchemeURL? = nil) throws(URLSchemeError) {
        var items = parameters
        if let source { items.append(QueryItem(name: "x-source", value: source)) }
        if let success { items.append(QueryItem(name: "x-success", value: success.text)) }
        if let error { items.append(QueryItem(name: "x-error", value: error.text)) }
        if let cancel { items.append(QueryItem(name: "x-cancel", value: cancel.text)) }
        let url = try SchemeURL(scheme: scheme, host: Self.host, pathSegments: [action], queryItems: items)
        self = XCallbackRequest(url)!
    }

    /// The value of the parameter `name`.
    public func parameter(_ name: String) -> String? { parameters.first { $0.name == name }?.value }

    /// The URL that answers the request with `reply`, or `nil` when the caller gave none for it.
    public func answer(_ reply: XCallbackReply) -> SchemeURL? {
        switch reply {
        case .success(let items): success?.appending(queryItems: items)
        case .error(let code, let message):
            error?.appending(queryItems: [QueryItem(name: "errorCode", value: String(code)), QueryItem(name: "errorMessage", value: message)])
        case .cancel: cancel
        }
    }
}

/// How an x-callback-url request ended.
public enum XCallbackReply: Sendable, Hashable {
    /// Done: these items are added to `x-success`.
    case success([QueryItem])
    /// Failed: `errorCode` and `errorMessage` are added to `x-error`.
    case error(code: Int, message: String)
    /// The user cancelled: `x-cancel` as given.
    case cancel
}
