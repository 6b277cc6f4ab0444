import FileCoordination
import Foundation
import Synchronization
import SystemCalls
import TestHelpers
import Testing

/// A presenter in the test process that records what it is told.
final class RecordingPresenter: FilePresenter, @unchecked Sendable {
    let path: Mutex<String>
    let events = Mutex<[String]>([])
    var presentedItemPath: String? { path.withLock { $0 } }
    init(_ path: String) { self.path = Mutex(path) }
    func presentedItemDidChange() { events.withLock { $0.append("changed") } }
    func presentedItemDidMove(to newPath: String) { path.withLock { $0 = newPath }; events.withLock { $0.append("moved \(newPath)") } }
    func presentedSubitemDidChange(at path: String) { events.withLock { $0.append("subitem-changed \(path)") } }
    var recorded: [String] { events.withLock { $0 } }
}

@Suite("File presenters in other processes")
struct FilePresenterTests {
    func presenter(_ space: String, _ path: String, unsaved: String? = nil) throws -> ProbeProcess {
        let probe = try ProbeProcess.probe(["presenter", space, path] + (unsaved.map { [$0] } ?? []))
        #expect(probe.waitForLine(startingWith: "ready") != nil)
        return probe
    }

    @Test("A presenter is asked to save and relinquish before a write, and told of the change after")
    func changeAfterWrite() throws {
        let (space, docs) = try freshSpace()
        let probe = try presenter(space, docs + "/a.txt")
        defer { probe.stop() }
        let coordinator = FileCoordinator(space: CoordinationSpace(directory: space), timeout: 30)
        try coordinator.coordinate(writingItemAt: docs + "/a.txt") { path in try? AtomicWriter.writeContents(Array("new".utf8), to: path) }
        #expect(probe.waitForLine(startingWith: "changed") != nil)
        #expect(probe.output == ["ready", "save", "relinquish-writer", "reacquire", "changed"])
    }

    @Test("A reader sees what the presenter saved first; withoutChanges does not ask")
    func saveBeforeRead() throws {
        let (space, docs) = try freshSpace()
        try AtomicWriter.writeContents(Array("on disk".utf8), to: docs + "/a.txt")
        let probe = try presenter(space, docs + "/a.txt", unsaved: "unsaved edits")
        defer { probe.stop() }
        let coordinator = FileCoordinator(space: CoordinationSpace(directory: space), timeout: 30)
        let stale = try coordinator.coordinate(readingItemAt: docs + "/a.txt", options: .withoutChanges) { try? AtomicWriter.readContents($0) }
        #expect(stale == Array("on disk".utf8))
        let read = try coordinator.coordinate(readingItemAt: docs + "/a.txt") { try? AtomicWriter.readContents($0) }
        #expect(read == Array("unsaved edits".utf8))
        #expect(probe.waitForLine(startingWith: "save") != nil)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(probe.output.filter { $0 == "save" }.count == 1, "asked once: not for the read without changes")
    }

    @Test("A move is told to the presenter, which then follows its item to the new path")
    func move() throws {
        let (space, docs) = try freshSpace()
        try AtomicWriter.writeContents(Array("x".utf8), to: docs + "/a.txt")
        let probe = try presenter(space, docs + "/a.txt")
        defer { probe.stop() }
        let coordinator = FileCoordinator(space: CoordinationSpace(directory: space), timeout: 30)
        try coordinator.coordinate(writingItemAt: docs + "/a.txt", options: .forMoving, writingItemAt: docs + "/b.txt", options: .forReplacing) { from, to in
            try? FileSystem.rename(from, to: to)
            coordinator.item(at: from, didMoveTo: to)
        }
        #expect(probe.waitForLine(startingWith: "moved") == "moved \(docs)/b.txt")
        try coordinator.coordinate(writingItemAt: docs + "/b.txt") { _ in }
        #expect(probe.waitForLine(startingWith: "changed") != nil, "the presenter is now known at the new path")
    }

