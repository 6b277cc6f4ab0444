/// A string compared by its exact characters, as CoreFoundation compares strings when it uniques
/// them. Swift's `==` would merge canonically equivalent strings (a precomposed and a decomposed
/// "é"), which CF keeps apart, and a round trip must not change a string.
struct ExactString: Hashable {
    let value: String

    init(_ value: String) { self.value = value }

    static func == (a: Self, b: Self) -> Bool { a.value.utf8.elementsEqual(b.value.utf8) }

    func hash(into hasher: inout Hasher) {
        let hashed: Void? = value.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil { Array(value.utf8).withUnsafeBytes { hasher.combine(bytes: $0) } }
    }
}
