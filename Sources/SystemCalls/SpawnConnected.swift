import CSystemShims
import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Spawn {
    /// Starts `arguments` (the program found on `PATH` when it has no `/`) with `socket` as its
    /// standard input and output (standard error stays ours), and does not wait for it: a helper
    /// that carries a byte stream for us (``StreamSocket/pair()``). The caller reaps it
    /// (``wait(for:)``). The corresponding C function is `posix_spawnp`.
    /// - Returns: the child's process id.
    package static func connected(_ arguments: [String], socket: OwnedDescriptor) throws(SystemCallError) -> Int32 {
        try withExtendedLifetime(socket) { () throws(SystemCallError) -> Int32 in try start(arguments, input: socket.raw, output: socket.raw) }
    }
}
