import AppInterchange
import AppRegistry
import Foundation
import PropertyLists
import TestHelpers
import Testing
import URLSchemes

/// The app's side in process: the requests that reach a running app as an AsyncSequence (URLs
/// from `openurl` processes, documents from `openin` processes), claims that never hand one
/// request to two instances, and sending (canOpen, open, send a document, handlers).
@Suite(.serialized) struct AppInterchangeTests {
    static func device() throws -> SchemeDevice {
        try SchemeDevice([
            .init(identifier: "com.example.listener", urlTypes: [(["listen"], "Editor")], queries: ["talk", "nobody"], documentTypes: ["public.plain-text"]),
            .init(identifier: "com.example.talker", urlTypes: [(["talk"], "Editor")], queries: ["listen"]),
            .init(identifier: "com.example.notes", documentTypes: ["public.plain-text"]),
        ])
    }

    @Test func aRunningAppReceivesURLsAndDocumentsAsTheyCome() async throws {
        let device = try Self.device()
        let app = try InterchangeApp(bundleIdentifier: "com.example.listener", root: device.root)
        let text = device.folder.appendingPathComponent("note.txt")
        try Data("hello\n".utf8).write(to: text)
        let root = device.root.path
        // Senders are other processes, started once the stream is being read.
        let senders = Task.detached {
            try await Task.sleep(for: .milliseconds(50))
            for i in 0..<3 {
                _ = try TestSupport.run(TestSupport.openurl, ["--root", root, "--from", "com.example.talker", "--annotation", "{n = \(i);}",
                                                              "listen://x-callback-url/ping?i=\(i)"])
            }
            _ = try TestSupport.run(TestSupport.openin, ["--root", root, "--to", "com.example.listener", "--from", "com.example.talker",
                                                         "--annotation", "{why = test;}", text.path])
        }
        var urls: [IncomingURL] = [], documents: [IncomingDocument] = []
        for try await request in app.requests() {
            switch request {
            case .url(let incoming): urls.append(incoming)
            case .document(let document): documents.append(document)
            case .activity(let activity): Issue.record("nobody continued an activity, yet \(activity.offer.activityType) arrived")
            }
            if urls.count == 3 && documents.count == 1 { break }
        }
        try await senders.value
        #expect(urls.map { $0.url.queryValue("i") } == ["0", "1", "2"])
        #expect(urls.allSatisfy { $0.sourceApplication == "com.example.talker" && $0.callback?.action == "ping" })
        #expect(urls.map { $0.annotation?["n"]?.stringValue } == ["0", "1", "2"])
        #expect(documents[0].path == app.container.documents + "/note.txt")
        #expect(documents[0].sourceApplication == "com.example.talker" && documents[0].annotation?["why"]?.stringValue == "test")
        #expect(try String(contentsOfFile: documents[0].path, encoding: .utf8) == "hello\n")
        #expect(try app.pendingURLs().isEmpty)
    }

    /// As on iOS, a URL for an app that is running and listening reaches that instance and
    /// starts nothing; once it stops listening, opening starts the app again. `openurl` runs as
    /// a process; the launch command (a real `touch`) would leave its mark if it ran.
    @Test func aURLForARunningAppReachesItWithoutALaunch() async throws {
        let launched = try TestSupport.temporaryDirectory().appendingPathComponent("launched").path
        let device = try SchemeDevice([.init(identifier: "com.example.listener", urlTypes: [(["listen"], "Editor")], launch: ["/usr/bin/touch", launched])])
        let root = device.root.path
        let app = try InterchangeApp(bundleIdentifier: "com.example.listener", root: device.root)
        #expect(!RequestListener.isListening(in: app.container))
        let received = Task {
            for try await request in app.requests() {
                if case .url(let incoming) = request { return incoming.url.text }
            }
            return ""
        }
        // The mark is taken on the iterator's first look.
        let deadline = Date().addingTimeInterval(60)
        while !RequestListener.isListening(in: app.container) && Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(RequestListener.isListening(in: app.container))
        let warm = try TestSupport.run(TestSupport.openurl, ["--root", root, "listen://x/warm"])
        #expect(warm.status == 0 && warm.out.contains("already running") && !warm.out.contains("started:"), "\(warm.out)\(warm.stderr)")
        #expect(try await received.value == "listen://x/warm")
        #expect(!FileManager.default.fileExists(atPath: launched))
        // The iterator is gone with its task: the mark is released (when the iterator is torn
        // down, which a loaded machine may do a moment later), and the app is started again.
        while RequestListener.isListening(in: app.container) && Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(!RequestListener.isListening(in: app.container))
        let cold = try TestSupport.run(TestSupport.openurl, ["--root", root, "listen://x/cold"])
        #expect(cold.status == 0 && cold.out.contains("started: /usr/bin/touch"), "\(cold.out)\(cold.stderr)")
        while !FileManager.default.fileExists(atPath: launched) && Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(FileManager.default.fileExists(atPath: launched))
        #expect(try app.pendingURLs().map(\.url.text) == ["listen://x/cold"])
    }

