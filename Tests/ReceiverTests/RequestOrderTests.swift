import AppRegistry
import Foundation
import Handlers
import OpenRequests
import PropertyLists
import TestHelpers
import Testing
@testable import Receiver

/// A document is never judged before its open request: the sender writes the request first (and
/// durably), the receiver lists the Inbox before reading requests and matches them by the
/// document's identity. The first-hour race: `inboxd run --allow-sender com.example.` with many
/// concurrent `openin` deliveries quarantined 19 of 20 good documents.
@Suite(.serialized) struct RequestOrderTests {
    static let deliveries = 100

    /// `count` concurrent deliveries of notes.txt to Notes from the Person Editor, each with the
    /// annotation `{n = K;}`; returns when all have exited.
    static func deliverConcurrently(_ count: Int, root: URL) throws {
        let document = root.appendingPathComponent("Documents/notes.txt").path
        var processes: [Process] = []
        for k in 0..<count {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: TestSupport.openin)
            p.arguments = ["--root", root.path, "--to", "com.example.notes", "--from", "com.example.person-editor",
                           "--annotation", "{n = \(k);}", "--no-launch", document]
            p.standardOutput = FileHandle.nullDevice
            try p.run()
            processes.append(p)
        }
        for p in processes { p.waitUntilExit(); #expect(p.terminationStatus == 0) }
    }

    /// Every delivery stored with its sender and its own annotation, none quarantined, no request
    /// file and no document left behind.
    static func checkEverythingStored(root: URL) throws {
        let container = root.appendingPathComponent("Containers/com.example.notes")
        let rows = try Manifest(path: container.appendingPathComponent("Library/Manifest.sqlite").path, access: .readOnly).entries()
        #expect(rows.filter { $0.status == .quarantined }.isEmpty, "\(rows.filter { $0.status == .quarantined }.map { $0.reason ?? "" })")
        let stored = rows.filter { $0.status == .stored }
        #expect(stored.count == deliveries)
        #expect(stored.allSatisfy { $0.sender == "com.example.person-editor" })
        // OpenStep text (the --annotation form) has strings only.
        let numbers = Set(stored.compactMap { $0.annotation?["n"]?.stringValue })
        #expect(numbers == Set((0..<deliveries).map(String.init)), "\(numbers.count) distinct annotations")
        #expect(try FileManager.default.contentsOfDirectory(atPath: container.appendingPathComponent("Library/OpenRequests").path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: container.appendingPathComponent("Documents/Inbox").path).isEmpty)
    }

    @Test func concurrentDeliveriesWithTheReceiverRunning() throws {
        let root = try TestSupport.sampleDevice()
        let job = Process()
        job.executableURL = URL(fileURLWithPath: TestSupport.inboxd)
        job.arguments = ["run", "--root", root.path, "--allow-sender", "com.example.", "--log-level", "warning"]
        job.standardError = FileHandle.nullDevice
        try job.run()
        defer { if job.isRunning { job.terminate(); job.waitUntilExit() } }
        try Self.deliverConcurrently(Self.deliveries, root: root)
        let manifest = root.appendingPathComponent("Containers/com.example.notes/Library/Manifest.sqlite").path
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: manifest),
               let rows = try? Manifest(path: manifest, access: .readOnly).entries(), rows.count >= Self.deliveries,
               !rows.contains(where: \.status.isUnfinished) { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        job.terminate()
        job.waitUntilExit()
        try Self.checkEverythingStored(root: root)
    }

    @Test func concurrentDeliveriesWithTheReceiverStartedAfterwards() throws {
        let root = try TestSupport.sampleDevice()
        try Self.deliverConcurrently(Self.deliveries, root: root)
        let run = try TestSupport.run(TestSupport.inboxd, ["once", "--root", root.path, "--app", "com.example.notes", "--allow-sender", "com.example."])
        #expect(run.status == 0, "\(run.stderr)")
        try Self.checkEverythingStored(root: root)
    }

