/// A string that is equal to another only when their UTF-8 bytes are, and hashed by them: how
/// the index compares names (bytewise binary search) and how GIO compares desktop-file IDs and
/// types (`strcmp`). Swift's `String` equality is canonical equivalence, under which "café"
/// composed and decomposed are one key; as a dictionary key that merged two different names, and
/// in the string pool it gave the second one the first one's bytes.
struct ExactString: Hashable {
    let value: String

    init(_ value: String) { self.value = value }

    static func == (a: ExactString, b: ExactString) -> Bool { a.value.utf8.elementsEqual(b.value.utf8) }

    func hash(into hasher: inout Hasher) {
        var value = value
        value.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
