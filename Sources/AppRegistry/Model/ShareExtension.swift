import PropertyLists
import UniformTypes

/// A share extension an app declares: the `NSExtension` dictionary of its Info.plist (or of a
/// `PlugIns/*.appex`), with an `NSExtensionActivationRule` in its dictionary form.
///
/// Each document is one attachment of a kind: a movie (`public.movie`), an image (`public.image`),
/// a web URL (`public.url`, `com.apple.internet-location`), text (`public.plain-text`, when the rule
/// supports text), else a file. A document counts against its own kind's maximum when the rule
/// names one, else against `NSExtensionActivationSupportsFileWithMaxCount`. The extension is
/// eligible when every kind's count is within its maximum and the total within
/// `NSExtensionActivationSupportsAttachmentsWithMaxCount` (when given). The string rule
/// `TRUEPREDICATE` accepts anything; other predicate strings are not evaluated, and the extension
/// is not offered (``unsupportedRule``).
public struct ShareExtension: Sendable, Hashable {
    /// The activity type: the extension's bundle identifier.
    public var activityType: String
    /// Its display name.
    public var name: String
    /// Maximum counts by kind; 0 when the rule does not name the kind.
    public var fileMax = 0, imageMax = 0, movieMax = 0, webURLMax = 0
    /// `NSExtensionActivationSupportsAttachmentsWithMaxCount`, when given.
    public var attachmentsMax: Int?
    /// `NSExtensionActivationSupportsText`.
    public var supportsText = false
    /// The rule is `TRUEPREDICATE`.
    public var acceptsAnything = false
    /// A predicate string we do not evaluate.
    public var unsupportedRule: String?

    /// Reads `NSExtension`; `nil` when there is none or it is not a share extension
    /// (`NSExtensionPointIdentifier` other than `com.apple.share-services`).
    public init?(plist: PropertyList, fallbackIdentifier: String) {
        let root = PropertyListCursor(plist)
        guard let ext = root["NSExtension"], case .dictionary = ext.value else { return nil }
        let point = ext["NSExtensionPointIdentifier"]?.value.stringValue
        guard point == nil || point == "com.apple.share-services" else { return nil }
        activityType = root["CFBundleIdentifier"]?.value.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? fallbackIdentifier
        name = root["CFBundleDisplayName"]?.value.stringValue ?? root["CFBundleName"]?.value.stringValue ?? activityType
        guard let rule = ext["NSExtensionAttributes"]?["NSExtensionActivationRule"] else { return nil }
        switch rule.value {
        case .string(let predicate):
            if predicate.trimmingSpaces() == "TRUEPREDICATE" { acceptsAnything = true } else { unsupportedRule = predicate }
        case .dictionary:
            func count(_ key: String) -> Int {
                switch rule[key]?.value {
                case .integer(let n)?: Int(clamping: n)
                case .unsignedInteger(let n)?: Int(clamping: n)
                case .string(let s)?: Int(s) ?? 0
                case .bool(let b)?: b ? 1 : 0
                default: 0
                }
            }
            fileMax = count("NSExtensionActivationSupportsFileWithMaxCount")
            imageMax = count("NSExtensionActivationSupportsImageWithMaxCount")
            movieMax = count("NSExtensionActivationSupportsMovieWithMaxCount")
            webURLMax = count("NSExtensionActivationSupportsWebURLWithMaxCount")
            attachmentsMax = rule["NSExtensionActivationSupportsAttachmentsWithMaxCount"] == nil ? nil : count("NSExtensionActivationSupportsAttachmentsWithMaxCount")
            supportsText = rule["NSExtensionActivationSupportsText"]?.value.boolValue ?? (count("NSExtensionActivationSupportsText") > 0)
        default:
            unsupportedRule = "an activation rule that is neither a dictionary nor a predicate string"
        }
    }

    /// Whether the extension takes these documents, and why (or why not).
    public func accepts(_ types: [UTType], in registry: TypeRegistry) -> (accepted: Bool, reason: String) {
        if let unsupportedRule { return (false, "its activation rule is a predicate we do not evaluate: \(unsupportedRule)") }
        if acceptsAnything { return (true, "its activation rule is TRUEPREDICATE") }
        func conforms(_ t: UTType, _ id: String) -> Bool { UTType(id, in: registry).map { t.conforms(to: $0) } ?? false }
        var files = 0, images = 0, movies = 0, urls = 0, texts = 0
        for t in types {
            if conforms(t, "public.movie"), movieMax > 0 { movies += 1 }
            else if conforms(t, "public.image"), imageMax > 0 { images += 1 }
            else if conforms(t, "public.url") || conforms(t, "com.apple.internet-location"), webURLMax > 0 { urls += 1 }
            else if conforms(t, "public.plain-text"), supportsText { texts += 1 }
            else { files += 1 }
        }
        // The reasons are built as one string, not an array then `joined`: this runs in every
        // `openin` query, and the first generic `joined` of a process costs about 130,000
        // instructions of run-time type lookups (callgrind).
        var problems = ""
        func refuse(_ part: String) { problems += problems.isEmpty ? part : ", " + part }
        if files > fileMax { refuse("\(files) file\(files == 1 ? "" : "s") (takes \(fileMax))") }
        if images > imageMax { refuse("\(images) images (takes \(imageMax))") }
        if movies > movieMax { refuse("\(movies) movies (takes \(movieMax))") }
        if urls > webURLMax { refuse("\(urls) web URLs (takes \(webURLMax))") }
        if let attachmentsMax, types.count > attachmentsMax { refuse("\(types.count) attachments (takes \(attachmentsMax))") }
        if !problems.isEmpty { return (false, "its activation rule refuses " + problems) }
        var taken = ""
        func take(_ count: Int, _ noun: String) {
            guard count > 0 else { return }
            taken += (taken.isEmpty ? "" : ", ") + "\(count) \(noun)\(count == 1 ? "" : "s")"
        }
        take(files, "file"); take(images, "image"); take(movies, "movie"); take(urls, "web URL"); take(texts, "text")
        return (true, "its activation rule takes " + taken)
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " || s.first == "\n" || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\n" || s.last == "\t" { s.removeLast() }
        return String(s)
    }
}
