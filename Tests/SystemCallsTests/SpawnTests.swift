import Foundation
import SystemCalls
import Testing

/// Starting programs (``SystemCalls/Spawn``) with real processes: output and exit status, a
/// signal's status, and handing data to a program that leaves a child behind (as xclip and
/// wl-copy do) without waiting for that child.
@Suite struct SpawnTests {
    @Test func runCapturesOutputAndStatus() throws {
        let echoed = try Spawn.run(["/bin/sh", "-c", "cat; echo done; exit 3"], input: Array("in\n".utf8))
        #expect(echoed.status == 3)
        #expect(String(decoding: echoed.output, as: UTF8.self) == "in\ndone\n")
        // Killed by signal 9: 128 + 9, as a shell reports it.
        #expect(try Spawn.run(["/bin/sh", "-c", "kill -9 $$"]).status == 137)
        // A program that does not exist is an error, not a status.
        #expect(throws: SystemCallError.self) { try Spawn.run(["/nonexistent/program"]) }
    }

    @Test func handOffWaitsForTheProgramNotForTheChildItLeaves() throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("handoff-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: marker) }
        let start = Date()
        // The program reads its input, writes it to the marker, leaves a child running for 30 s
        // (holding whatever descriptors it inherited) and exits.
        let ended = try Spawn.handOff(["/bin/sh", "-c", "cat > \(marker); (sleep 30 &); exit 0"], input: Array("data".utf8), timeout: 10)
        #expect(ended == .exited(0))
        #expect(Date().timeIntervalSince(start) < 8, "handOff waited for the child")
        #expect(FileManager.default.contents(atPath: marker) == Data("data".utf8))
        // A program that never exits is killed at the timeout.
        let stuck = Date()
        #expect(try Spawn.handOff(["/bin/sleep", "30"], input: [], timeout: 0.5) == .timedOut)
        #expect(Date().timeIntervalSince(stuck) < 8)
    }
}
