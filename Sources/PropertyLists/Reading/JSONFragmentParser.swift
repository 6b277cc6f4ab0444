/// Reads one JSON value of any kind into a property list, for `plutil -insert … -json FRAGMENT`.
///
/// The mapping is ``PropertyListReader``'s for JSON documents (objects become dictionaries in
/// source order, numbers without a fraction or exponent integers, other numbers reals, `null`
/// refused); only here a bare scalar (`3`, `"text"`, `true`) is a value too, as Apple's `plutil`
/// allows fragments for `-json`.
public enum JSONFragmentParser {
    /// Parses `text` as one JSON value.
    /// - Throws: ``PropertyListError`` with the line and column of the problem.
    public static func parse(_ text: String) throws(PropertyListError) -> PropertyList {
        var text = text
        do {
            return try text.withUTF8 { (buffer) throws(PropertyListError) -> PropertyList in
                try JSONPropertyListParser.parseFragment(UnsafeRawBufferPointer(buffer))
            }
        } catch let error as PropertyListError {
            throw error
        } catch {
            throw PropertyListError("\(error)", format: .json)
        }
    }
}
