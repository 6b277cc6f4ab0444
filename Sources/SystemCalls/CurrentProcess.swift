#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The running process: its identity, environment, working folder and executable.
package enum CurrentProcess {
    /// Its process id. The corresponding C function is `getpid`.
    package static var id: Int32 { getpid() }

    /// The path of the running executable (`/proc/self/exe`).
    package static func executablePath() -> String? {
        // Plain buffers and string slicing only: this runs in every query process, where each new
        // array type costs a run-time metadata lookup.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { buffer in
            let n = readlink("/proc/self/exe", buffer.baseAddress!, 4095)
            return n > 0 ? String(decoding: UnsafeBufferPointer(rebasing: buffer[..<n]), as: UTF8.self) : nil
        }
    }

    /// The working folder. The corresponding C function is `getcwd`.
    package static func workingDirectory() throws(SystemCallError) -> String {
        try withUnsafeTemporaryAllocation(of: CChar.self, capacity: 4096) { (buffer) throws(SystemCallError) -> String in
            if let forced = FaultInjection.failure(of: .getcwd, path: nil) { throw SystemCallError(.getcwd, errno: forced) }
            guard getcwd(buffer.baseAddress!, 4096) != nil else { throw SystemCallError(.getcwd, errno: .init(rawValue: errno)) }
            return String(cString: buffer.baseAddress!)
        }
    }

    /// `path` made absolute against the working folder, with `.` components and repeated slashes
    /// removed (`..` is kept: a link may stand before it).
    package static func absolutePath(_ path: String) throws(SystemCallError) -> String {
        var joined = path.hasPrefix("/") ? path : try workingDirectory() + "/" + path
        // Over the bytes into one buffer, as executablePath: no array of substrings, whose type
        // each query process would look up at run time (a few percent of `openin --list`).
        return joined.withUTF8 { bytes in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count + 1) { out in
                var length = 0, start = 0
                for end in 0...bytes.count where end == bytes.count || bytes[end] == 0x2F {
                    let count = end - start
                    // Empty components (repeated slashes) and "." are left out.
                    if count > 0 && !(count == 1 && bytes[start] == 0x2E) {
                        out[length] = 0x2F
                        length += 1
                        for i in start..<end { out[length] = bytes[i]; length += 1 }
                    }
                    start = end + 1
                }
                if length == 0 { out[0] = 0x2F; length = 1 }
                return String(decoding: UnsafeBufferPointer(rebasing: out[..<length]), as: UTF8.self)
            }
        }
    }

    /// The machine's host name (`nil` if it has none). The corresponding C function is `gethostname`.
    package static func hostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }

    /// Ends the process with `status` (buffers flushed, as C's `exit`).
    package static func exit(_ status: Int32) -> Never { Glibc.exit(status) }

    /// Ends the process at once with SIGKILL (crash-injection tests).
    package static func killSelf() { _ = raise(SIGKILL) }

    /// Whether standard input, output or error is a terminal.
    package static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) != 0 }
}

/// The environment.
package enum Environment {
    /// The value of `name`, if set. The corresponding C function is `getenv`.
    package static func value(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    /// Every `NAME=value` entry.
    package static func all() -> [String] {
        var result: [String] = []
        var index = 0
        while let entry = environ[index] { result.append(String(cString: entry)); index += 1 }
        return result
    }

    /// The user's home folder (`HOME`), else `/`.
    package static var home: String { value("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? "/" }

    /// Where an executable named `program` is on `PATH`, if anywhere (empty entries skipped, as
    /// are folders whose path would not fit `PATH_MAX`).
    package static func findExecutable(_ program: String) -> String? {
        findExecutable(program, inPath: value("PATH") ?? "/usr/bin:/bin")
    }

    /// Where one of the toolkit's own tools is: beside the running executable (the tools are
    /// installed together, and a file manager starts its actions with whatever `PATH` the session
    /// has, which may lack their folder), else on `PATH`.
    package static func findCompanionTool(_ program: String) -> String? {
        if let me = CurrentProcess.executablePath(), let slash = me.lastIndex(of: "/") {
            let beside = String(me[..<slash]) + "/" + program
            if FileSystem.isExecutable(beside) { return beside }
        }
        return findExecutable(program)
    }

    /// ``findExecutable(_:)`` with `path` for `PATH`.
    package static func findExecutable(_ program: String, inPath path: String) -> String? {
        if program.contains("/") { return FileSystem.isExecutable(program) ? program : nil }
        // Each candidate is assembled in one buffer, byte by byte: splitting PATH into substrings
        // and building a String per folder cost more than the access(2) calls themselves (every
        // `openin` query looks for `lp`; callgrind: 108,000 instructions, 6 % of the whole run).
        let name = program.utf8
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(PATH_MAX)) { buffer -> String? in
            var length = 0, fits = true
            func candidate() -> String? {
                defer { length = 0; fits = true }
                guard length > 0, fits, length + 1 + name.count < buffer.count else { return nil }
                var end = length
                buffer[end] = CChar(bitPattern: UInt8(ascii: "/")); end += 1
                for byte in name { buffer[end] = CChar(bitPattern: byte); end += 1 }
                buffer[end] = 0
                return access(buffer.baseAddress!, X_OK) == 0 ? String(cString: buffer.baseAddress!) : nil
            }
            for byte in path.utf8 {
                if byte == UInt8(ascii: ":") {
                    if let found = candidate() { return found }
                } else if length < buffer.count {
                    buffer[length] = CChar(bitPattern: byte); length += 1
                } else {
                    fits = false
                }
            }
            return candidate()
        }
    }
}
