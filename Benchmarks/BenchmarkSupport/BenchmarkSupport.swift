import Foundation

/// Helpers shared by the benchmark programs: options, shell commands, clocks, medians, and
/// timing a whole process from spawn to exit.
public enum Bench {
    /// The integer after `name` on the command line, or `fallback`.
    public static func option(_ name: String, _ fallback: Int) -> Int {
        let arguments = CommandLine.arguments
        guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count, let v = Int(arguments[i + 1]) else { return fallback }
        return v
    }

    /// Runs `command` with `/bin/sh -c`; its exit status and standard output.
    @discardableResult
    public static func shell(_ command: String) -> (status: Int32, out: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        let pipe = Pipe()
        p.standardOutput = pipe
        do { try p.run() } catch { return (127, "") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The median; NaN for no values.
    public static func median(_ xs: [Double]) -> Double {
        let s = xs.sorted()
        return s.isEmpty ? .nan : s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// The arithmetic mean (`nan` for none): the expected time of one start, which for a peer
    /// whose times fall on a few kernel ticks (4, 8, 12 ms) is steadier than the median, which
    /// jumps from one tick to the next.
    public static func mean(_ xs: [Double]) -> Double {
        xs.isEmpty ? .nan : xs.reduce(0, +) / Double(xs.count)
    }

    /// Seconds on `id` (`CLOCK_MONOTONIC`, `CLOCK_THREAD_CPUTIME_ID`).
    public static func clock(_ id: clockid_t = CLOCK_MONOTONIC) -> Double {
        var ts = timespec()
        clock_gettime(id, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    /// Wall seconds from spawning `argv` to its exit, its output discarded.
    public static func spawnWall(_ argv: [String]) -> Double {
        var pid = pid_t()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let cArgs = argv.map { strdup($0) } + [nil]
        let t0 = clock()
        posix_spawn(&pid, argv[0], &actions, nil, cArgs, environ)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let t1 = clock()
        cArgs.forEach { free($0) }
        posix_spawn_file_actions_destroy(&actions)
        return t1 - t0
    }

    /// Drops each file's pages from the page cache and reads it back, so that a program we time
    /// is cached as an installed one is (read through readahead, in large folios), not as the
    /// linker wrote it. Measured on this machine's 6.18 kernel: a freshly linked `openin` started
    /// in 1.0 ms, the same file read back in 0.7 ms (`openin --version`), for as long as the
    /// linker's pages stayed cached; earlier start-up figures moved with that (docs/benchmarks.md).
    public static func settle(_ paths: [String]) {
        for path in paths {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            fsync(fd)
            posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_DONTNEED))
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
            close(fd)
        }
    }

    /// Builds a C hello-world in `directory` (the start-up yardstick) and returns its path.
    public static func helloWorld(in directory: String) -> String {
        try? "#include <stdio.h>\nint main(void){puts(\"hello\");return 0;}\n".write(toFile: directory + "/hello.c", atomically: true, encoding: .utf8)
        shell("gcc -O2 -o '\(directory)/hello' '\(directory)/hello.c'")
        return directory + "/hello"
    }
}
