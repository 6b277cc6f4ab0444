import AppRegistry
import Foundation
import KeyedArchives
import SystemCalls
import Testing
import UniformTypes
@testable import Pasteboards

/// UIPasteboard's semantics on one device root, through the library.
@Suite struct PasteboardSemanticsTests {
    let app = PasteboardClient(bundleIdentifier: "com.example.editor", teamIdentifier: "TEAMA", appGroups: ["group.com.example.shared"])

    @Test func changeCountGrowsByOnePerWriteAndSurvivesANewStore() throws {
        let root = try Fixture.root()
        let general = Fixture.store(root).general()
        #expect(try general.changeCount() == 0)
        #expect(try general.setString("one") == 1)
        #expect(try general.setItems([PasteboardItem(text: "two")]) == 2)
        #expect(try general.addItems([PasteboardItem(text: "three")]) == 3)
        #expect(try general.clearContents() == 4)
        // A new store (a restarted process) reads the count from the disk and counts on.
        let again = Fixture.store(root).general()
        #expect(try again.changeCount() == 4)
        #expect(try again.items().isEmpty)
        #expect(try again.setString("five") == 5)
        #expect(try again.string() == "five")
    }

    @Test func itemsKeepTheirRepresentationsInOrder() throws {
        let general = Fixture.store(try Fixture.root()).general()
        let first = PasteboardItem(["public.html": Array("<b>hi</b>".utf8), "public.utf8-plain-text": Array("hi".utf8)])
        let second = PasteboardItem(["public.png": [0x89, 0x50, 0x4E, 0x47], "com.example.datapackage": [1, 2, 3]])
        try general.setItems([first, second])
        let contents = try general.contents()
        #expect(contents.numberOfItems == 2)
        #expect(contents.items == [first, second])
        #expect(contents.types == ["public.html", "public.utf8-plain-text", "public.png", "com.example.datapackage"])
        #expect(contents.types(inItem: 1) == ["public.png", "com.example.datapackage"])
        #expect(contents.data(forPasteboardType: "com.example.datapackage") == [1, 2, 3])
        #expect(contents.data(forPasteboardType: "public.utf8-plain-text", inItem: 1) == nil)
    }

    @Test func askingForASupertypeFindsAConformingRepresentation() throws {
        let general = Fixture.store(try Fixture.root()).general()
        try general.setItems([PasteboardItem(["public.png": [7]]),
                              PasteboardItem(["com.example.datapackage": [9], "public.utf8-plain-text": Array("text".utf8)])])
        let contents = try general.contents()
        #expect(contents.data(forPasteboardType: "public.text") == Array("text".utf8))
        #expect(contents.firstMatch(for: "public.text")! == (item: 1, representation: 1))
        #expect(contents.data(forPasteboardType: "public.image") == [7])
        // The exact type wins over an earlier conforming one.
        #expect(contents.data(forPasteboardType: "public.data") == [7])
        #expect(contents.data(forPasteboardType: "public.html") == nil)
        #expect(contents.contains(pasteboardTypes: ["public.plain-text"]))
        #expect(!contents.contains(pasteboardTypes: ["public.plain-text"], inItem: 0))
        // Type identifiers are case-insensitive.
        #expect(contents.data(forPasteboardType: "PUBLIC.PNG") == [7])
        #expect(contents.string == "text")
    }

    @Test func expirationDateEmptiesThePasteboardThenAndKeepsTheCount() throws {
        let root = try Fixture.root()
        let clock = ManualClock(1_000)
        let general = Fixture.store(root, now: { clock.now }).general()
        try general.setItems([PasteboardItem(text: "secret")], options: PasteboardWriteOptions(localOnly: true, expirationDate: 1_010))
        var contents = try general.contents()
        #expect(contents.string == "secret" && contents.options.localOnly && contents.options.expirationDate == 1_010 && !contents.isExpired)
        clock.now = 1_010
        contents = try general.contents()
        #expect(contents.isExpired && contents.numberOfItems == 0 && contents.changeCount == 1)
        // addItems after expiry starts from nothing.
        #expect(try general.addItems([PasteboardItem(text: "new")]) == 2)
        #expect(try general.items() == [PasteboardItem(text: "new")])
    }

