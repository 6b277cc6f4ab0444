/// A date as property lists store it: seconds since 2001-01-01T00:00:00Z (CoreFoundation's
/// reference date), with conversions to and from the XML form `YYYY-MM-DDTHH:MM:SSZ`.
///
/// Written by hand rather than with Foundation so that reading a plist does not load
/// Foundation (about 15 ms per process here); the calendar arithmetic is the proleptic
/// Gregorian calendar in UTC, which is all the plist format uses.
public struct PropertyListDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since 2001-01-01T00:00:00Z; negative before it.
    public var secondsSinceReferenceDate: Double

    /// Creates a date from seconds since 2001-01-01T00:00:00Z.
    public init(secondsSinceReferenceDate: Double) {
        self.secondsSinceReferenceDate = secondsSinceReferenceDate
    }

    /// Seconds between 1970-01-01 and 2001-01-01.
    public static let referenceDateUnixTime: Double = 978_307_200

    /// Creates a date from seconds since 1970-01-01T00:00:00Z.
    public init(secondsSince1970: Double) {
        self.secondsSinceReferenceDate = secondsSince1970 - Self.referenceDateUnixTime
    }

    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Double { secondsSinceReferenceDate + Self.referenceDateUnixTime }

    /// The UTC calendar fields of a date.
    public struct Components: Sendable, Hashable {
        /// The year; may be before 1 or after 9999 for far dates.
        public var year: Int64
        /// 1–12.
        public var month: Int
        /// 1–31.
        public var day: Int
        /// 0–23.
        public var hour: Int
        /// 0–59.
        public var minute: Int
        /// 0–59.
        public var second: Int

        /// Creates calendar fields; no validation is done here.
        public init(year: Int64, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
            (self.year, self.month, self.day) = (year, month, day)
            (self.hour, self.minute, self.second) = (hour, minute, second)
        }

        /// Whether every field is in its range for that month and year.
        public var isValid: Bool {
            guard (1...12).contains(month), (0...23).contains(hour),
                  (0...59).contains(minute), (0...59).contains(second) else { return false }
            return (1...PropertyListDate.daysIn(month: month, year: year)).contains(day)
        }
    }

    static func isLeap(_ year: Int64) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    static func daysIn(month: Int, year: Int64) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given civil date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int64, month: Int, day: Int) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a day count from 1970-01-01 (the inverse of `daysFromCivil`).
    static func civilFromDays(_ days: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = Int(doy - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Creates a date from valid UTC calendar fields, or returns `nil` when a field is out of range.
    public init?(_ c: Components) {
        guard c.isValid, (-1_000_000...1_000_000).contains(c.year) else { return nil }
        let days = Self.daysFromCivil(year: c.year, month: c.month, day: c.day)
        let unix = Double(days) * 86_400 + Double(c.hour * 3600 + c.minute * 60 + c.second)
        self.init(secondsSince1970: unix)
    }

    /// The UTC calendar fields, with fractional seconds dropped toward the past.
    /// `nil` for a non-finite or astronomically distant date.
    public var components: Components? {
        let unix = secondsSince1970.rounded(.down)
        guard unix.isFinite, abs(unix) < 3e16 else { return nil }
        let total = Int64(unix)
        var days = total / 86_400
        var rest = total % 86_400
        if rest < 0 { rest += 86_400; days -= 1 }
        let (y, m, d) = Self.civilFromDays(days)
        return Components(year: y, month: m, day: d, hour: Int(rest / 3600),
                          minute: Int(rest % 3600 / 60), second: Int(rest % 60))
    }

    /// Parses the XML plist form `YYYY-MM-DDTHH:MM:SSZ` exactly; `nil` for anything else,
    /// including out-of-range fields (CoreFoundation would silently normalise them).
    public init?(iso8601 text: some StringProtocol) {
        let u = Array(text.utf8)
        guard u.count == 20, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"),
              u[10] == UInt8(ascii: "T"), u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":"),
              u[19] == UInt8(ascii: "Z") else { return nil }
        func field(_ from: Int, _ count: Int) -> Int? {
            var v = 0
            for i in from..<(from + count) {
                let digit = Int(u[i]) - 48
                guard (0...9).contains(digit) else { return nil }
                v = v * 10 + digit
            }
            return v
        }
        guard let y = field(0, 4), let mo = field(5, 2), let d = field(8, 2),
              let h = field(11, 2), let mi = field(14, 2), let s = field(17, 2) else { return nil }
        self.init(Components(year: Int64(y), month: mo, day: d, hour: h, minute: mi, second: s))
    }

    /// The XML plist form `YYYY-MM-DDTHH:MM:SSZ` (whole seconds, as CoreFoundation writes it).
    public var iso8601: String {
        guard let c = components else { return "invalid-date" }
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2))T\(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2))Z"
    }

    /// The form `plutil -p` prints: `YYYY-MM-DD HH:MM:SS +0000`.
    public var description: String {
        guard let c = components else { return "invalid-date" }
        return "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2)) \(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2)) +0000"
    }

    /// Orders dates by time.
    public static func < (a: Self, b: Self) -> Bool { a.secondsSinceReferenceDate < b.secondsSinceReferenceDate }
}

private func pad(_ value: some BinaryInteger, _ width: Int) -> String {
    let digits = String(value.magnitude)
    let padding = String(repeating: "0", count: max(0, width - digits.count))
    return (value < 0 ? "-" : "") + padding + digits
}
