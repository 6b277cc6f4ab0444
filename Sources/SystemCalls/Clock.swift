#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where time comes from. The engines take a clock instead of reading the system's, so that tests
/// can set it.
public struct Clock: Sendable {
    /// Seconds since 1970 (UTC).
    public var now: @Sendable () -> Double

    /// A clock that reads `now`.
    public init(now: @escaping @Sendable () -> Double) { self.now = now }

    /// The system's clock (`CLOCK_REALTIME`). The corresponding C function is `clock_gettime`.
    public static let system = Clock(now: {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    })

    /// Seconds on a clock that never goes back (`CLOCK_MONOTONIC`), for intervals.
    public static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Nanoseconds on a monotonic clock that is cheap to read and coarse (a few milliseconds,
    /// `CLOCK_MONOTONIC_COARSE`): for intervals checked on hot paths.
    public static func coarseMonotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// Sleeps `seconds`. The corresponding C function is `nanosleep`.
    public static func sleep(_ seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
