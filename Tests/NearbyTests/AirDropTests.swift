import Foundation
@testable import Nearby
import OpenRequests
import PropertyLists
import TestHelpers
import Synchronization
import Testing

/// AirDrop's receiving side on loopback with archives GNU cpio wrote (odc, gzip'd by gzip): the
/// reader against the real format fed whole and a byte at a time, its refusals (not odc, cut
/// short, bytes after the trailer), gzip's bound, and the receiver keeping only the regular files
/// the Ask offered: `../` and absolute names, a symbolic link, a FIFO, a character device, a file
/// not offered, an offered name twice and a folder's files, with nothing outside the staging area.
@Suite struct AirDropTests {
    typealias Device = TransferTests.Device

    /// An odc archive GNU cpio makes in `folder` of `names` (as cpio reads them from standard input).
    static func cpio(_ names: [String], in folder: URL) throws -> [UInt8] {
        let run = try TestSupport.run("/bin/sh", ["-c", "cd \"$1\" && cpio -o -H odc 2>/dev/null", "sh", folder.path], stdin: Data((names.joined(separator: "\n") + "\n").utf8))
        #expect(run.status == 0, "\(run.stderr)")
        return Array(run.stdout)
    }

    static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        Array(try TestSupport.run("/bin/gzip", ["-c"], stdin: Data(bytes)).stdout)
    }

    /// A folder with files for the archives.
    static func sampleFolder() throws -> URL {
        let dir = try TestSupport.temporaryDirectory().appendingPathComponent("in")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("album/inner"), withIntermediateDirectories: true)
        try Data("hello from a Mac\n".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        try Data("deep\n".utf8).write(to: dir.appendingPathComponent("album/inner/deep.txt"))
        try Data("up\n".utf8).write(to: dir.appendingPathComponent("../up.txt"))
        try Data("not offered\n".utf8).write(to: dir.appendingPathComponent("other.txt"))
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.txt").path, withDestinationPath: "/etc/passwd")
        #expect(mkfifo(dir.appendingPathComponent("fifo.txt").path, 0o644) == 0)
        // A character device (/dev/null's numbers); root can make one, as CI is.
        _ = mknod(dir.appendingPathComponent("device.txt").path, S_IFCHR | 0o644, dev_t(1 << 8 | 3))
        return dir
    }

    struct Entry: Equatable { var name: String; var mode: UInt32; var bytes: [UInt8] }

    static func read(_ archive: [UInt8], pieces: Int) throws -> [Entry] {
        var reader = CPIOReader(maximumEntry: 1 << 20)
        var entries: [Entry] = []
        let step = max(1, archive.count / pieces)
        for start in stride(from: 0, to: archive.count, by: step) {
            try archive[start..<min(archive.count, start + step)].withUnsafeBytes { bytes in
                try reader.feed(bytes) { event in
                    switch event {
                    case .entry(let name, let mode, _): entries.append(Entry(name: name, mode: mode, bytes: []))
                    case .data(let bytes): entries[entries.count - 1].bytes += bytes
                    case .entryEnd, .trailer: break
                    }
                }
            }
        }
        try reader.finish()
        return entries
    }

    @Test func theReaderReadsWhatGNUCpioWritesWholeAndAByteAtATime() throws {
        let dir = try Self.sampleFolder()
        let archive = try Self.cpio(["notes.txt", "album", "album/inner/deep.txt", "link.txt", "../up.txt", dir.deletingLastPathComponent().path + "/up.txt", "fifo.txt"], in: dir)
        let whole = try Self.read(archive, pieces: 1)
        #expect(try Self.read(archive, pieces: archive.count) == whole)
        #expect(whole.map(\.name) == ["notes.txt", "album", "album/inner/deep.txt", "link.txt", "../up.txt", dir.deletingLastPathComponent().path + "/up.txt", "fifo.txt"])
        #expect(whole[0].bytes == Array("hello from a Mac\n".utf8) && whole[0].mode & 0o170000 == 0o100000)
        #expect(whole[1].mode & 0o170000 == 0o040000 && whole[3].mode & 0o170000 == 0o120000 && whole[3].bytes == Array("/etc/passwd".utf8))
        #expect(whole[6].mode & 0o170000 == 0o010000)
    }

    @Test func theReaderRefusesWhatIsNotACompleteOdcArchive() throws {
        let dir = try Self.sampleFolder()
        let archive = try Self.cpio(["notes.txt"], in: dir)
        #expect(throws: CPIOReader.Failure.truncated) { try Self.read(Array(archive.prefix(100)), pieces: 3) }
        var newc = archive
        newc[5] = UInt8(ascii: "1")  // 070701: cpio's newc format, not odc
        #expect(throws: CPIOReader.Failure.notODC(offset: 0)) { try Self.read(newc, pieces: 1) }
        #expect(throws: CPIOReader.Failure.afterTrailer) { try Self.read(archive + Array("junk".utf8), pieces: 1) }
        var octal = archive
        octal[70] = UInt8(ascii: "9")  // in filesize
        #expect(throws: CPIOReader.Failure.badField("filesize", offset: 0)) { try Self.read(octal, pieces: 1) }
        var large = CPIOReader(maximumEntry: 3)
        #expect(throws: CPIOReader.Failure.tooLarge(17, offset: 0)) { try archive.withUnsafeBytes { try large.feed($0) { _ in } } }
    }

    @Test func gzipIsBoundedAndMustEnd() throws {
        let zeros = [UInt8](repeating: 0, count: 10 << 20)
        let packed = try Self.gzip(zeros)
        #expect(packed.count < 20_000)
        var out = 0
        let inflater = try GzipInflater(limit: 20 << 20)
        try packed.withUnsafeBytes { try inflater.feed($0) { out += $0.count } }
        try inflater.finish()
        #expect(out == zeros.count)
        // 10 MiB from 10 KB: refused at the bound, not held.
        let bounded = try GzipInflater(limit: 1 << 20)
        #expect(throws: GzipInflater.Failure.self) { try packed.withUnsafeBytes { try bounded.feed($0) { _ in } } }
        let cut = try GzipInflater(limit: 20 << 20)
        try packed.prefix(packed.count / 2).withUnsafeBytes { try cut.feed($0) { _ in } }
        #expect(throws: GzipInflater.Failure.self) { try cut.finish() }
        let junk = try GzipInflater(limit: 20 << 20)
        #expect(throws: GzipInflater.Failure.self) { try (packed + [1, 2, 3]).withUnsafeBytes { try junk.feed($0) { _ in } } }
    }

    /// Runs `body` with an everyone-mode receiver that also speaks AirDrop's protocol on a free port.
    static func withAirDrop<R>(_ device: Device, autoAccept: Bool = true, prompt: (@Sendable (IncomingAsk) async -> Bool)? = nil,
                               executor: ThreadExecutor = .shared,
                               _ body: (Int, TransferTests.Events) async throws -> R) async throws -> R {
        try await TransferTests.withReceiver(device, mode: .everyone, autoAccept: autoAccept, prompt: prompt, executor: executor, configure: { configuration in
            var settings = AirDropSettings(interface: "lo")
            settings.port = 0
            settings.announces = false
            configuration.airDrop = settings
            configuration.deviceName = "Bea's desktop"
        }) { _, events in
            let port = try #require(await eventually(120) { events.airDropPort != nil } ? events.airDropPort : nil)
            return try await body(port, events)
        }
    }

    static func post(_ path: String, _ body: [UInt8], port: Int, type: String = "application/octet-stream", host: String = "::1") async throws -> HTTPClient.Reply {
        let client = HTTPClient(identity: try DeviceIdentity.loadOrCreate(in: NearbyFolder(root: try Device().root)))
        return try await client.request(.POST, host: host, port: port, secure: true, path: path, body: .bytes(body, contentType: type), check: PeerCheck(.anyoneRecorded))
    }

    @Test func onlyTheOfferedRegularFilesAreKeptUnderSafeNames() async throws {
        let b = try Device()
        let dir = try Self.sampleFolder()
        let outside = dir.deletingLastPathComponent().path + "/up.txt"
        let names = ["notes.txt", "notes.txt", "album", "album/inner/deep.txt", "link.txt", "../up.txt", outside, "fifo.txt", "device.txt", "other.txt"]
        let archive = try Self.gzip(try Self.cpio(names, in: dir))
        let ask = AirDropAsk(senderName: "Eve's Mac", senderID: "0123456789ab", bundleID: "com.apple.finder",
                             files: [.init(name: "notes.txt", type: "public.plain-text"), .init(name: "album", type: "public.folder", isDirectory: true),
                                     .init(name: "link.txt", type: "public.plain-text"), .init(name: "..", type: nil), .init(name: "", type: nil),
                                     .init(name: "fifo.txt", type: nil), .init(name: "device.txt", type: nil)])
        let before = try FileManager.default.contentsOfDirectory(atPath: dir.deletingLastPathComponent().path).sorted()
        try await Self.withAirDrop(b) { port, events in
            let discover = try await Self.post("/Discover", [], port: port)
            #expect(try AirDropReceiverInfo.decode(discover.body)?.name == "Bea's desktop")
            // The server listens on the interface's IPv6 address only (here loopback's ::1; on a
            // real link its link-local one): the same port on the machine's IPv4 is not served.
            await #expect(throws: NearbyError.self) { try await Self.post("/Discover", [], port: port, host: "127.0.0.1") }
            // No upload before an accepted Ask; an Ask for links is refused.
            #expect(try await Self.post("/Upload", archive, port: port, type: "application/x-cpio").status == 403)
            let links = BinaryPropertyListWriter().write(.dictionary(["SenderComputerName": .string("x"), "Items": .array([.string("https://example.com")])]))
            #expect(try await Self.post("/Ask", links, port: port).status == 400)
            #expect(try await Self.post("/Ask", ask.encoded(), port: port).status == 200)
            #expect(try await Self.post("/Upload", archive, port: port, type: "text/plain").status == 406)
            #expect(try await Self.post("/Ask", ask.encoded(), port: port).status == 200)
            let upload = try await Self.post("/Upload", archive, port: port, type: "application/x-cpio")
            #expect(upload.status == 200, "\(String(decoding: upload.body, as: UTF8.self))")
            let delivered = events.all.compactMap { if case .delivered(let name, let destination, _, _, _) = $0 { "\(destination)/\(name)" } else { nil } }
            #expect(delivered.sorted() == ["com.example.notes/deep.txt", "com.example.notes/notes.txt"])
            // The same Ask does not take a second upload.
            #expect(try await Self.post("/Upload", archive, port: port, type: "application/x-cpio").status == 403)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: b.inbox("com.example.notes")).sorted() == ["deep.txt", "notes.txt"])
        #expect(FileManager.default.contents(atPath: b.inbox("com.example.notes") + "/notes.txt") == Data("hello from a Mac\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: b.downloads))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.deletingLastPathComponent().path).sorted() == before)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: b.root.path + "/Nearby/Spool"))?.isEmpty ?? true)
        let requests = b.root.path + "/Containers/com.example.notes/Library/OpenRequests"
        for name in try FileManager.default.contentsOfDirectory(atPath: requests) {
            #expect(try OpenRequest.read(requests + "/" + name).sourceApplication == "com.apple.finder")
        }
    }

    @Test func aDeclinedAskTakesNoUploadAndABrokenArchiveKeepsNothing() async throws {
        let b = try Device()
        let dir = try Self.sampleFolder()
        let archive = try Self.gzip(try Self.cpio(["notes.txt"], in: dir))
        let ask = AirDropAsk(senderName: "Eve's Mac", files: [.init(name: "notes.txt", type: "public.plain-text")])
        // What the person is asked: AirDrop's ask names no sizes, so none is shown (the prompt
        // said "0 bytes"), and the desktop notification says "size not known".
        let sizes = Mutex<[Int64?]>([])
        try await Self.withAirDrop(b, autoAccept: false, prompt: { ask in sizes.withLock { $0 = ask.items.map(\.size) }; return false }) { port, _ in
            let declined = try await Self.post("/Ask", ask.encoded(), port: port)
            #expect(declined.status == 403 && String(decoding: declined.body, as: UTF8.self).contains("declined"))
            #expect(try await Self.post("/Upload", archive, port: port, type: "application/x-cpio").status == 403)
        }
        #expect(sizes.withLock { $0 } == [nil])
        #expect(DesktopPrompt.notification(for: IncomingAsk(senderName: "Eve's Mac", senderApp: "com.apple.finder", fingerprint: b.identity.fingerprint,
                                                            pairedName: nil, items: [("notes.txt", "public.plain-text", nil, "com.example.notes")]))
                    .body.contains("notes.txt (size not known)"))
        try await Self.withAirDrop(b) { port, _ in
            #expect(try await Self.post("/Ask", ask.encoded(), port: port).status == 200)
            // Cut in the middle of the file's bytes: nothing delivered, nothing left.
            let plain = try Self.cpio(["notes.txt"], in: dir)
            #expect(try await Self.post("/Upload", Array(plain.prefix(90)), port: port, type: "application/x-cpio").status == 400)
        }
        #expect(!FileManager.default.fileExists(atPath: b.inbox("com.example.notes")))
        #expect((try? FileManager.default.contentsOfDirectory(atPath: b.root.path + "/Nearby/Spool"))?.isEmpty ?? true)
    }
}

