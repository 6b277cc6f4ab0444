import AppRegistry
import Foundation
import Handlers
import TestHelpers
import Testing
import SystemCalls
import UniformTypes
@testable import Receiver

/// Case 10 of ../shared/inbox-fault-cases.md: power loss. A test double of the flush layer
/// keeps what a disk that loses everything not yet flushed would hold: each folder's entries as
/// of its last `fsync`, each file's bytes as of its last `fsync` (a file never flushed comes
/// back empty), the manifest as SQLite committed it. After every flush the job made, that disk
/// is rebuilt in a fresh folder, the receiver started on it (recovery, then a pass), and checked:
/// every delivered file in the working folder exactly once with its bytes, nothing left in the
/// Inbox, no temporary name, and one `stored` row per file that agrees with the disk.
@Suite struct PowerLossTests {
    /// What the disk holds durably, updated by each flush.
    final class Disk: @unchecked Sendable {   // used from one thread at a time; `lock` for safety
        struct Key: Hashable { var device: UInt64; var inode: UInt64 }
        struct Image {
            var folders: [String: [String: Key]]
            var contents: [Key: Data]
            var manifest: [String: Data]
        }
        let lock = NSLock()
        let tracked: [String]
        let library: String
        var folders: [String: [String: Key]] = [:]
        var contents: [Key: Data] = [:]
        var images: [Image] = []

        init(tracked: [String], library: String) {
            self.tracked = tracked
            self.library = library
            for folder in tracked {
                folders[folder] = Self.listing(folder)
                for (name, key) in folders[folder]! { contents[key] = FileManager.default.contents(atPath: folder + "/" + name) }
            }
            images.append(image())
        }

        /// Regular files of a folder, name → identity.
        static func listing(_ folder: String) -> [String: Key] {
            var result: [String: Key] = [:]
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                var info = stat()
                if lstat(folder + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
                    result[name] = Key(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
                }
            }
            return result
        }

        func image() -> Image {
            var manifest: [String: Data] = [:]
            for file in ["Manifest.sqlite", "Manifest.sqlite-wal"] { manifest[file] = FileManager.default.contents(atPath: library + "/" + file) }
            return Image(folders: folders, contents: contents, manifest: manifest)
        }