    @Test("A deletion asks the presenter to accommodate it instead of saving")
    func deletion() throws {
        let (space, docs) = try freshSpace()
        try AtomicWriter.writeContents(Array("x".utf8), to: docs + "/a.txt")
        let probe = try presenter(space, docs + "/a.txt")
        defer { probe.stop() }
        try FileCoordinator(space: CoordinationSpace(directory: space), timeout: 30)
            .coordinate(writingItemAt: docs + "/a.txt", options: .forDeleting) { path in try? FileSystem.remove(path) }
        #expect(probe.waitForLine(startingWith: "reacquire") != nil)
        #expect(probe.output == ["ready", "deletion", "relinquish-writer", "reacquire"])
    }

    @Test("A folder's presenter hears of writes inside it")
    func subitems() throws {
        let (space, docs) = try freshSpace()
        let probe = try presenter(space, docs)
        defer { probe.stop() }
        try FileCoordinator(space: CoordinationSpace(directory: space), timeout: 30).coordinate(writingItemAt: docs + "/new.txt") { _ in }
        #expect(probe.waitForLine(startingWith: "subitem-changed") == "subitem-changed \(docs)/new.txt")
    }

    @Test("A presenter is never told of its own coordinator's writes; another presenter is")
    func ownWrites() throws {
        let (space, docs) = try freshSpace()
        let coordinationSpace = CoordinationSpace(directory: space)
        let own = RecordingPresenter(docs + "/a.txt")
        let other = RecordingPresenter(docs + "/a.txt")
        try FileCoordinator.addFilePresenter(own, space: coordinationSpace)
        try FileCoordinator.addFilePresenter(other, space: coordinationSpace)
        defer {
            try? FileCoordinator.removeFilePresenter(own, space: coordinationSpace)
            try? FileCoordinator.removeFilePresenter(other, space: coordinationSpace)
        }
        #expect(FileCoordinator.filePresenters(space: coordinationSpace).count == 2)
        let probe = try presenter(space, docs + "/a.txt")
        defer { probe.stop() }
        try FileCoordinator(filePresenter: own, space: coordinationSpace, timeout: 30).coordinate(writingItemAt: docs + "/a.txt") { _ in }
        #expect(probe.waitForLine(startingWith: "changed") != nil)
        #expect(eventually { other.recorded == ["changed"] })
        Thread.sleep(forTimeInterval: 0.1)
        #expect(own.recorded.isEmpty)
    }

    @Test("A stopped presenter makes the writer fail after its timeout instead of hanging (TN2408)")
    func stoppedPresenter() throws {
        let (space, docs) = try freshSpace()
        let probe = try presenter(space, docs + "/a.txt")
        defer { probe.stop() }
        #expect(probe.stopAndWait())
        let start = Date()
        let error = failure { try FileCoordinator(space: CoordinationSpace(directory: space), timeout: 0.5).coordinate(writingItemAt: docs + "/a.txt") { _ in } }
        guard case .presenterDidNotRespond(_, let process, _, _)? = error else { Issue.record("no error: \(String(describing: error))"); return }
        #expect(process == probe.pid)
        // Well under what a hang would take; generous for a loaded machine.
        #expect(Date().timeIntervalSince(start) < 20)
        // The claim was released: the next writer is not blocked by the failed one.
        probe.stop()
        #expect(failure { try FileCoordinator(space: CoordinationSpace(directory: space), timeout: 30).coordinate(writingItemAt: docs + "/a.txt") { _ in } } == nil)
    }

    @Test("A presenter of a killed process is forgotten")
    func killedPresenter() throws {
        let (space, docs) = try freshSpace()
        let probe = try presenter(space, docs + "/a.txt")
        probe.stop()
        let start = Date()
        // Forgotten at once: long before the 30 s a writer would wait for a live presenter.
        #expect(failure { try FileCoordinator(space: CoordinationSpace(directory: space), timeout: 30).coordinate(writingItemAt: docs + "/a.txt") { _ in } } == nil)
        #expect(Date().timeIntervalSince(start) < 10)
    }
}