    @Test func namedPasteboardsAreCreatedFoundAndRemoved() throws {
        let store = Fixture.store(try Fixture.root())
        let name = PasteboardName("com.example.editor.transfer")
        #expect(try store.pasteboard(named: name, create: false, for: app) == nil)
        let board = try #require(try store.pasteboard(named: name, create: true, lifetime: .persistent, for: app))
        #expect(try board.changeCount() == 0)
        #expect(try board.setString("x") == 1)
        #expect(try store.pasteboard(named: name, create: false, for: app) != nil)
        #expect(try store.names(visibleTo: app) == [name])
        try store.remove(named: name, for: app)
        #expect(try store.pasteboard(named: name, create: false, for: app) == nil)
        #expect(try store.names(visibleTo: app).isEmpty)
        // Made again under the same name, it counts on from the removal (2).
        let again = try #require(try store.pasteboard(named: name, create: true, for: app))
        #expect(try again.changeCount() == 2)
        #expect(try again.items().isEmpty)
        #expect(try again.setString("y") == 3)
        #expect(throws: PasteboardError.systemPasteboard(.general)) { try store.remove(named: .general) }
        // Removing what does not exist does nothing.
        try store.remove(named: "never.made", for: app)
    }

    @Test func namedPasteboardsAreSeenByTheTeamAndTheAppGroupOnly() throws {
        let store = Fixture.store(try Fixture.root())
        let teamMate = PasteboardClient(bundleIdentifier: "com.example.viewer", teamIdentifier: "TEAMA")
        let groupMember = PasteboardClient(bundleIdentifier: "org.other.reader", teamIdentifier: "TEAMB", appGroups: ["group.com.example.shared"])
        let stranger = PasteboardClient(bundleIdentifier: "org.other.app", teamIdentifier: "TEAMC")
        let teamOnly = PasteboardName("com.example.team")
        let shared = PasteboardName("com.example.shared")
        try #require(try store.pasteboard(named: teamOnly, create: true, lifetime: .persistent, for: app)).setString("team")
        try #require(try store.pasteboard(named: shared, create: true, lifetime: .persistent, sharedWith: "group.com.example.shared", for: app)).setString("group")
        #expect(try store.pasteboard(named: teamOnly, create: false, for: teamMate)?.string() == "team")
        #expect(try store.pasteboard(named: teamOnly, create: false, for: groupMember) == nil)
        #expect(try store.pasteboard(named: shared, create: false, for: groupMember)?.string() == "group")
        #expect(try store.pasteboard(named: teamOnly, create: false, for: stranger) == nil)
        #expect(try store.pasteboard(named: shared, create: false, for: stranger) == nil)
        #expect(throws: PasteboardError.nameTaken(teamOnly)) { try store.pasteboard(named: teamOnly, create: true, for: stranger) }
        #expect(throws: PasteboardError.notFound(teamOnly)) { try store.remove(named: teamOnly, for: stranger) }
        #expect(try store.names(visibleTo: stranger).isEmpty)
        #expect(try store.names(visibleTo: groupMember) == [shared])
        #expect(try Set(store.names(visibleTo: .user)) == [teamOnly, shared])
        // A handle kept by a stranger cannot read or write it either.
        let sneaky = Pasteboard(name: teamOnly, store: store, client: stranger)
        #expect(throws: PasteboardError.notFound(teamOnly)) { try sneaky.string() }
        #expect(throws: PasteboardError.notFound(teamOnly)) { try sneaky.setString("mine") }
        // The system pasteboards are everyone's.
        try store.general(for: app).setString("copied")
        #expect(try store.general(for: stranger).string() == "copied")
    }

