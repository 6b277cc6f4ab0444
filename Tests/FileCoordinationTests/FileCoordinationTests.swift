import FileCoordination
import Foundation
import Synchronization
import SystemCalls
import TestHelpers
import Testing

/// A fresh folder for the table and a folder of documents inside it.
func freshSpace() throws -> (space: String, documents: String) {
    let root = try TestSupport.temporaryDirectory().path
    try FileManager.default.createDirectory(atPath: root + "/docs", withIntermediateDirectories: true)
    return (root, root + "/docs")
}

/// The error a coordinated access threw, or `nil` when it ran.
func failure(_ body: () throws -> Void) -> CoordinationError? {
    do { try body(); return nil } catch let error as CoordinationError { return error } catch { return .cancelled(path: "\(error)") }
}

@Suite("File coordination between processes")
struct FileCoordinationTests {
    @Test("Readers share an item: a read runs while another process reads")
    func readersShare() throws {
        let (space, docs) = try freshSpace()
        let reader = try ProbeProcess.probe(["coord-hold", space, docs + "/a.txt", "read", "60"])
        defer { reader.stop() }
        #expect(reader.waitForLine(startingWith: "holding") != nil)
        let coordinator = FileCoordinator(space: CoordinationSpace(directory: space), timeout: 1)
        let ran = try coordinator.coordinate(readingItemAt: docs + "/a.txt") { _ in true }
        #expect(ran)
        // A write of the item waits for the reader (and times out here, naming it).
        let error = failure { try coordinator.coordinate(writingItemAt: docs + "/a.txt") { _ in } }
        guard case .timedOut(_, let holder, let stopped, _)? = error else { Issue.record("no timeout: \(String(describing: error))"); return }
        #expect(holder == reader.pid)
        #expect(!stopped)
    }

    @Test("A writer excludes readers and writers of the item, of what is inside it and of the folders above")
    func writerExcludes() throws {
        let (space, docs) = try freshSpace()
        let coordinator = FileCoordinator(space: CoordinationSpace(directory: space), timeout: 0.3)
        let folderWriter = try ProbeProcess.probe(["coord-hold", space, docs, "write", "30"])
        #expect(folderWriter.waitForLine(startingWith: "holding") != nil)
        #expect(failure { try coordinator.coordinate(readingItemAt: docs + "/inside.txt") { _ in } } != nil)
        #expect(failure { try coordinator.coordinate(writingItemAt: docs + "/deeper/inside.txt") { _ in } } != nil)
        #expect(failure { try coordinator.coordinate(readingItemAt: docs) { _ in } } != nil)
        #expect(failure { try coordinator.coordinate(readingItemAt: space + "/elsewhere.txt") { _ in } } == nil, "not related")
        folderWriter.stop()

        let fileWriter = try ProbeProcess.probe(["coord-hold", space, docs + "/a.txt", "write", "30"])
        defer { fileWriter.stop() }
        #expect(fileWriter.waitForLine(startingWith: "holding") != nil)
        #expect(failure { try coordinator.coordinate(readingItemAt: docs) { _ in } } != nil, "a folder read waits for writes inside it")
        #expect(failure { try coordinator.coordinate(writingItemAt: space) { _ in } } != nil)
        #expect(failure { try coordinator.coordinate(writingItemAt: docs + "/b.txt") { _ in } } == nil, "a sibling is free")
        #expect(failure { try coordinator.coordinate(writingItemAt: docs + "/a.txt.tmp") { _ in } } == nil, "a longer name is not inside")
    }

    @Test("A holder killed with SIGKILL releases its claim at once")
    func killedHolder() throws {
        let (space, docs) = try freshSpace()
        let holder = try ProbeProcess.probe(["coord-hold", space, docs + "/a.txt", "write", "30"])
        #expect(holder.waitForLine(startingWith: "holding") != nil)
        holder.stop()
        // Released at once: long before the 30 s a writer would wait for a live holder.
        let coordinator = FileCoordinator(space: CoordinationSpace(directory: space), timeout: 30)
        let start = Date()
        #expect(failure { try coordinator.coordinate(writingItemAt: docs + "/a.txt") { _ in } } == nil)
        #expect(Date().timeIntervalSince(start) < 10)
    }