extension TransferTests.Events {
    /// The port of the receiver's AirDrop server, once it said it listens.
    var airDropPort: Int? {
        all.lazy.compactMap { if case .listeningAirDrop(let port, _) = $0 { port } else { nil } }.first
    }
}

/// A device in the middle of an AirDrop send (issue #43). The protocol pins nothing between
/// sends, but one send's connections must show one certificate: the `Ask` the one `Discover`
/// showed, the `Upload` the one the `Ask` showed. Before, a relay could pass the `Ask` to the real
/// receiver and take the whole archive on the `Upload`.
@Suite struct AirDropMiddleTests {
    typealias Device = TransferTests.Device

    @Test func theUploadMustShowTheAsksCertificateAndTheAskTheDiscovered() async throws {
        let a = try Device(), real = try Device(), impostor = try Device()
        let path = NSTemporaryDirectory() + "airdrop-middle-\(UUID().uuidString).bin"
        let bytes = (0..<300_000).map { _ in UInt8.random(in: 0...255) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let item = try OutgoingItem(path: path, type: "public.data")
        let sender = AirDropSender(root: a.root, deviceName: "Ann's laptop")
        try await AirDropTests.withAirDrop(real, executor: .dedicated("airdrop-middle-real")) { realPort, realEvents in
            try await AirDropTests.withAirDrop(impostor, executor: .dedicated("airdrop-middle-impostor")) { impostorPort, impostorEvents in
                // Ask to the real receiver, Upload to the impostor.
                let relay = try Relay(to: "::1") { n in n == 0 ? realPort : impostorPort }
                defer { relay.stop() }
                let receiver = AirDropFound(name: "Bea's desktop", host: "127.0.0.1", port: relay.port, identifier: "")
                await #expect { try await sender.send([item], to: receiver) } throws: { error in
                    guard case NearbyError.certificateChangedDuringSend(_, real.identity.fingerprint, impostor.identity.fingerprint) = error else { return false }
                    return "\(error)".contains("in the middle")
                }
                let toImpostor = relay.bytesFromClient[1] ?? 0
                #expect(toImpostor < 8_000, "only a TLS handshake may reach the impostor, not \(toImpostor) bytes")
                #expect(realEvents.all.contains { if case .asked = $0 { true } else { false } })

                // Found by Discover with the real certificate, the Ask itself must show it.
                let second = try Relay(to: "::1") { _ in impostorPort }
                defer { second.stop() }
                let found = AirDropFound(name: "Bea's desktop", host: "127.0.0.1", port: second.port, identifier: "", certificate: real.identity.fingerprint)
                await #expect { try await sender.send([item], to: found) } throws: { error in
                    if case NearbyError.certificateChangedDuringSend = error { true } else { false }
                }
                #expect(!impostorEvents.all.contains { if case .asked = $0 { true } else { false } }, "the impostor never heard the ask")
            }
        }
    }
}