    /// The sender killed after its document reached the Inbox but before the request named the
    /// final path: the request, written first, still names the document's identity.
    @Test func aSenderKilledBetweenRenameAndRequestUpdate() throws {
        let root = try TestSupport.sampleDevice()
        // A document of that name is there already: the new one gets notes-1.txt.
        let inbox = root.appendingPathComponent("Containers/com.example.notes/Documents/Inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try TestSupport.writeFile(Data("first".utf8), to: inbox.appendingPathComponent("notes.txt"))
        let crashed = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--to", "com.example.notes", "--from", "com.example.person-editor",
                                                              "--annotation", "{n = 7;}", "--no-launch", root.appendingPathComponent("Documents/notes.txt").path],
                                          environment: ["DI_FAULTS": "crash=placed"])
        #expect(crashed.status != 0)
        let requests = root.appendingPathComponent("Containers/com.example.notes/Library/OpenRequests")
        let files = try FileManager.default.contentsOfDirectory(atPath: requests.path)
        #expect(files.count == 1)
        let request = try OpenRequest.read(requests.appendingPathComponent(files[0]).path)
        #expect(request.state == .arriving && request.documentPath.hasSuffix("/Inbox/notes.txt") && request.identity != nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: inbox.path).sorted() == ["notes-1.txt", "notes.txt"])
        let run = try TestSupport.run(TestSupport.inboxd, ["once", "--root", root.path, "--app", "com.example.notes", "--allow-sender", "com.example."])
        #expect(run.out.contains("notes-1.txt -> Documents/notes"), "\(run.out)")
        #expect(run.out.contains("notes.txt quarantined") && run.out.contains("no open request names its sender"), "\(run.out)")
        let rows = try Manifest(path: root.appendingPathComponent("Containers/com.example.notes/Library/Manifest.sqlite").path, access: .readOnly).entries()
        let stored = try #require(rows.first { $0.status == .stored })
        #expect(stored.sender == "com.example.person-editor" && stored.annotation?["n"] == .string("7"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: requests.path).isEmpty)
    }

    /// Killed after the request was written, before the document arrived: nothing is in the
    /// Inbox, and the receiver judges nothing it has no document for.
    @Test func aSenderKilledBeforeTheDocumentArrived() throws {
        let root = try TestSupport.sampleDevice()
        let crashed = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--to", "com.example.notes", "--no-launch",
                                                              root.appendingPathComponent("Documents/notes.txt").path],
                                          environment: ["DI_FAULTS": "crash=request-written"])
        #expect(crashed.status != 0)
        let inbox = root.appendingPathComponent("Containers/com.example.notes/Documents/Inbox")
        #expect(try FileManager.default.contentsOfDirectory(atPath: inbox.path).isEmpty)
        let run = try TestSupport.run(TestSupport.inboxd, ["once", "--root", root.path, "--app", "com.example.notes"])
        #expect(run.status == 0 && run.out.isEmpty, "\(run.out)")
    }

    /// A file delivered through a share extension is judged by the extension that took it, not by
    /// the app's document types: Mail opens no images, its share extension takes them.
    @Test func shareExtensionDeliveriesAreJudgedByTheExtension() throws {
        let root = try TestSupport.sampleDevice()
        let photo = root.appendingPathComponent("Documents/photo.png").path
        let share = try TestSupport.run(TestSupport.openin, ["--root", root.path, "--activity", "com.example.mail.share", "--from", "com.example.photos",
                                                            "--no-launch", photo])
        #expect(share.status == 0, "\(share.stderr)")
        // The same image dropped into Mail's Inbox with no request: judged by Mail's own types.
        let inbox = root.appendingPathComponent("Containers/com.example.mail/Documents/Inbox")
        try FileManager.default.copyItem(atPath: photo, toPath: inbox.appendingPathComponent("dropped.png").path)
        let run = try TestSupport.run(TestSupport.inboxd, ["once", "--root", root.path, "--app", "com.example.mail"])
        #expect(run.out.contains("photo.png -> Documents/photo.png"), "\(run.out)")
        #expect(run.out.contains("dropped.png quarantined as Library/Quarantine/dropped.png: its type public.png is not one Mail opens"), "\(run.out)")
        let rows = try Manifest(path: root.appendingPathComponent("Containers/com.example.mail/Library/Manifest.sqlite").path, access: .readOnly).entries()
        #expect(rows.first { $0.status == .stored }?.type == "public.png")
    }
}