    @Test("A stopped holder makes a waiter fail after its timeout, naming the holder as stopped")
    func stoppedHolder() throws {
        let (space, docs) = try freshSpace()
        let holder = try ProbeProcess.probe(["coord-hold", space, docs + "/a.txt", "write", "30"])
        defer { holder.stop() }
        #expect(holder.waitForLine(startingWith: "holding") != nil)
        #expect(holder.stopAndWait())
        let coordinator = FileCoordinator(space: CoordinationSpace(directory: space), timeout: 0.5)
        let start = Date()
        let error = failure { try coordinator.coordinate(readingItemAt: docs + "/a.txt") { _ in } }
        let elapsed = Date().timeIntervalSince(start)
        #expect(error == .timedOut(path: docs + "/a.txt", holder: holder.pid, stopped: true, seconds: 0.5))
        #expect(error?.description.contains("(stopped)") == true)
        #expect(elapsed >= 0.45 && elapsed < 20)
        // Continued, it finishes and the item is free again.
        holder.signal(SIGCONT)
        holder.signal(SIGKILL)
        #expect(holder.waitForExit() != nil)
        #expect(failure { try FileCoordinator(space: CoordinationSpace(directory: space), timeout: 30).coordinate(readingItemAt: docs + "/a.txt") { _ in } } == nil)
    }

    @Test("Four processes incrementing one counter under coordination lose no update")
    func noLostUpdates() throws {
        let (space, docs) = try freshSpace()
        try "0".write(toFile: docs + "/counter", atomically: true, encoding: .utf8)
        let workers = try (0..<4).map { _ in try ProbeProcess.probe(["coord-increment", space, docs + "/counter", "100"]) }
        for worker in workers { #expect(worker.waitForExit(timeout: 120) == 0) }
        #expect(try String(contentsOfFile: docs + "/counter", encoding: .utf8) == "400")
    }

    @Test("Several items at once, in opposite orders from two processes, never deadlock")
    func severalItems() throws {
        let (space, docs) = try freshSpace()
        let coordinator = FileCoordinator(space: CoordinationSpace(directory: space), timeout: 30)
        let holder = try ProbeProcess.probe(["coord-hold", space, docs + "/b.txt", "write", "0.3"])
        defer { holder.stop() }
        #expect(holder.waitForLine(startingWith: "holding") != nil)
        let paths = try coordinator.coordinate(with: [.writing(docs + "/a.txt"), .reading(docs + "/b.txt")]) { $0 }
        #expect(paths == [docs + "/a.txt", docs + "/b.txt"])
        #expect(holder.waitForLine(startingWith: "released") != nil, "the read of b waited for the writer")
    }

    @Test("Paths are compared canonically: through a link, relative, with dot components")
    func canonicalPaths() throws {
        let (space, docs) = try freshSpace()
        try FileManager.default.createSymbolicLink(atPath: space + "/link", withDestinationPath: docs)
        let holder = try ProbeProcess.probe(["coord-hold", space, space + "/link/./a.txt", "write", "30"])
        defer { holder.stop() }
        #expect(holder.waitForLine(startingWith: "holding") != nil)
        let coordinator = FileCoordinator(space: CoordinationSpace(directory: space), timeout: 0.3)
        #expect(failure { try coordinator.coordinate(readingItemAt: docs + "/a.txt") { _ in } } != nil)
    }

    @Test("Atomic writes replace the whole file and leave no temporary file")
    func atomicWrites() throws {
        let (_, docs) = try freshSpace()
        try AtomicWriter.writeContents(Array("first".utf8), to: docs + "/a.txt")
        try AtomicWriter.writeContents(Array("second, longer".utf8), to: docs + "/a.txt", permissions: 0o600)
        #expect(try AtomicWriter.readContents(docs + "/a.txt") == Array("second, longer".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: docs) == ["a.txt"])
        let mode = try FileManager.default.attributesOfItem(atPath: docs + "/a.txt")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(throws: CoordinationError.self) { try AtomicWriter.writeContents([1], to: docs + "/missing/a.txt") }
    }
}
