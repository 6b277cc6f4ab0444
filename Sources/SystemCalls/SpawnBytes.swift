import CSystemShims
import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Spawn {
    /// Starts `arguments` given as bytes (a file name need not be UTF-8, and an app must receive
    /// it unchanged), with `environment` entries added to ours (replacing ours of the same name),
    /// in `workingDirectory` when given, without waiting for it. The program is found on `PATH`
    /// when it has no `/`. The corresponding C function is `posix_spawnp`.
    /// - Returns: the child's process id.
    @discardableResult
    package static func detached(bytes arguments: [[UInt8]], setting environment: [String] = [],
                                 workingDirectory: String? = nil) throws(SystemCallError) -> Int32 {
        guard let first = arguments.first else { throw SystemCallError(.spawn, errno: .invalidArgument) }
        let program = String(decoding: first, as: UTF8.self)
        if let forced = FaultInjection.failure(of: .spawn, path: program) { throw SystemCallError(.spawn, path: program, errno: forced) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let workingDirectory { di_spawn_addchdir(&actions, workingDirectory) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group: a Ctrl-C meant for us does not reach the app we started.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        func duplicate(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar>? {
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            bytes.withUnsafeBufferPointer { source in
                for (i, byte) in source.enumerated() { copy[i] = CChar(bitPattern: byte) }
            }
            copy[bytes.count] = 0
            return copy
        }
        // An added variable replaces ours of the same name: getenv returns the first entry, so a
        // launched app that launches another would otherwise pass on its own request and identity.
        let names = Set(environment.compactMap { $0.split(separator: "=", maxSplits: 1).first.map(String.init) })
        let inherited = Environment.all().filter { entry in
            guard let name = entry.split(separator: "=", maxSplits: 1).first else { return true }
            return !names.contains(String(name))
        }
        let argv = arguments.map(duplicate) + [nil]
        let envp = (inherited + environment).map { duplicate(Array($0.utf8)) } + [nil]
        defer { argv.forEach { $0?.deallocate() }; envp.forEach { $0?.deallocate() } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, argv[0]!, &actions, &attributes, argv, envp)
        guard status == 0 else { throw SystemCallError(.spawn, path: program, errno: Errno(rawValue: status)) }
        return pid
    }
}
