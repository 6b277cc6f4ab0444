/// What an `NSValue` holds, for the structures NSKeyedArchiver stores by field (`NS.special`
/// says which). Other `NSValue`s (an arbitrary C type written with `$0`/`$1`) decode as
/// ``ArchivedValue/object(_:)``.
public enum ArchivedNSValue: Sendable, Hashable {
    /// `NSPoint`/`CGPoint` (`NS.special` 1, `NS.pointval` as "{x, y}").
    case point(x: Double, y: Double)
    /// `NSSize`/`CGSize` (2, `NS.sizeval` as "{w, h}").
    case size(width: Double, height: Double)
    /// `NSRect`/`CGRect` (3, `NS.rectval` as "{{x, y}, {w, h}}").
    case rect(x: Double, y: Double, width: Double, height: Double)
    /// `NSRange` (4, `NS.rangeval.location` and `NS.rangeval.length` as numbers).
    case range(location: UInt64, length: UInt64)
    /// `CGAffineTransform` (10, `NS.atval.a` … `NS.atval.ty`).
    case affineTransform(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double)
    /// `UIEdgeInsets` (11) or `NSEdgeInsets` (12) (`NS.edgeval.top`, `.left`, `.bottom`, `.right`).
    case edgeInsets(top: Double, left: Double, bottom: Double, right: Double, uiKit: Bool = false)
    /// `UIOffset` (13, `NS.offset.h`, `NS.offset.v`).
    case offset(horizontal: Double, vertical: Double)
    /// `NSDirectionalEdgeInsets` (14, `NS.dirEdgeVal.top`, `.leading`, `.bottom`, `.trailing`).
    case directionalEdgeInsets(top: Double, leading: Double, bottom: Double, trailing: Double)

    /// The `NS.special` code.
    public var special: Int {
        switch self {
        case .point: 1
        case .size: 2
        case .rect: 3
        case .range: 4
        case .affineTransform: 10
        case .edgeInsets(_, _, _, _, let uiKit): uiKit ? 11 : 12
        case .offset: 13
        case .directionalEdgeInsets: 14
        }
    }
}