    /// Two instances of one app taking requests at once: each request is taken exactly once.
    @Test func twoInstancesNeverTakeTheSameRequest() async throws {
        let device = try Self.device()
        let sender = try InterchangeApp(bundleIdentifier: "com.example.talker", root: device.root)
        for i in 0..<200 { try sender.open("listen://x/\(i)") }
        let root = device.root
        func take() async throws -> [String] {
            let app = try InterchangeApp(bundleIdentifier: "com.example.listener", root: root)
            var taken: [String] = []
            for _ in 0..<50 { taken += try app.pendingURLs().map(\.url.path); await Task.yield() }
            return taken
        }
        async let first = take()
        async let second = take()
        let (a, b) = try await (first, second)
        #expect(Set(a).isDisjoint(with: Set(b)))
        #expect(Set(a + b) == Set((0..<200).map { "/\($0)" }) && a.count + b.count == 200)
    }

    @Test func sendingAsksOpensAndHandsOver() throws {
        let device = try Self.device()
        let talker = try InterchangeApp(bundleIdentifier: "com.example.talker", root: device.root)
        let listener = try InterchangeApp(bundleIdentifier: "com.example.listener", root: device.root)
        #expect(talker.canOpen("LISTEN://anything"))
        #expect(!talker.canOpen("talk://"))                              // not in its queried schemes
        #expect(!listener.canOpen("nobody://") && listener.canOpen("talk:"))
        #expect(try listener.canOpenAnswer("nobody:") == .noHandler(scheme: "nobody"))
        #expect(try talker.canOpenQuestion().canOpen("listen:x"))
        // An x-callback-url answered through the caller's scheme.
        let request = try XCallbackRequest(scheme: "listen", action: "ask", source: talker.bundleIdentifier,
                                           success: try SchemeURL("talk://x-callback-url/done"))
        try talker.open(request.url)
        let received = try #require(try listener.pendingURLs().first)
        #expect(received.sourceApplication == "com.example.talker")
        let answered = try listener.reply(to: try #require(received.callback), with: .success([QueryItem(name: "data", value: Base64URL.encode(Array("ok".utf8)))]))
        #expect(answered?.normalizedScheme == "talk")
        let reply = try #require(try talker.pendingURLs().first)
        #expect(try Base64URL.decode(reply.url.queryValue("data") ?? "") == Array("ok".utf8))
        #expect(reply.sourceApplication == "com.example.listener")
        // Documents: who can take one, in order; handing it over.
        let text = device.folder.appendingPathComponent("a.txt")
        try Data("text\n".utf8).write(to: text)
        #expect(try talker.handlers(forDocument: text.path).map(\.bundleIdentifier) == ["com.example.listener", "com.example.notes"])
        let delivered = try talker.send(document: text.path, to: "com.example.notes", annotation: .string("note"))
        #expect(delivered.documentPath == device.root.path + "/Containers/com.example.notes/Documents/Inbox/a.txt")
        #expect(throws: InterchangeError.self) { try talker.send(document: text.path, to: "com.example.talker") }
        #expect(throws: InterchangeError.self) { try talker.open("listen://h/a b") }
        #expect(throws: InterchangeError.self) { try InterchangeApp(bundleIdentifier: "com.example.unregistered", root: device.root) }
    }
}
