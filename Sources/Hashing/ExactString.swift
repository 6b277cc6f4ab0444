/// A string that is equal to another only when their UTF-8 bytes are, and hashed by them. Swift's
/// `String` equality is canonical equivalence, under which "café" composed and decomposed are one
/// value; as a key that merges two different names. Used where the stored bytes must come back as
/// they were: the desktop-application index (names compared bytewise, as GIO's `strcmp`) and the
/// binary property-list writer's uniquing (CF compares the characters as stored). Beside FNV-1a:
/// both are byte-level helpers every layer above may use, not system calls.
package struct ExactString: Hashable, Sendable {
    /// The string.
    package let value: String

    /// Wraps `value`.
    package init(_ value: String) { self.value = value }

    /// Equal when the UTF-8 bytes are.
    package static func == (a: ExactString, b: ExactString) -> Bool { a.value.utf8.elementsEqual(b.value.utf8) }

    /// Hashes the UTF-8 bytes.
    package func hash(into hasher: inout Hasher) {
        var value = value
        value.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