    /// iOS 10+: a pasteboard that lives as long as its creator's processes is gone when the last
    /// one ends (a real child process plays the app).
    @Test func creatorLifetimePasteboardsGoWithTheirProcesses() throws {
        let store = Fixture.store(try Fixture.root())
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["30"]
        try child.run()
        let identity = ProcessIdentity(id: child.processIdentifier, start: ProcessIdentity.startTime(of: child.processIdentifier)!)
        let running = PasteboardClient(bundleIdentifier: "com.example.editor", teamIdentifier: "TEAMA", process: identity)
        let unique = try store.pasteboardWithUniqueName(for: running)
        try unique.setString("while it runs")
        let persistent = try #require(try store.pasteboard(named: "com.example.keep", create: true, lifetime: .persistent, for: running))
        try persistent.setString("kept")
        #expect(try store.pasteboard(named: unique.name, create: false, for: app)?.string() == "while it runs")
        #expect(try store.pasteboard(named: unique.name, create: false, for: app)?.contents().lifetime == .creatorProcesses)
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        #expect(try store.pasteboard(named: unique.name, create: false, for: app) == nil)
        #expect(try store.names(visibleTo: app) == ["com.example.keep"])
        #expect(try store.removeAbandoned() == [unique.name])
        #expect(try store.removeAbandoned().isEmpty)
        #expect(try store.pasteboard(named: "com.example.keep", create: false, for: app)?.string() == "kept")
    }

