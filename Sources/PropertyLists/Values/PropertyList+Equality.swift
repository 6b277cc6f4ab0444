extension PropertyList {
    /// Property-list equality: dictionaries compare as unordered maps (key order is presentation,
    /// not content), NaN equals NaN (a round trip must keep it), and an unsigned integer equals
    /// the same number stored as signed.
    public static func == (lhs: PropertyList, rhs: PropertyList) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.unsignedInteger(let a), .unsignedInteger(let b)): return a == b
        case (.integer(let a), .unsignedInteger(let b)), (.unsignedInteger(let b), .integer(let a)):
            return a >= 0 && UInt64(a) == b
        case (.real(let a), .real(let b)): return a == b || (a.isNaN && b.isNaN)
        case (.bool(let a), .bool(let b)): return a == b
        case (.date(let a), .date(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        case (.uid(let a), .uid(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.dictionary(let a), .dictionary(let b)):
            guard a.count == b.count else { return false }
            for (key, value) in a {
                guard let other = b[key], other == value else { return false }
            }
            return true
        default: return false
        }
    }

    /// Hashes consistently with ``==(_:_:)``: dictionary entries are combined order-independently.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let s): hasher.combine(0); hasher.combine(s)
        case .integer(let i): hasher.combine(1); hasher.combine(i)
        case .unsignedInteger(let u):
            hasher.combine(1)
            if u <= UInt64(Int64.max) { hasher.combine(Int64(u)) } else { hasher.combine(u) }
        case .real(let r): hasher.combine(2); hasher.combine(r.isNaN ? Double.nan.bitPattern : r.bitPattern)
        case .bool(let b): hasher.combine(3); hasher.combine(b)
        case .date(let d): hasher.combine(4); hasher.combine(d)
        case .data(let d): hasher.combine(5); hasher.combine(d)
        case .uid(let u): hasher.combine(6); hasher.combine(u)
        case .array(let a): hasher.combine(7); hasher.combine(a)
        case .dictionary(let d):
            hasher.combine(8)
            hasher.combine(d.count)
            var combined = 0
            for (key, value) in d {
                var entry = Hasher()
                entry.combine(key)
                entry.combine(value)
                combined ^= entry.finalize()
            }
            hasher.combine(combined)
        }
    }
}
