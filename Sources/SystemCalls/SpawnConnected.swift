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
        guard let program = arguments.first else { throw SystemCallError(.spawn, errno: .invalidArgument) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = withExtendedLifetime(socket) {
            posix_spawn_file_actions_adddup2(&actions, socket.raw, 0)
            posix_spawn_file_actions_adddup2(&actions, socket.raw, 1)
            return posix_spawnp(&pid, program, &actions, nil, argv, environ)
        }
        guard spawned == 0 else { throw SystemCallError(.spawn, path: program, errno: Errno(rawValue: spawned)) }
        return pid
    }
}
