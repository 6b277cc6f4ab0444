/// The text forms `NSStringFromPoint`, `NSStringFromSize` and `NSStringFromRect` produce and
/// their inverses, which NSKeyedArchiver uses for points, sizes and rectangles in an `NSValue`.
///
/// Numbers are written with C's `%.17g` (as Foundation's descriptions of `NSValue` structures
/// are), so `400` stays `400` and every double reads back exactly.
enum GeometryText {
    /// `%.17g`.
    static func number(_ value: Double) -> String { LibC.format17g(value) }

    /// `{a, b}`.
    static func pair(_ a: Double, _ b: Double) -> String { "{\(number(a)), \(number(b))}" }

    /// `{{x, y}, {w, h}}`.
    static func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> String {
        "{\(pair(x, y)), \(pair(width, height))}"
    }

    /// The numbers in `text`, which must be braces, commas, spaces and exactly `count` numbers;
    /// `nil` otherwise.
    static func numbers(in text: String, count: Int) -> [Double]? {
        var values: [Double] = []
        var current = ""
        func flush() -> Bool {
            guard !current.isEmpty else { return true }
            guard let v = Double(current) else { return false }
            values.append(v)
            current = ""
            return true
        }
        for c in text {
            switch c {
            case "{", "}", ",", " ":
                guard flush() else { return nil }
            default:
                current.append(c)
            }
        }
        guard flush(), values.count == count else { return nil }
        return values
    }
}
