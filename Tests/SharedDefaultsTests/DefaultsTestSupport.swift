import Foundation
import PropertyLists
import TestHelpers

/// The built probe and tool, and folders for the tests.
enum Probe {
    static var path: String { TestSupport.productsDirectory.appendingPathComponent("defaults-probe").path }
    static var defaultsTool: String { TestSupport.productsDirectory.appendingPathComponent("defaults").path }

    /// Runs the probe to completion; its standard output.
    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let result = try TestSupport.run(path, arguments)
        guard result.status == 0 else { throw Failure(message: "defaults-probe \(arguments.joined(separator: " ")) exited \(result.status): \(result.out) \(result.stderr)") }
        return result.out
    }

    /// Starts the probe with its standard output in a pipe.
    static func start(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, pipe)
    }

    /// A new empty folder.
    static func folder() throws -> String { try TestSupport.temporaryDirectory().path }

    /// The value of `name` in a line "… name VALUE …" of `text`.
    static func figure(_ name: String, in text: String) -> Double? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard let i = words.firstIndex(where: { $0 == name }), i + 1 < words.count else { return nil }
        return Double(words[i + 1])
    }
}

struct Failure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Runs `defaults` with `arguments` on the device root `root`.
func defaultsTool(_ root: String, _ arguments: [String], stdin: Data? = nil) throws -> TestSupport.Run {
    try TestSupport.run(Probe.defaultsTool, ["--root", root] + arguments, stdin: stdin)
}
