import Foundation
import PropertyLists

/// Paths and process helpers shared by the tests.
public enum TestSupport {
    /// The package root, from this file's location.
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared` beside the project root.
    public static let shared = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")

    public static let infoPlistCorpus = shared.appendingPathComponent("corpus/infoplist")
    public static let badCorpus = shared.appendingPathComponent("corpus/bad-plists")

    /// The folder the test bundle was built into, which also holds the built executables.
    public static let productsDirectory: URL = {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        while dir.lastPathComponent.hasSuffix(".xctest") { dir = dir.deletingLastPathComponent() }
        // Every test that starts a tool asks for this first: from here on, what the tests make,
        // the tools they start as TestUser may write.
        TestUser.prepare()
        return dir
    }()

    public static var plutil: String { productsDirectory.appendingPathComponent("plutil").path }
    /// The built `uti`.
    public static var uti: String { productsDirectory.appendingPathComponent("uti").path }
    /// The built `openin`.
    public static var openin: String { productsDirectory.appendingPathComponent("openin").path }
    /// The built `inboxd`.
    public static var inboxd: String { productsDirectory.appendingPathComponent("inboxd").path }
    /// The built `openurl`.
    public static var openurl: String { productsDirectory.appendingPathComponent("openurl").path }

    /// Calls `body` with `bytes` as a NUL-terminated C string (names that need not be UTF-8).
    public static func withCString<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        (bytes + [0]).withUnsafeBufferPointer { buffer in buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
    }

    /// The Foundation-based plutil that ships with the Swift toolchain: the peer we match.
    public static let toolchainPlutil: String? = {
        for candidate in ["/opt/swift/usr/bin/plutil", "/usr/bin/plutil"] where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        return nil
    }()

    public static func corpusFiles() -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: infoPlistCorpus.path)) ?? []
        return names.filter { $0.hasSuffix(".plist") }.sorted().map { infoPlistCorpus.appendingPathComponent($0) }
    }

    public struct Run: Sendable {
        public var status: Int32
        public var stdout: Data
        public var stderr: String
        public var out: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs a program to completion and captures its output; the status of a program killed by
    /// signal N is 128 + N. `nearby` and the apps run as ``TestUser``, as people run them
    /// (``TestUser/startsAsUser(_:)``).
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        // No display unless the test names one: started with no terminal, openin would show
        // its sheet as a desktop dialog on the developer's screen and wait for an answer.
        var inherited = ProcessInfo.processInfo.environment
        inherited["DISPLAY"] = nil
        inherited["WAYLAND_DISPLAY"] = nil
        if TestUser.startsAsUser(executable) {
            TestUser.ownFolders(named: arguments + Array(environment.values))
            let command = TestUser.command(executable, arguments)
            process.executableURL = URL(fileURLWithPath: command.executable)
            process.arguments = command.arguments
            inherited = TestUser.environment(from: inherited)
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
        process.environment = inherited.merging(environment) { $1 }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        // Standard input is written on its own thread: a child that writes a large output before
        // it has read all its input would otherwise wait for us while we wait for it.
        let inputHandle = input.fileHandleForWriting
        DispatchQueue.global().async {
            if let stdin { try? inputHandle.write(contentsOf: stdin) }
            try? inputHandle.close()
        }
        // Read both pipes concurrently so a large output cannot dead-lock the child.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        // Killed by signal N: 128 + N, as a shell reports it.
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return Run(status: status, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }

    /// ``run(_:_:stdin:environment:)`` from an async test, on a thread of its own: waiting for a
    /// process on the cooperative pool (two threads on this machine) would starve the tasks the
    /// process talks to, such as a receiver running in the test process.
    public static func runOffPool(_ executable: String, _ arguments: [String], stdin: Data? = nil,
                                  environment: [String: String] = [:]) async throws -> Run {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try run(executable, arguments, stdin: stdin, environment: environment) })
            }.start()
        }
    }

    /// Runs blocking work (an app's stream reads and writes) from an async test on a thread of
    /// its own, for the reason ``runOffPool(_:_:stdin:environment:)`` gives.
    public static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    /// Writes `bytes` to `url` through a descriptor opened close-on-exec. Foundation's
    /// `Data.write(to:)` opens without `O_CLOEXEC`, so a process another test starts meanwhile
    /// keeps the file open for writing, and the receiver (rightly) defers it as still being
    /// written: a flaky `InboxMoveTests` case in a loaded run.
    public static func writeFile(_ bytes: Data, to url: URL) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 { if errno == EINTR { continue }; failure = errno; return }
                offset += n
            }
        }
        if failure != 0 { throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO) }
    }

    /// A fresh temporary directory.
    public static func temporaryDirectory() throws -> URL {
        // What the test puts there, the tools it starts as ``TestUser`` may write.
        TestUser.prepare()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("plist-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A fresh copy of the Samples/ device root (apps and documents, no registry), to deliver into.
    public static func sampleDevice() throws -> URL {
        let root = try temporaryDirectory().appendingPathComponent("device")
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Samples"), to: root)
        try? FileManager.default.removeItem(at: root.appendingPathComponent("registry.bin"))
        for generated in ["Containers", "Preferences", "Pasteboards", "Nearby", "Handoff"] { try? FileManager.default.removeItem(at: root.appendingPathComponent(generated)) }
        // The sample programs, put into their bundles as scripts/install-samples does.
        for (program, name) in [("PersonEditor", "person-editor"), ("PersonViewer", "person-viewer"), ("Contacts", "contacts")] {
            let bin = root.appendingPathComponent("Apps/\(program).app/bin")
            try? FileManager.default.removeItem(at: bin)
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent(name).path,
                                                       withDestinationPath: productsDirectory.appendingPathComponent(program).path)
        }
        TestUser.own(root.deletingLastPathComponent())
        return root
    }

    public static func read(_ url: URL) throws -> PropertyListDocument {
        try PropertyListReader.read(Array(try Data(contentsOf: url)))
    }
}

