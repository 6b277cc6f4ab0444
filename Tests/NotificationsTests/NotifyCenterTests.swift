import Foundation
import Notifications
import Synchronization
import SystemCalls
import TestHelpers
import Testing

/// Every test has its own folder, so its own table: tests run in parallel without meeting.
func freshFolder() throws -> String { try TestSupport.temporaryDirectory().path }


@Suite("Notifications between processes")
struct NotifyCenterTests {
    @Test("A post reaches a callback in another process")
    func postReachesAnotherProcess() throws {
        let folder = try freshFolder()
        let observer = try ProbeProcess.probe(["notify-register-park", folder, "com.example.changed"])
        defer { observer.stop() }
        #expect(observer.waitForLine(startingWith: "ready") != nil)
        try NotifyCenter(directory: folder).post("com.example.changed")
        #expect(observer.waitForLine(startingWith: "posted") != nil)
        // Another name does not reach it.
        try NotifyCenter(directory: folder).post("com.example.other")
        Thread.sleep(forTimeInterval: 0.2)
        #expect(observer.output.filter { $0 == "posted" }.count == 1)
    }

    @Test("A callback in this process from another process's post; the check flag")
    func callbackAndCheck() throws {
        let folder = try freshFolder()
        let center = NotifyCenter(directory: folder)
        let calls = Atomic<Int>(0)
        let token = try center.register("com.example.sync") { _ in calls.add(1, ordering: .sequentiallyConsistent) }
        let check = try center.registerCheck("com.example.sync")
        #expect(try center.check(check), "the first check says true, as notify_check does")
        #expect(try !center.check(check))
        let poster = try ProbeProcess.probe(["notify-post", folder, "com.example.sync", "1"])
        #expect(poster.waitForExit() == 0)
        #expect(eventually { calls.load(ordering: .sequentiallyConsistent) == 1 })
        #expect(try center.check(check))
        #expect(try !center.check(check))
        #expect(try center.state(of: token) == 1, "the poster set the state to 1 before posting")
        try center.cancel(token)
        #expect(!center.isValid(token))
        #expect(throws: NotificationError.self) { try center.state(of: token) }
    }

