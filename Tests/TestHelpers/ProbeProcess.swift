import Foundation

/// A helper process started by a test (coordination-probe, notifyutil): its standard output
/// read line by line as it comes, so a test can wait for "ready" or "holding", signal it (stop,
/// continue, kill) and collect what it printed.
public final class ProbeProcess: @unchecked Sendable {
    public let process = Process()
    private let lock = NSLock()
    private var lines: [String] = []
    private var partial = Data()

    /// Starts `executable` with `arguments`, with `environment` added to ours.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.standardError
        out.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.lock()
            self.partial.append(data)
            while let newline = self.partial.firstIndex(of: 0x0A) {
                self.lines.append(String(decoding: self.partial[self.partial.startIndex..<newline], as: UTF8.self))
                self.partial.removeSubrange(self.partial.startIndex...newline)
            }
            self.lock.unlock()
        }
        try process.run()
    }

    /// The built coordination-probe.
    public static var probePath: String { TestSupport.productsDirectory.appendingPathComponent("coordination-probe").path }
    /// The built notifyutil.
    public static var notifyutilPath: String { TestSupport.productsDirectory.appendingPathComponent("notifyutil").path }

    /// Starts coordination-probe with `arguments`.
    public static func probe(_ arguments: [String]) throws -> ProbeProcess { try ProbeProcess(probePath, arguments) }

    /// Every line printed so far.
    public var output: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }

    /// Waits until a line starting with `prefix` was printed; the line, or `nil` after `timeout`
    /// seconds.
    @discardableResult
    public func waitForLine(startingWith prefix: String, timeout: Double = 60) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = output.first(where: { $0.hasPrefix(prefix) }) { return line }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return output.first(where: { $0.hasPrefix(prefix) })
    }

    /// The process id.
    public var pid: Int32 { process.processIdentifier }

    /// Sends `signal`.
    public func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Stops the process and waits until the kernel says it is stopped: `kill` returns before a
    /// process running on another core has stopped, and it may still handle what comes meanwhile.
    public func stopAndWait(timeout: Double = 30) -> Bool {
        signal(SIGSTOP)
        return eventually(timeout) {
            // /proc/PID/stat: "PID (comm) STATE …"; the command may hold spaces and parentheses.
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("T")
        }
    }

    /// Waits for the process to end (at most `timeout` seconds); its status, or `nil` if it is
    /// still running.
    @discardableResult
    public func waitForExit(timeout: Double = 60) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.002) }
        guard !process.isRunning else { return nil }
        Thread.sleep(forTimeInterval: 0.02)
        return process.terminationStatus
    }

    /// Kills the process (SIGKILL, after a SIGCONT in case it is stopped) and waits for it.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGCONT)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
}

/// Waits until `condition` holds, at most `timeout` seconds; whether it held.
public func eventually(_ timeout: Double = 60, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.002)
    }
    return condition()
}

/// ``eventually(_:_:)`` for async tests: sleeps by suspending, so the tasks that will make
/// `condition` true (on the cooperative pool, two threads on this machine) keep running.
public func eventually(_ timeout: Double = 60, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return condition()
}
