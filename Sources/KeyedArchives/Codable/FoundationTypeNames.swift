/// Recognises Foundation's `Data` and `Date` by name, without importing Foundation, so that a
/// `Codable` type holding them is archived as `NSData` and `NSDate` (as `PropertyListEncoder`
/// does) rather than as an array of bytes and a number. The name is `Foundation.Data` with the
/// older Foundation and `FoundationEssentials.Data` with swift-foundation.
enum FoundationTypeNames {
    /// A Foundation type the encoder treats specially.
    enum Kind {
        case data
        case date
    }

    static func kind(of type: Any.Type) -> Kind? {
        switch String(reflecting: type) {
        case "Foundation.Data", "FoundationEssentials.Data": .data
        case "Foundation.Date", "FoundationEssentials.Date": .date
        default: nil
        }
    }
}