        /// Called after every successful `fsync` the receiver makes (``FaultInjection``): a
        /// folder's entries or a file's bytes are now what the disk keeps.
        var observer: FaultInjection.Rule {
            .observe(.fsync) { fd in
                self.lock.lock(); defer { self.lock.unlock() }
                var info = stat()
                fstat(fd, &info)
                if info.st_mode & S_IFMT == S_IFDIR {
                    let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")) ?? ""
                    if self.tracked.contains(path) { self.folders[path] = Self.listing(path) }
                } else {
                    // Through /proc: the descriptor may be write-only (a copy being made).
                    self.contents[Key(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))] = FileManager.default.contents(atPath: "/proc/self/fd/\(fd)") ?? Data()
                }
                self.images.append(self.image())
            }
        }
    }

    @Test(arguments: [false, true])
    func case10PowerLossAfterEveryFlush(acrossFileSystems: Bool) throws {
        let root = try TestSupport.temporaryDirectory()
        let container = try AppContainer(bundleIdentifier: "com.example.app", on: DeviceRoot(path: root.path))
        try container.create()
        let work = acrossFileSystems
            ? try FileManager.default.url(for: .itemReplacementDirectory, in: .userDomainMask, appropriateFor: URL(fileURLWithPath: "/dev/shm"), create: true).path
            : container.documents
        defer { if acrossFileSystems { try? FileManager.default.removeItem(atPath: work) } }
        var bodies: [String: Data] = [:]
        for i in 0..<4 {
            bodies["doc\(i).txt"] = Data("document \(i) ".utf8) + Data(repeating: UInt8(i), count: i * 5000)
            try TestSupport.writeFile(bodies["doc\(i).txt"]!, to: URL(fileURLWithPath: container.inbox + "/doc\(i).txt"))
        }
        try TestSupport.writeFile(Data("already there".utf8), to: URL(fileURLWithPath: work + "/doc1.txt"))
        let manifest = try Manifest(path: container.library + "/Manifest.sqlite")
        let disk = Disk(tracked: [container.inbox, work], library: container.library)
        var mover = InboxMover(container: container, manifest: manifest)
        mover.destination = work
        let results = try FaultInjection.with([disk.observer]) { try mover.moveAll() }
        #expect(results.allSatisfy { if case .moved = $0.outcome { true } else { false } })
        #expect(disk.images.count > (acrossFileSystems ? 10 : 6), "\(disk.images.count) flushes")

        for (k, image) in disk.images.enumerated() {
            // The disk after the power loss, rebuilt: same layout, new inodes (the manifest's
            // inode numbers are mapped to them, as they would be unchanged on the real disk).
            let rebuilt = try TestSupport.temporaryDirectory()
            let copy = try AppContainer(bundleIdentifier: "com.example.app", on: DeviceRoot(path: rebuilt.path))
            try copy.create()
            let rebuiltWork = acrossFileSystems ? rebuilt.appendingPathComponent("work").path : copy.documents
            try FileManager.default.createDirectory(atPath: rebuiltWork, withIntermediateDirectories: true)
            var made: [Disk.Key: String] = [:]
            for (folder, target) in [(container.inbox, copy.inbox), (work, rebuiltWork)] {
                for (name, key) in image.folders[folder] ?? [:] {
                    let path = target + "/" + name
                    if let first = made[key] { #expect(link(first, path) == 0); continue }
                    try TestSupport.writeFile((image.contents[key] ?? Data()), to: URL(fileURLWithPath: path))
                    made[key] = path
                }
            }
            for (file, bytes) in image.manifest { try TestSupport.writeFile(bytes, to: URL(fileURLWithPath: copy.library + "/" + file)) }
            let restored = try Manifest(path: copy.library + "/Manifest.sqlite")
            // In two steps: a new inode number may equal an old one (the originals were freed).
            for (n, key) in made.keys.enumerated() {
                try restored.execute("UPDATE moves SET inode = \(-n - 1), device = -1 WHERE inode = \(Int64(bitPattern: key.inode)) AND device = \(Int64(bitPattern: key.device))")
            }
            for (n, path) in made.values.enumerated() {
                var info = stat()
                stat(path, &info)
                try restored.execute("UPDATE moves SET inode = \(Int64(info.st_ino)), device = \(Int64(info.st_dev)) WHERE inode = \(-n - 1) AND device = -1")
            }
            // Rows a dead process left: make them look so (this test process is alive).
            try restored.execute("UPDATE moves SET owner_pid = 0")

            var again = InboxMover(container: copy, manifest: restored)
            again.destination = rebuiltWork
            _ = try again.moveAll()

            let stored = try FaultCaseTests.Device.files(in: rebuiltWork)
            let names = try FileManager.default.contentsOfDirectory(atPath: rebuiltWork).filter { $0 != "Inbox" }
            #expect(!names.contains { $0.hasPrefix(".inboxd-") }, "image \(k): temporary names left: \(names)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: copy.inbox).isEmpty, "image \(k): Inbox not empty")
            for (name, body) in bodies {
                #expect(stored.values.filter { $0 == body }.count == 1, "image \(k): \(name) found \(stored.values.filter { $0 == body }.count) times")
            }
            #expect(stored.values.filter { $0 == Data("already there".utf8) }.count == 1, "image \(k): the existing file")
            let rows = try restored.entries()
            #expect(rows.count == 4 && rows.allSatisfy { $0.status == .stored }, "image \(k): \(rows.map(\.status))")
            for row in rows {
                #expect(row.storedName.flatMap { stored[$0] }.map { String(decoding: $0, as: UTF8.self).hasPrefix("document") } == true,
                        "image \(k): row for \(row.storedName ?? "-") disagrees with the disk")
            }
            try? FileManager.default.removeItem(at: rebuilt)
        }
    }
}
