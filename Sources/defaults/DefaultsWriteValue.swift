import OrderedCollections
import PropertyLists

/// The value of `defaults write DOMAIN KEY …`, read from the words after the key as Apple's
/// `defaults` reads them:
///
/// - `'VALUE'`: an old-style property list (`'(a, b)'`, `'{ k = v; }'`, `'"text"'`); a word that
///   does not parse is the string itself. An untyped `1` is the *string* "1", as on macOS.
/// - `-string S`, `-int[eger] N`, `-float N`, `-bool[ean] YES|NO|true|false|1|0`,
///   `-date 2026-11-24T03:00:00Z`, `-data HEX`.
/// - `-array ITEM…`, `-array-add ITEM…`: items are strings, or typed (`-int 3`).
/// - `-dict KEY VALUE…`, `-dict-add KEY VALUE…`: keys are strings; values as array items.
enum DefaultsWriteValue: Sendable, Equatable {
    /// The new value of the key.
    case value(PropertyList)
    /// Items to append to the array at the key (created when absent).
    case arrayAdd([PropertyList])
    /// Entries to add to the dictionary at the key (created when absent).
    case dictionaryAdd(OrderedDictionary<String, PropertyList>)

    /// A value that cannot be read: which word, and why.
    struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// One sentence.
        var message: String
        var description: String { message }
    }

    /// The typed flags that take a value.
    static let scalarFlags = ["-string", "-int", "-integer", "-float", "-bool", "-boolean", "-date", "-data"]
    /// The flags that start a collection.
    static let collectionFlags = ["-array", "-array-add", "-dict", "-dict-add"]

    /// Reads `words` (everything after the key).
    static func parse(_ words: [String]) throws(Problem) -> DefaultsWriteValue {
        guard let first = words.first else { throw Problem(message: "write needs a value after the key") }
        var rest = words.dropFirst()
        switch first {
        case "-array", "-array-add":
            var items: [PropertyList] = []
            while !rest.isEmpty { items.append(try item(&rest, alone: false)) }
            return first == "-array" ? .value(.array(items)) : .arrayAdd(items)
        case "-dict", "-dict-add":
            var entries: OrderedDictionary<String, PropertyList> = [:]
            while let key = rest.popFirst() {
                guard !rest.isEmpty else { throw Problem(message: "\(first): the key \(key) has no value (give KEY VALUE pairs)") }
                entries[key] = try item(&rest, alone: false)
            }
            return first == "-dict" ? .value(.dictionary(entries)) : .dictionaryAdd(entries)
        default:
            var all = words[...]
            let value = try item(&all, alone: words.count == 1)
            guard all.isEmpty else { throw Problem(message: "unexpected \(all.first!) after the value (quote a value that has spaces)") }
            return .value(value)
        }
    }

    /// The key's new value given its current one: `-array-add` appends to an array (or starts
    /// one), `-dict-add` adds to a dictionary (or starts one).
    /// - Throws: ``Problem`` when the current value is of another type (nothing is changed).
    func newValue(replacing current: PropertyList?, key: String) throws(Problem) -> PropertyList {
        switch (self, current) {
        case (.value(let value), _): return value
        case (.arrayAdd(let items), nil): return .array(items)
        case (.arrayAdd(let items), .array(let existing)?): return .array(existing + items)
        case (.dictionaryAdd(let entries), nil): return .dictionary(entries)
        case (.dictionaryAdd(let entries), .dictionary(var existing)?):
            for (k, v) in entries { existing[k] = v }
            return .dictionary(existing)
        case (.arrayAdd, let other?):
            throw Problem(message: "Value for key \(key) is not an array (it is \(other.typeNameWithArticle)); cannot append. Leaving defaults unchanged.")
        case (.dictionaryAdd, let other?):
            throw Problem(message: "Value for key \(key) is not a dictionary (it is \(other.typeNameWithArticle)); cannot add. Leaving defaults unchanged.")
        }
    }

    /// One value: a typed pair, or a bare word. A bare word is a string inside a collection
    /// and an old-style property list on its own (`alone`).
    static func item(_ words: inout ArraySlice<String>, alone: Bool) throws(Problem) -> PropertyList {
        let word = words.popFirst()!
        guard scalarFlags.contains(word) else {
            if collectionFlags.contains(word) { throw Problem(message: "\(word) cannot stand inside a value (arrays and dictionaries nest only in a plist value)") }
            return alone ? plist(word) : .string(word)
        }
        guard let text = words.popFirst() else { throw Problem(message: "\(word) needs a value") }
        return try scalar(word, text)
    }

    /// `text` read as the type `flag` names.
    static func scalar(_ flag: String, _ text: String) throws(Problem) -> PropertyList {
        switch flag {
        case "-string": return .string(text)
        case "-int", "-integer":
            guard let n = Int64(text) ?? Double(text).flatMap({ $0.isFinite && abs($0) < 9.2e18 ? Int64($0) : nil }) else {
                throw Problem(message: "\(flag) \(text): not an integer")
            }
            return .integer(n)
        case "-float":
            guard let r = Double(text) else { throw Problem(message: "\(flag) \(text): not a number") }
            return .real(r)
        case "-bool", "-boolean":
            switch text.lowercased() {
            case "yes", "true", "1": return .bool(true)
            case "no", "false", "0": return .bool(false)
            default: throw Problem(message: "\(flag) \(text): not YES, NO, true, false, 1 or 0")
            }
        case "-date":
            guard let date = date(text) else { throw Problem(message: "\(flag) \(text): not a date (2026-11-24T03:00:00Z or 2026-11-24 03:00:00 +0000)") }
            return .date(date)
        case "-data":
            guard let bytes = hexBytes(text) else { throw Problem(message: "\(flag) \(text): not an even number of hexadecimal digits") }
            return .data(bytes)
        default: throw Problem(message: "\(flag) is not a value type")
        }
    }

    /// An untyped value: an old-style property list, else the word as a string.
    static func plist(_ text: String) -> PropertyList {
        let bytes = Array(text.utf8)
        guard let format = bytes.withUnsafeBytes({ PropertyListReader.detectFormat($0) }), format == .openStep,
              let value = try? PropertyListReader.read(bytes).value else { return .string(text) }
        return value
    }

    static func date(_ text: String) -> PropertyListDate? {
        if let d = PropertyListDate(iso8601: text) { return d }
        // Foundation's description form, UTC only: "2026-11-24 03:00:00 +0000".
        guard text.count == 25, text.hasSuffix(" +0000") else { return nil }
        var iso = Array(text.prefix(19))
        iso[10] = "T"
        return PropertyListDate(iso8601: String(iso) + "Z")
    }

    static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8).filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "<") && $0 != UInt8(ascii: ">") }
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var i = 0
        while i < digits.count {
            guard let high = nibble(digits[i]), let low = nibble(digits[i + 1]) else { return nil }
            out.append(high << 4 | low)
            i += 2
        }
        return out
    }

    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - 48
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - 87
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - 55
        default: nil
        }
    }
}
