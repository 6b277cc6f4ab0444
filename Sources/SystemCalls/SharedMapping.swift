import CSystemShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A small file mapped read-write and shared (`MAP_SHARED`): every process that maps the same
/// file sees the same bytes, so a counter in it tells all of them, without a system call, that
/// something changed. Words are read and changed atomically; a process can sleep until a 32-bit
/// word changes (`futex`), and the process changing it wakes the sleepers.
///
/// Offsets must be aligned to the word's size and lie inside the mapping (checked).
package final class SharedMapping: Sendable {
    /// The first byte, as an integer (a pointer is not `Sendable`).
    let address: Int
    /// The length in bytes.
    package let count: Int
    /// The mapped file, for messages.
    package let path: String?

    /// Maps the first `count` bytes of `file` (read-write), growing the file to `count` bytes when
    /// it is shorter (new bytes are zero). The corresponding C functions are `ftruncate` and `mmap`.
    package init(file: OwnedDescriptor, count: Int) throws(SystemCallError) {
        precondition(count > 0 && count % 8 == 0, "a shared mapping holds whole 64-bit words")
        if try file.status().size < Int64(count) { try file.truncate(to: Int64(count)) }
        if let forced = FaultInjection.failure(of: .mmap, path: file.path) { throw SystemCallError(.mmap, path: file.path, errno: forced) }
        let pointer = file.withRaw { mmap(nil, count, PROT_READ | PROT_WRITE, MAP_SHARED, $0, 0) }
        guard let pointer, pointer != MAP_FAILED else {
            throw SystemCallError(.mmap, path: file.path, errno: .init(rawValue: errno))
        }
        address = Int(bitPattern: pointer)
        self.count = count
        path = file.path
    }

    deinit { munmap(UnsafeMutableRawPointer(bitPattern: address), count) }

    private func word(_ offset: Int, _ size: Int) -> UnsafeMutableRawPointer {
        precondition(offset >= 0 && offset % size == 0 && offset + size <= count, "offset \(offset) is not a word of the mapping")
        return UnsafeMutableRawPointer(bitPattern: address + offset)!
    }

    /// The 32-bit word at `offset` (sequentially consistent). No system call.
    package func load32(at offset: Int) -> UInt32 { di_atomic_load_u32(word(offset, 4)) }
    /// The 64-bit word at `offset` (sequentially consistent). No system call.
    package func load64(at offset: Int) -> UInt64 { di_atomic_load_u64(word(offset, 8)) }
    /// Adds `value` to the 32-bit word at `offset` (wrapping); the new value.
    @discardableResult
    package func add32(_ value: UInt32, at offset: Int) -> UInt32 { di_atomic_add_u32(word(offset, 4), value) }
    /// Subtracts `value` from the 32-bit word at `offset` (wrapping); the new value.
    @discardableResult
    package func subtract32(_ value: UInt32, at offset: Int) -> UInt32 { di_atomic_sub_u32(word(offset, 4), value) }
    /// Adds `value` to the 64-bit word at `offset` (wrapping); the new value.
    @discardableResult
    package func add64(_ value: UInt64, at offset: Int) -> UInt64 { di_atomic_add_u64(word(offset, 8), value) }
    /// Stores `value` in the 32-bit word at `offset` if it holds `expected`; whether it did.
    package func compareExchange32(at offset: Int, expected: UInt32, _ value: UInt32) -> Bool {
        di_atomic_cas_u32(word(offset, 4), expected, value) != 0
    }

    /// Sleeps while the 32-bit word at `offset` holds `expected`, at most `timeout` seconds
    /// (`nil`: no limit). Returns when woken, when the word had already changed, on a timeout
    /// or a signal: the caller looks at the word again. The corresponding call is
    /// `futex(FUTEX_WAIT)`.
    package func wait(at offset: Int, whileEqualTo expected: UInt32, timeout: Double?) throws(SystemCallError) {
        let target = word(offset, 4)
        if let forced = FaultInjection.failure(of: .futex, path: path) { throw SystemCallError(.futex, path: path, errno: forced) }
        let result: Int32
        if let timeout {
            var limit = timespec(tv_sec: Int(timeout), tv_nsec: Int((timeout - Double(Int(timeout))) * 1e9))
            result = di_futex_wait(target, expected, &limit)
        } else {
            result = di_futex_wait(target, expected, nil)
        }
        guard result == -1 else { return }
        let code = errno
        if code == EAGAIN || code == ETIMEDOUT || code == EINTR { return }
        throw SystemCallError(.futex, path: path, errno: .init(rawValue: code))
    }

    /// Wakes every process and thread sleeping on the 32-bit word at `offset`; how many were
    /// woken. The corresponding call is `futex(FUTEX_WAKE)`.
    @discardableResult
    package func wakeAll(at offset: Int) -> Int {
        Int(di_futex_wake(word(offset, 4), Int32.max))
    }
}