    @Test func limitsGiveClearErrors() throws {
        let store = Fixture.store(try Fixture.root(), limits: PasteboardLimits(maximumBytes: 100, maximumItems: 2, maximumRepresentations: 2, maximumTypeLength: 20))
        let general = store.general()
        #expect(throws: PasteboardError.tooLarge(.general, bytes: 101, limit: 100)) { try general.setData(Array(repeating: 0, count: 101), forPasteboardType: "public.data") }
        #expect(throws: PasteboardError.tooMany(.general, what: "items", count: 3, limit: 2)) {
            try general.setItems(Array(repeating: PasteboardItem(text: "x"), count: 3))
        }
        #expect(throws: PasteboardError.tooMany(.general, what: "representations in item 0", count: 3, limit: 2)) {
            try general.setItems([PasteboardItem(["a.b": [], "c.d": [], "e.f": []])])
        }
        #expect(throws: PasteboardError.duplicateType("PUBLIC.TEXT", item: 0)) { try general.setItems([PasteboardItem(["public.text": [], "PUBLIC.TEXT": []])]) }
        #expect(throws: PasteboardError.invalidType("", reason: "a type cannot be empty")) { try general.setData([], forPasteboardType: "") }
        #expect(throws: PasteboardError.self) { try general.setData([], forPasteboardType: String(repeating: "x", count: 21)) }
        #expect(throws: PasteboardError.invalidName("", reason: "a pasteboard name cannot be empty")) { try store.pasteboard(named: "", create: true) }
        #expect(throws: PasteboardError.self) { try store.pasteboard(named: PasteboardName(String(repeating: "n", count: 256)), create: true) }
        #expect(throws: PasteboardError.self) { try store.pasteboard(named: "a\u{1}b", create: true) }
        // Nothing was written by the refused calls.
        #expect(try general.changeCount() == 0)
        let missing = PasteboardStore(root: DeviceRoot(path: "/nonexistent/device-root"))
        #expect(throws: PasteboardError.rootMissing("/nonexistent/device-root")) { try missing.general().setString("x") }
        #expect(try missing.general().changeCount() == 0)
    }

    @Test func longAndOddNamesAreStoredAndListed() throws {
        let store = Fixture.store(try Fixture.root())
        let long = PasteboardName(String(repeating: "é", count: 120))
        let odd = PasteboardName("../with/slashes and spaces %41")
        for name in [long, odd] { try #require(try store.pasteboard(named: name, create: true)).setString(name.rawValue) }
        #expect(try store.pasteboard(named: long, create: false)?.string() == long.rawValue)
        #expect(try store.pasteboard(named: odd, create: false)?.string() == odd.rawValue)
        #expect(try Set(store.names()) == [long, odd])
        #expect(FileSystem.entries(of: store.folder).allSatisfy { !$0.contains("/") && $0.utf8.count <= 202 })
    }

    @Test func damagedFilesAreReportedWithPathAndOffset() throws {
        let root = try Fixture.root()
        let store = Fixture.store(root)
        try store.general().setString("fine")
        let path = store.folder + "/general/content"
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        let cases: [(Data, String)] = [
            (Data(), "the file is empty"),
            (Data("DIPBRD01".utf8), "shorter than the 16-byte header"),
            (Data("NOTABOARD0000000".utf8), "no DIPBRD01 signature"),
            (good.prefix(8) + Data([0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0, 0]) + good.dropFirst(16), "runs past the end"),
            (good.prefix(good.count - 2), "outside the"),
            (good.prefix(16) + Data(repeating: 0x41, count: good.count - 16), "metadata"),
        ]
        for (bytes, expected) in cases {
            try bytes.write(to: URL(fileURLWithPath: path))
            do {
                _ = try store.general().contents()
                Issue.record("no error for \(expected)")
            } catch {
                #expect(error.description.contains(path) && error.description.contains(expected), "\(error)")
            }
        }
        // A writer replaces a damaged generation; the count goes on from the one the lock file kept.
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try store.general().setString("x") == 2)
        #expect(try store.general().string() == "x")
        // Also when the content file is gone altogether.
        try FileManager.default.removeItem(atPath: path)
        #expect(try store.general().changeCount() == 0)
        #expect(try store.general().setString("y") == 3)
    }

    /// The seed's channel, pasteboard half: the source archives its package onto a named
    /// pasteboard under its own type; the target finds it by name and unarchives it.
    @Test func dataPackageTravelsOnANamedPasteboard() throws {
        let store = Fixture.store(try Fixture.root())
        let package = AppDataPackage(sourceApplicationName: "Person Editor", sourceApplicationIdentifier: "com.example.editor",
                                     sourceApplicationVersion: "1.0", sourceApplicationBuild: "42", payload: Array(0...255))
        let source = try #require(try store.pasteboard(named: "com.example.editor.transfer", create: true, for: app))
        try source.setDataPackage(package, type: "com.example.datapackage")
        let target = PasteboardClient(bundleIdentifier: "com.example.viewer", teamIdentifier: "TEAMA")
        let found = try #require(try store.pasteboard(named: "com.example.editor.transfer", create: false, for: target))
        #expect(try found.dataPackage(type: "com.example.datapackage") == package)
        #expect(try found.dataPackage(type: "public.data") == package)
        #expect(try found.dataPackage(type: "public.text") == nil)
        #expect(try found.types() == ["com.example.datapackage"])
    }

    /// A snapshot keeps its generation while writers replace it (the file is mapped, never changed).
    @Test func aSnapshotIsNotChangedByLaterWrites() throws {
        let general = Fixture.store(try Fixture.root()).general()
        try general.setItems([PasteboardItem(["public.utf8-plain-text": Array(repeating: 0x61, count: 1 << 20)])])
        let before = try general.contents()
        for n in 0..<5 { try general.setString("write \(n)") }
        #expect(before.changeCount == 1)
        #expect(before.data(forPasteboardType: "public.text") == Array(repeating: 0x61, count: 1 << 20))
        #expect(try general.string() == "write 4")
    }

    @Test func textEncodingsFollowTheLocale() {
        typealias E = PasteboardText.Encoding
        #expect(E.named("en_US.UTF-8") == .utf8 && E.named("de_DE.ISO-8859-1") == .latin1 && E.named("fr_FR.iso88591@euro") == .latin1)
        #expect(E.named("C") == .ascii && E.named("POSIX") == .ascii && E.named("en_US") == .utf8)
        #expect(E.latin1.toUTF8([0x68, 0xE9]) == Array("hé".utf8))
        #expect(Array("hé€".utf8).withUnsafeBytes { E.latin1.fromUTF8($0) } == [0x68, 0xE9, 0x3F])
        #expect(Array("plain".utf8).withUnsafeBytes { E.latin1.fromUTF8($0) } == nil)
        #expect(PasteboardText.copyType(of: Array("{\\rtf1 x}".utf8)) == "public.rtf")
        #expect(PasteboardText.copyType(of: Array("%!PS-Adobe-3.0 EPSF-3.0\n".utf8)) == "com.adobe.encapsulated-postscript")
        #expect(PasteboardText.copyType(of: Array("%!PS-Adobe-3.0\n".utf8)) == "public.utf8-plain-text")
    }

    @Test func mimeNegotiationGoesThroughTheTypeEngine() {
        let types = PasteboardTypeMatcher(registry: Fixture.registry)
        #expect(types.mimeTypes(for: "public.utf8-plain-text").prefix(2) == ["text/plain;charset=utf-8", "UTF8_STRING"])
        #expect(types.mimeTypes(for: "public.png") == ["image/png"])
        #expect(types.mimeTypes(for: "com.example.datapackage") == ["application/x-com.example.datapackage"])
        #expect(types.mimeTypes(for: "org.undeclared.thing") == ["org.undeclared.thing"])
        #expect(types.type(forMIME: "UTF8_STRING") == "public.utf8-plain-text")
        #expect(types.type(forMIME: "text/plain") == "public.utf8-plain-text")
        #expect(types.type(forMIME: "image/png") == "public.png")
        #expect(types.type(forMIME: "application/x-com.example.datapackage") == "com.example.datapackage")
        #expect(types.type(forMIME: "org.undeclared.thing") == "org.undeclared.thing")
        #expect(types.type(forMIME: "TARGETS") == nil)
        #expect(types.type(forMIME: "application/x-unknown")?.hasPrefix("dyn.") == true)
    }
}

