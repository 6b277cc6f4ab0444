/// Tells a recursive decoder or encoder when the thread's stack is running out, so that deep
/// nesting ends in an error on any thread and in any build (a debug build spends about 25 KB
/// of stack per level of object nesting, a release build about 2 KB; a secondary thread may have
/// only 512 KB), rather than relying on a fixed depth limit being small enough everywhere.
struct StackGuard {
    /// What must stay free below the caller's frame: room for an app type's own `init(from:)`,
    /// the error being built, and the return path.
    static let reserve: UInt = 192 << 10

    private var lowestAddress: UInt = 0
    private var thread: UInt = 0
    private var measured = false

    /// Whether the stack below the caller still has ``reserve`` bytes free.
    mutating func hasRoom() -> Bool {
        let here = Self.currentAddress()
        let thread = LibC.currentThread()
        if !measured || thread != self.thread {
            lowestAddress = LibC.currentStackLowestAddress()
            self.thread = thread
            measured = true
        }
        guard lowestAddress != 0 else { return true }
        return here > lowestAddress &+ Self.reserve
    }

    /// Nesting shallower than this never checks (most archives), so it never pays for measuring.
    static let uncheckedDepth = 8

    @inline(never)
    private static func currentAddress() -> UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }
}

/// A ``StackGuard`` shared by the nested decoders of one `Decodable` value.
final class StackGuardBox {
    var stack = StackGuard()
}
