import Foundation
import TestHelpers
import Testing

@Suite("notifyutil")
struct NotifyutilTests {
    func run(_ folder: String, _ arguments: [String]) throws -> ProbeProcess {
        try ProbeProcess(ProbeProcess.notifyutilPath, arguments, environment: ["DOCUMENT_INTERCHANGE_NOTIFY_DIR": folder])
    }

    @Test("-1 waits for one post and prints the key; -p posts")
    func waitAndPost() throws {
        let folder = try freshFolder()
        let waiter = try run(folder, ["-1", "com.example.done"])
        defer { waiter.stop() }
        // The waiter is registered once its process has its record in the table; post until seen.
        var seen = false
        let deadline = Date().addingTimeInterval(60)
        while !seen && Date() < deadline {
            let poster = try run(folder, ["-z", "0", "-p", "com.example.done"])
            #expect(poster.waitForExit() == 0)
            seen = waiter.waitForLine(startingWith: "com.example.done", timeout: 0.1) != nil
        }
        #expect(seen)
        #expect(waiter.waitForExit() == 0)
    }

    @Test("-s then -g in one command line, in order; -v prints time, key, state, type")
    func stateCommands() throws {
        let folder = try freshFolder()
        let holder = try ProbeProcess.probe(["notify-set-state", folder, "com.example.level", "5"])
        defer { holder.stop() }
        #expect(holder.waitForLine(startingWith: "ready") != nil)
        let tool = try run(folder, ["-g", "com.example.level", "-s", "com.example.level", "-9", "-g", "com.example.level"])
        #expect(tool.waitForExit() == 0)
        #expect(tool.output == ["com.example.level 5", "com.example.level \(UInt64(bitPattern: -9))"])

        let verbose = try run(folder, ["-v", "-1", "com.example.level"])
        defer { verbose.stop() }
        var line: String?
        let deadline = Date().addingTimeInterval(60)
        while line == nil && Date() < deadline {
            #expect(try run(folder, ["-z", "0", "-p", "com.example.level"]).waitForExit() == 0)
            line = verbose.waitForLine(startingWith: "1", timeout: 0.1)
        }
        let fields = line?.split(separator: " ") ?? []
        #expect(fields.count == 4)
        #expect(fields.dropFirst().map(String.init) == ["com.example.level", String(UInt64(bitPattern: -9)), "port"])
    }

    @Test("Failures are reported as macOS prints them; usage errors exit 1")
    func failures() throws {
        let folder = try freshFolder()
        let invalid = try run(folder, ["-g", ""])
        #expect(invalid.waitForExit() == 1, "an empty value is a usage error")
        let long = String(repeating: "x", count: 600)
        let tooLong = try run(folder, ["-z", "0", "-p", long])
        #expect(tooLong.waitForExit() == 0)
        // macOS's "KEY: Invalid Name", with the rule broken, and not 600 bytes of name echoed back.
        #expect(tooLong.output == [String(repeating: "x", count: 64) + "… (600 bytes): Invalid Name (it is 600 bytes long, more than 512; a name is at most 512 bytes, without NUL)"])
        let unknown = try run(folder, ["-x"])
        #expect(unknown.waitForExit() == 1)
        let missing = try run(folder, ["-s", "only-key"])
        #expect(missing.waitForExit() == 1)
    }

    @Test("-s NAME 42 -g NAME prints 42 with no other process holding the name, as docs/notifications.md shows")
    func setThenGetAlone() throws {
        let folder = try freshFolder()
        let tool = try run(folder, ["-s", "com.example.alone", "42", "-g", "com.example.alone"])
        #expect(tool.waitForExit() == 0)
        #expect(tool.output == ["com.example.alone 42"])
        // The state lived while notifyutil held it: a later run starts from 0, as on macOS.
        let later = try run(folder, ["-g", "com.example.alone"])
        #expect(later.waitForExit() == 0)
        #expect(later.output == ["com.example.alone 0"])
    }

    @Test("A state that is no number is a usage error found before anything runs; --post suggests -p")
    func usageErrorsBeforeAnything() throws {
        let folder = try freshFolder()
        let waiter = try run(folder, ["-1", "com.example.never"])
        defer { waiter.stop() }
        let bad = try ProbeProcess(ProbeProcess.notifyutilPath, ["-p", "com.example.never", "-s", "k", "many"],
                                   environment: ["DOCUMENT_INTERCHANGE_NOTIFY_DIR": folder])
        #expect(bad.waitForExit() == 1)
        // The -p before the bad -s did not run: the waiter saw nothing.
        #expect(waiter.waitForLine(startingWith: "com.example.never", timeout: 1) == nil)
        let misspelt = try TestSupport.run(ProbeProcess.notifyutilPath, ["--post", "x"], environment: ["DOCUMENT_INTERCHANGE_NOTIFY_DIR": folder])
        #expect(misspelt.status == 1 && misspelt.stderr.contains("unknown option --post (did you mean -p?)"), "\(misspelt.stderr)")
    }

    @Test("-file, -check and -signal registrations each report their post")
    func registrationTypes() throws {
        let folder = try freshFolder()
        let waiter = try run(folder, ["-file", "-1", "f.name", "-check", "-1", "c.name", "-signal", "10", "-1", "s.name"])
        defer { waiter.stop() }
        var done = false
        let deadline = Date().addingTimeInterval(60)
        while !done && Date() < deadline {
            #expect(try run(folder, ["-z", "0", "-p", "f.name", "-p", "c.name", "-p", "s.name"]).waitForExit() == 0)
            done = waiter.waitForExit(timeout: 0.3) != nil
        }
        #expect(done)
        #expect(Set(waiter.output.filter { $0.hasSuffix(".name") }) == ["f.name", "c.name", "s.name"])
    }
}