    @Test("After 100,000 posts every observer reads the final state")
    func finalStateAfterManyPosts() throws {
        let folder = try freshFolder()
        let count = 100_000
        let observers = try (0..<2).map { _ in try ProbeProcess.probe(["notify-final", folder, "com.example.counter", String(count)]) }
        defer { observers.forEach { $0.stop() } }
        for observer in observers { #expect(observer.waitForLine(startingWith: "ready") != nil) }
        let poster = try ProbeProcess.probe(["notify-post", folder, "com.example.counter", String(count)])
        #expect(poster.waitForExit(timeout: 120) == 0)
        for observer in observers {
            let line = observer.waitForLine(startingWith: "final", timeout: 30)
            #expect(line?.hasPrefix("final \(count) after") == true)
            // Rapid posts coalesce: far fewer callbacks than posts.
            let fields = line?.split(separator: " ") ?? []
            let callbacks = fields.count == 5 ? Int(fields[3]) ?? .max : .max
            #expect(callbacks >= 1 && callbacks <= count)
        }
    }

    @Test("Posts while suspended give one delivery on resume")
    func suspendCoalesces() throws {
        let folder = try freshFolder()
        let center = NotifyCenter(directory: folder)
        let calls = Atomic<Int>(0)
        let token = try center.register("com.example.burst") { _ in calls.add(1, ordering: .sequentiallyConsistent) }
        try center.suspend(token)
        let poster = try ProbeProcess.probe(["notify-post", folder, "com.example.burst", "100"])
        #expect(poster.waitForExit() == 0)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(calls.load(ordering: .sequentiallyConsistent) == 0)
        try center.resume(token)
        #expect(eventually { calls.load(ordering: .sequentiallyConsistent) == 1 })
        Thread.sleep(forTimeInterval: 0.1)
        #expect(calls.load(ordering: .sequentiallyConsistent) == 1)
    }

    @Test("A stopped observer never slows a poster; it gets one delivery when continued")
    func stoppedObserver() throws {
        let folder = try freshFolder()
        let observer = try ProbeProcess.probe(["notify-register-park", folder, "com.example.busy"])
        defer { observer.stop() }
        #expect(observer.waitForLine(startingWith: "ready") != nil)
        #expect(observer.stopAndWait())
        let center = NotifyCenter(directory: folder)
        let start = Date()
        for _ in 0..<10_000 { try center.post("com.example.busy") }
        #expect(Date().timeIntervalSince(start) < 20)
        observer.signal(SIGCONT)
        #expect(observer.waitForLine(startingWith: "posted") != nil)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(observer.output.filter { $0 == "posted" }.count == 1, "10,000 posts coalesced while it was stopped")
    }

    @Test("State is shared while a registration holds the name, and forgotten after the last")
    func stateLifetime() throws {
        let folder = try freshFolder()
        let holder = try ProbeProcess.probe(["notify-set-state", folder, "com.example.level", "42"])
        #expect(holder.waitForLine(startingWith: "ready") != nil)
        let center = NotifyCenter(directory: folder)
        let token = try center.registerPlain("com.example.level")
        #expect(try center.state(of: token) == 42)
        try center.setState(.max, for: token)
        #expect(try center.state(of: token) == .max, "64 bits")
        try center.cancel(token)
        holder.stop() // kill -9: it never cancels
        let again = try center.registerPlain("com.example.level")
        #expect(try center.state(of: again) == 0)
    }

    @Test("File-descriptor registrations read the token, big-endian; a reused descriptor carries both")
    func fileDescriptor() throws {
        let folder = try freshFolder()
        let center = NotifyCenter(directory: folder)
        let (first, descriptor) = try center.registerFileDescriptor("com.example.a")
        let (second, same) = try center.registerFileDescriptor("com.example.b", reusing: descriptor)
        #expect(same == descriptor)
        #expect(throws: NotificationError.invalidFile(9999)) { try center.registerFileDescriptor("com.example.c", reusing: 9999) }
        let poster = try ProbeProcess.probe(["notify-post", folder, "com.example.b", "1"])
        #expect(poster.waitForExit() == 0)
        var word: UInt32 = 0
        let count = withUnsafeMutableBytes(of: &word) { read(descriptor, $0.baseAddress, 4) }
        #expect(count == 4)
        #expect(Int32(bitPattern: UInt32(bigEndian: word)) == second.rawValue)
        #expect(first != second)
    }

    @Test("self. names never leave the process")
    func processLocalNames() throws {
        let folder = try freshFolder()
        let observer = try ProbeProcess.probe(["notify-register-park", folder, "self.changed"])
        defer { observer.stop() }
        #expect(observer.waitForLine(startingWith: "ready") != nil)
        let center = NotifyCenter(directory: folder)
        let calls = Atomic<Int>(0)
        let token = try center.register("self.changed") { _ in calls.add(1, ordering: .sequentiallyConsistent) }
        try center.post("self.changed")
        #expect(eventually { calls.load(ordering: .sequentiallyConsistent) == 1 })
        try center.setState(7, for: token)
        #expect(try center.state(of: token) == 7)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(!observer.output.contains("posted"))
    }

    @Test("Processes killed with their registrations leave nothing that blocks the others")
    func deadObservers() throws {
        let folder = try freshFolder()
        for _ in 0..<5 {
            let observer = try ProbeProcess.probe(["notify-register-park", folder, "com.example.crash"])
            #expect(observer.waitForLine(startingWith: "ready") != nil)
            observer.stop()
        }
        let center = NotifyCenter(directory: folder)
        try center.post("com.example.crash") // sends to dead mailboxes: refused, cleared
        let calls = Atomic<Int>(0)
        _ = try center.register("com.example.crash") { _ in calls.add(1, ordering: .sequentiallyConsistent) }
        let poster = try ProbeProcess.probe(["notify-post", folder, "com.example.crash", "1"])
        #expect(poster.waitForExit() == 0)
        #expect(eventually { calls.load(ordering: .sequentiallyConsistent) == 1 })
    }

    @Test("Another user's names are refused before they reach the table")
    func otherUsersNames() throws {
        let center = NotifyCenter(directory: try freshFolder())
        let other = ProcessSignals.userID == 0 ? nil : "user.uid.\(ProcessSignals.userID + 1).x"
        if let other {
            #expect(throws: NotificationError.notAuthorized(other, owner: ProcessSignals.userID + 1)) { try center.post(other) }
        }
        _ = try center.registerCheck("user.uid.\(ProcessSignals.userID).x")
    }
}
