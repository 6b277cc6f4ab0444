#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The module's only calls into libc, kept in one file so that they move together when the
/// project's typed syscall layer takes them over.
enum LibC {
    /// C's `printf("%.17g", value)`: Swift has no `%g` formatting without Foundation.
    static func format17g(_ value: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 40)
        let count = withVaList([value]) { arguments in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, 40, "%.17g", arguments) }
        }
        return String(decoding: buffer[..<Int(max(0, min(count, 39)))].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The calling thread, to tell whether a cached stack bound is still this thread's.
    static func currentThread() -> UInt {
        #if canImport(Glibc)
        return UInt(pthread_self())
        #else
        return UInt(bitPattern: pthread_self())
        #endif
    }

    /// The lowest address of the calling thread's stack (it grows down towards it), or 0 when
    /// the system does not say. Costly on the main thread (glibc reads /proc/self/maps): cache it.
    /// The corresponding C functions are `pthread_getattr_np` and `pthread_attr_getstack`.
    static func currentStackLowestAddress() -> UInt {
        // pthread_getattr_np is a GNU extension the Glibc module does not export; look it up.
        // A static executable may not find it: callers then fall back on their depth limit.
        typealias GetAttr = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np") else { return 0 }
        let getAttributes = unsafeBitCast(symbol, to: GetAttr.self)
        var attributes = pthread_attr_t()
        guard getAttributes(pthread_self(), &attributes) == 0 else { return 0 }
        defer { pthread_attr_destroy(&attributes) }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return 0 }
        return UInt(bitPattern: address)
    }
}
