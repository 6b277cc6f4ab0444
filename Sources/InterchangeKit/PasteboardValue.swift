import Foundation
import Pasteboards

/// How UIKit's item values (`String`, `URL`, `Data`) become the engine's representations (bytes
/// by type) and back: text as UTF-8, a URL as its absolute string, data as it is.
enum PasteboardValue {
    /// The type UIKit writes text as.
    static let textType = "public.utf8-plain-text"
    /// The types read back as text.
    static let textTypes: Set<String> = [textType, "public.plain-text", "public.text", "public.utf16-plain-text"]
    /// The type of a URL.
    static let urlType = "public.url"

    /// One UIKit item as the engine's.
    static func item(_ values: [String: Any]) -> PasteboardItem {
        PasteboardItem(representations: values.sorted { $0.key < $1.key }.map { type, value in
            PasteboardRepresentation(type: type, data: bytes(value))
        })
    }

    static func bytes(_ value: Any) -> [UInt8] {
        switch value {
        case let data as Data: Array(data)
        case let text as String: Array(text.utf8)
        case let url as URL: Array(url.absoluteString.utf8)
        case let bytes as [UInt8]: bytes
        default: Array(String(describing: value).utf8)
        }
    }

    /// A representation's value as UIKit gives it back.
    static func decode(_ data: Data, type: String) -> Any {
        if textTypes.contains(type) { return String(decoding: data, as: UTF8.self) }
        if type == urlType, let url = URL(string: String(decoding: data, as: UTF8.self)) { return url }
        return data
    }
}
