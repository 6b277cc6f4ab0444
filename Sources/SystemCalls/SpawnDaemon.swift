import CSystemShims
import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Spawn {
    /// Starts `arguments` (the program by its path) as a daemon of our environment, and does not
    /// wait for it: in a session of its own (a terminal's hang-up or Ctrl-C does not reach it),
    /// in `/` (it holds no folder busy), with every signal at its default and none blocked,
    /// with standard input, output and error on `/dev/null` and
    /// no other descriptor of ours (a caller reading our output to its end, `$(openin …)`, must
    /// not wait for the daemon). The caller reaps it or exits. The corresponding C function is
    /// `posix_spawn`.
    /// - Returns: the daemon's process id.
    @discardableResult
    package static func daemon(_ arguments: [String]) throws(SystemCallError) -> Int32 {
        try daemon(arguments, input: nil, searchingPath: false)
    }

    /// ``daemon(_:)`` with standard input on `input` (the read end of a pipe: dup'ed to 0 in the
    /// child) instead of `/dev/null`, the program found on `PATH` when `searchingPath`.
    static func daemon(_ arguments: [String], input: Int32?, searchingPath: Bool) throws(SystemCallError) -> Int32 {
        guard let program = arguments.first else { throw SystemCallError(.spawn, errno: .invalidArgument) }
        if let forced = FaultInjection.failure(of: .spawn, path: program) { throw SystemCallError(.spawn, path: program, errno: forced) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Every signal at its default and none blocked: a daemon must not inherit a SIGPIPE the
        // caller ignores or a SIGTERM it blocked to read from a signalfd.
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        // Each step must take: a daemon left holding our output pipe would hold up whoever reads
        // it to its end. (They fail only for want of memory.)
        let steps: [Int32] = [
            input.map { posix_spawn_file_actions_adddup2(&actions, $0, 0) }
                ?? posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0),
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0),
            posix_spawn_file_actions_adddup2(&actions, 1, 2),
            di_spawn_addclosefrom(&actions, 3),
            di_spawn_addchdir(&actions, "/"),
            posix_spawnattr_setsigmask(&attributes, &none),
            posix_spawnattr_setsigdefault(&attributes, &all),
            posix_spawnattr_setflags(&attributes, di_spawn_setsid_flag() | Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)),
        ]
        if let failed = steps.first(where: { $0 != 0 }) { throw SystemCallError(.spawn, path: program, errno: Errno(rawValue: failed)) }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = searchingPath ? posix_spawnp(&pid, program, &actions, &attributes, argv, environ)
                                   : posix_spawn(&pid, program, &actions, &attributes, argv, environ)
        guard status == 0 else { throw SystemCallError(.spawn, path: program, errno: Errno(rawValue: status)) }
        return pid
    }
}
