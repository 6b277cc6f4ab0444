import SystemPackage
#if ENABLE_FAULT_INJECTION
import Synchronization
#endif

/// Forced failures and observers for system calls, compiled only into test builds
/// (`ENABLE_FAULT_INJECTION`, defined for debug builds in Package.swift): a release build has no
/// trace of it. Rules are task-local, so tests running in parallel do not see each other's faults.
///
/// ```swift
/// try FaultInjection.with([.fail(.fsync, errno: .ioError)]) {
///     try mover.moveAll()     // every fsync in this task fails with EIO
/// }
/// ```
///
/// Processes started by a test (the tools) read their rules from the `DI_FAULTS` environment
/// variable, in test builds only: `crash=STEP` ends the process with SIGKILL at a named step
/// (``checkpoint(_:)``), `fail=CALL:ERRNO[:PATH-SUFFIX]` fails a call.
package enum FaultInjection {
    /// One rule.
    package struct Rule: Sendable {
        /// Which call, and for paths ending in `pathSuffix` only (when given).
        package var call: SystemCall?
        package var pathSuffix: String?
        /// The error to return instead of making the call.
        package var errno: Errno?
        /// Calls to let through before failing, and how many to fail then.
        package var skip = 0
        package var times = Int.max
        /// Called (after the real call succeeded) with the raw descriptor, for observers.
        package var observe: (@Sendable (Int32) -> Void)?
        /// A step at which the process kills itself (SIGKILL).
        package var crashAt: String?
        /// Shared so that counting works across copies of the rule.
        let counter = Counter()

        /// Fails `call` with `errno` (on paths ending in `pathSuffix`), after `skip` successful calls, `times` times.
        package static func fail(_ call: SystemCall, errno: Errno, pathSuffix: String? = nil, skip: Int = 0, times: Int = .max) -> Rule {
            Rule(call: call, pathSuffix: pathSuffix, errno: errno, skip: skip, times: times)
        }

        /// Calls `body` with the descriptor after every successful `call`.
        package static func observe(_ call: SystemCall, _ body: @escaping @Sendable (Int32) -> Void) -> Rule {
            Rule(call: call, observe: body)
        }

        /// Ends the process with SIGKILL when it reaches `step`.
        package static func crash(at step: String) -> Rule { Rule(crashAt: step) }
    }

    #if ENABLE_FAULT_INJECTION
    final class Counter: Sendable {
        private let value = Mutex(0)
        func next() -> Int { value.withLock { $0 += 1; return $0 } }
    }

    @TaskLocal static var rules: [Rule] = environmentRules

    /// Runs `body` with `rules` in force (added to those already in force).
    package static func with<T>(_ added: [Rule], _ body: () throws -> T) rethrows -> T {
        try $rules.withValue(rules + added, operation: body)
    }

    /// The error a forced failure of `call` on `path` gives, if a rule says so.
    static func failure(of call: SystemCall, path: String?) -> Errno? {
        for rule in rules where rule.call == call && rule.errno != nil {
            if let suffix = rule.pathSuffix, !(path ?? "").hasSuffix(suffix) { continue }
            let n = rule.counter.next()
            if n > rule.skip && n - rule.skip <= rule.times { return rule.errno }
        }
        return nil
    }

    /// Tells the observers of `call` about a successful call on `descriptor`.
    static func succeeded(_ call: SystemCall, descriptor: Int32) {
        for rule in rules where rule.call == call { rule.observe?(descriptor) }
    }

    /// Kills the process with SIGKILL when a rule names `step` (crash-injection tests).
    package static func checkpoint(_ step: String) {
        if rules.contains(where: { $0.crashAt == step }) { CurrentProcess.killSelf() }
    }

    /// Rules from `DI_FAULTS` (comma-separated `crash=STEP` and `fail=CALL:ERRNO[:SUFFIX]`).
    static let environmentRules: [Rule] = {
        guard let text = Environment.value("DI_FAULTS") else { return [] }
        return text.split(separator: ",").compactMap { item -> Rule? in
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return nil }
            if parts[0] == "crash" { return .crash(at: parts[1]) }
            let fields = parts[1].split(separator: ":").map(String.init)
            guard parts[0] == "fail", fields.count >= 2, let call = SystemCall(rawValue: fields[0]), let code = Int32(fields[1]) else { return nil }
            return .fail(call, errno: Errno(rawValue: code), pathSuffix: fields.count > 2 ? fields[2] : nil)
        }
    }()
    #else
    final class Counter: Sendable {}
    @inline(__always) static func failure(of call: SystemCall, path: String?) -> Errno? { nil }
    @inline(__always) static func succeeded(_ call: SystemCall, descriptor: Int32) {}
    /// Does nothing outside test builds.
    @inline(__always) package static func checkpoint(_ step: String) {}
    #endif
}