/// A clock a test sets.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Double
    init(_ value: Double) { self.value = value }
    var now: Double {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

/// Writers and readers on separate stores (separate descriptors, as separate processes have)
/// with items of several representations: every snapshot's representations belong to one write.
@Suite struct PasteboardConcurrencyTests {
    @Test func multiRepresentationItemsAreNeverTorn() throws {
        let root = try Fixture.root()
        let writes = 150
        let lock = NSLock()
        nonisolated(unsafe) var found: [String] = []
        nonisolated(unsafe) var writersDone = 0
        nonisolated(unsafe) var checked = 0
        let readersStarted = DispatchSemaphore(value: 0)
        let readers = DispatchGroup(), writers = DispatchGroup()
        // Threads of their own: spinning readers on Dispatch's global queue could keep the
        // writers from ever being scheduled on two cores.
        for _ in 0..<3 {
            readers.enter()
            Thread.detachNewThread {
                defer { readers.leave() }
                let board = Fixture.store(root).general()
                var last = 0
                readersStarted.signal()
                // Until every writer is done and the last write has been seen (or 60 s pass).
                let deadline = Date().addingTimeInterval(60)
                while (lock.withLock({ writersDone }) < 3 || last < 3 * writes) && Date() < deadline {
                    guard let contents = try? board.contents() else { continue }
                    if contents.changeCount < last { lock.withLock { found.append("count went back") } }
                    last = contents.changeCount
                    guard contents.numberOfItems > 0 else { continue }
                    let tag = contents.data(forPasteboardType: "com.example.tag", inItem: 0) ?? []
                    let text = contents.data(forPasteboardType: "public.utf8-plain-text") ?? []
                    let html = contents.data(forPasteboardType: "public.html") ?? []
                    let second = contents.data(forPasteboardType: "com.example.tag", inItem: 1) ?? []
                    if !(text.starts(with: tag) && html == Array("<p>".utf8) + tag && second == tag && contents.numberOfItems == 2) {
                        lock.withLock { found.append("torn item set at change \(contents.changeCount)") }
                    }
                    lock.withLock { checked += 1 }
                }
            }
        }
        for _ in 0..<3 { readersStarted.wait() }
        for writer in 0..<3 {
            writers.enter()
            Thread.detachNewThread {
                defer { lock.withLock { writersDone += 1 }; writers.leave() }
                let board = Fixture.store(root).general()
                for n in 0..<writes {
                    let tag = Array("\(writer)-\(n)".utf8)
                    let item = PasteboardItem(["public.utf8-plain-text": tag + Array(repeating: 0x61, count: (n % 50) * 997),
                                               "public.html": Array("<p>".utf8) + tag, "com.example.tag": tag])
                    do { try board.setItems([item, PasteboardItem(["com.example.tag": tag])]) } catch {
                        lock.withLock { found.append("write: \(error)") }
                    }
                }
            }
        }
        writers.wait()
        readers.wait()
        #expect(found.isEmpty, "\(found.prefix(5))")
        #expect(checked > 50, "readers saw only \(checked) item sets")
        #expect(try Fixture.store(root).general().changeCount() == 3 * writes)
    }
}
