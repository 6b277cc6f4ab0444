import FileCoordination
import Foundation
import KeyedArchives
import Notifications
import Synchronization
import TestHelpers
import Testing
import Wormhole

@Suite("Wormhole")
struct WormholeTests {
    /// A table folder and a container folder.
    func fresh() throws -> (table: String, container: String) {
        let root = try TestSupport.temporaryDirectory().path
        try FileManager.default.createDirectory(atPath: root + "/container", withIntermediateDirectories: true)
        return (root, root + "/container")
    }

    func wormhole(_ folders: (table: String, container: String), transiting: Wormhole.Transiting = .file) throws -> Wormhole {
        try Wormhole(containerPath: folders.container, optionalDirectory: "wormhole", transiting: transiting,
                     notifications: NotifyCenter(directory: folders.table), coordination: CoordinationSpace(directory: folders.table))
    }

    @Test("A message is an NSKeyedArchiver archive under root in IDENTIFIER.archive; the last one wins", arguments: [Wormhole.Transiting.file, .coordinatedFile])
    func passAndRead(transiting: Wormhole.Transiting) throws {
        let folders = try fresh()
        let wormhole = try wormhole(folders, transiting: transiting)
        let message = ArchivedValue.dictionary(["buttonNumber": .integer(1), "title": .string("Päss")])
        try wormhole.passMessage(message, identifier: "button")
        try wormhole.passMessage(.dictionary(["buttonNumber": .integer(2)]), identifier: "button")
        #expect(try wormhole.message(identifier: "button") == .dictionary(["buttonNumber": .integer(2)]))
        let path = folders.container + "/wormhole/button.archive"
        #expect(try wormhole.path(forIdentifier: "button") == path)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.starts(with: Array("bplist00".utf8)))
        let archive = try KeyedArchive(parsing: bytes)
        #expect(archive.top.keys.elementsEqual(["root"]))
        #expect(try KeyedUnarchiver.unarchivedValue(from: bytes, allowing: ["NSDictionary", "NSNumber", "NSString"]) == .dictionary(["buttonNumber": .integer(2)]))
        #expect(try wormhole.message(identifier: "never-sent") == nil)
    }

    @Test("A listener in another process hears each pass and reads the message")
    func listenerInAnotherProcess() throws {
        let folders = try fresh()
        let listener = try ProbeProcess.probe(["wormhole-listen", folders.table, folders.container, "status"])
        defer { listener.stop() }
        #expect(listener.waitForLine(startingWith: "ready") != nil)
        let wormhole = try wormhole(folders)
        try wormhole.passMessage(.string("syncing"), identifier: "status")
        #expect(listener.waitForLine(startingWith: "message syncing") != nil)
        try wormhole.passMessage(nil, identifier: "status")
        #expect(eventually { listener.output.filter { $0 == "message syncing" }.count == 2 }, "a nil message only notifies; the file stays")
    }

    @Test("Clearing one message or all of them; never the whole container")
    func clearing() throws {
        let folders = try fresh()
        let wormhole = try wormhole(folders)
        try wormhole.passMessage(.string("a"), identifier: "a")
        try wormhole.passMessage(.string("b"), identifier: "b")
        try "keep".write(toFile: folders.container + "/wormhole/notes.txt", atomically: true, encoding: .utf8)
        try wormhole.clearMessageContents(identifier: "a")
        #expect(try wormhole.message(identifier: "a") == nil)
        try wormhole.clearMessageContents(identifier: "a") // clearing nothing is fine
        try wormhole.clearAllMessageContents()
        #expect(try wormhole.message(identifier: "b") == nil)
        #expect(FileManager.default.fileExists(atPath: folders.container + "/wormhole/notes.txt"))
    }

    @Test("Identifiers must name a file in the folder", arguments: ["", "a/b", "..", ".", "x\u{0}y", String(repeating: "i", count: 250)])
    func invalidIdentifiers(identifier: String) throws {
        let wormhole = try wormhole(try fresh())
        #expect(throws: WormholeError.self) { try wormhole.passMessage(.string("x"), identifier: identifier) }
    }

    @Test("A damaged message file is an error that names the file")
    func damagedMessage() throws {
        let folders = try fresh()
        let wormhole = try wormhole(folders)
        try Data("not an archive".utf8).write(to: URL(fileURLWithPath: folders.container + "/wormhole/bad.archive"))
        do {
            _ = try wormhole.message(identifier: "bad")
            Issue.record("a damaged file was read")
        } catch {
            #expect(error.description.contains("bad.archive"))
        }
    }

    @Test("Queued messages from four concurrent senders: none lost, each once, each sender's in order")
    func queuedFromFourSenders() throws {
        let folders = try fresh()
        let perSender = 250
        let listener = try ProbeProcess.probe(["wormhole-listen-queue", folders.table, folders.container, "jobs", String(4 * perSender)])
        defer { listener.stop() }
        #expect(listener.waitForLine(startingWith: "ready") != nil)
        let senders = try ["a", "b", "c", "d"].map { try ProbeProcess.probe(["wormhole-send", folders.table, folders.container, "jobs", String(perSender), $0]) }
        for sender in senders { #expect(sender.waitForExit(timeout: 120) == 0) }
        #expect(listener.waitForLine(startingWith: "total", timeout: 60) == "total \(4 * perSender)")
        let got = listener.output.filter { $0.hasPrefix("got ") }.map { $0.split(separator: " ") }
        #expect(got.count == 4 * perSender)
        for sender in ["a", "b", "c", "d"] {
            let indexes = got.filter { $0[1] == Substring(sender) }.compactMap { Int($0[2]) }
            #expect(indexes == Array(0..<perSender), "sender \(sender): every message, once, in order")
        }
        // Nothing is left in the queue.
        let left = try FileManager.default.contentsOfDirectory(atPath: folders.container + "/wormhole/jobs.queue")
        #expect(left.isEmpty)
    }

    @Test("Messages queued while nobody listens are delivered when a listener starts; a second reader gets none twice")
    func queuedBeforeListening() throws {
        let folders = try fresh()
        let wormhole = try wormhole(folders)
        for index in 0..<5 { try wormhole.enqueueMessage(.integer(Int64(index)), identifier: "later") }
        let first = try wormhole.dequeueMessages(identifier: "later")
        #expect(first == (0..<5).map { ArchivedValue.integer(Int64($0)) })
        #expect(try wormhole.dequeueMessages(identifier: "later").isEmpty)
        try wormhole.enqueueMessage(.string("after"), identifier: "later")
        let received = Mutex<[ArchivedValue]>([])
        try wormhole.listenForQueuedMessages(identifier: "later") { message in received.withLock { $0.append(message) } }
        #expect(received.withLock { $0 } == [.string("after")])
        wormhole.stopListeningForQueuedMessages(identifier: "later")
    }
}

