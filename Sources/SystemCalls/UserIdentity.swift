#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Who the running process acts as.
package enum UserIdentity {
    /// The effective user id: the owner of the files it creates. The corresponding C function is `geteuid`.
    package static var effective: UInt32 { UInt32(geteuid()) }
}
