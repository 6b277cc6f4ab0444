import PropertyLists
import SystemCalls

/// The receiver's storage for one transfer's items until each is delivered, and what makes
/// resume and exactly-once delivery work:
///
/// ```
/// Spool/FPRINT-TRANSFER/N/.partial     item N's bytes so far (the sender resumes after them)
/// Spool/FPRINT-TRANSFER/N/NAME         item N complete and verified, under its safe name
/// Spool/FPRINT-TRANSFER/N/.delivered   item N was delivered (where to)
/// Spool/FPRINT-TRANSFER/N/.moving      item N's file is being moved into the download folder
///                                      (its device and inode, which the rename keeps)
/// ```
///
/// The folder is named by the sender's certificate and the sender's transfer identifier, so only
/// the same sender continues a transfer. What is held is measured when an ask comes: the partial
/// file is flushed first, so the count reported is on disk (a receiver killed earlier left its
/// writes in the page cache, which outlives the process); the SHA-256 checked before delivery
/// catches anything a power loss damaged.
struct Spool {
    /// The transfer's folder.
    let folder: String

    init(base: String, sender: Fingerprint, transfer: [UInt8]) {
        folder = base + "/" + String(sender.hex.prefix(16)) + "-" + Fingerprint.hex(transfer)
    }

    func itemFolder(_ index: Int) -> String { folder + "/" + String(index) }
    func partial(_ index: Int) -> String { itemFolder(index) + "/.partial" }
    func completePath(_ index: Int, name: String) -> String { itemFolder(index) + "/" + name }
    func marker(_ index: Int) -> String { itemFolder(index) + "/.delivered" }
    func movingRecord(_ index: Int) -> String { itemFolder(index) + "/.moving" }

    /// Whether item `index` was delivered.
    func isDelivered(_ index: Int) -> Bool { FileSystem.exists(marker(index)) }

    /// The bytes of item `index` held on disk (flushed now), at most `size - 1`; a longer partial
    /// file is cut back to `size`. A partial file with every byte was never verified: the session
    /// ended before the sender's `Uploaded` (its SHA-256) was read, the receiver or the sender
    /// killed, or the link cut, just after the last data frame. Reported whole, the sender would take
    /// it for delivered and never send the digest, and the item would stay in the spool, never
    /// delivered (the lab's random kills found this: lab-resume.sh). One byte short, the sender
    /// sends that byte and the digest, and the item is checked and delivered; `held == size` in an
    /// answer then means delivered, as the sender reads it.
    func held(_ index: Int, size: Int64) throws(NearbyError) -> Int64 {
        let path = partial(index)
        guard FileSystem.exists(path) else { return 0 }
        do {
            let file = try OwnedDescriptor.open(path, .readWrite, options: [.noFollow])
            let status = try file.status()
            guard status.kind == .regular else { throw NearbyError.corruptState(path: path, detail: "not a regular file") }
            if status.size > size { try file.truncate(to: size) }
            try file.sync()
            return max(0, min(status.size, size - 1))
        } catch let error as NearbyError { throw error } catch let error as SystemCallError { throw .system(error) } catch {
            throw .corruptState(path: path, detail: "\(error)")
        }
    }

    /// Opens item `index`'s partial file for writing from `offset` (made if missing, cut to `offset`).
    func openPartial(_ index: Int, at offset: Int64) throws(NearbyError) -> OwnedDescriptor {
        do {
            try FileSystem.makeDirectories(itemFolder(index), permissions: 0o700)
            let file = try OwnedDescriptor.open(partial(index), .readWrite, options: [.create, .noFollow], permissions: 0o600)
            try file.truncate(to: offset)
            return file
        } catch { throw .system(error) }
    }

    /// Renames the verified partial file to its safe name.
    func complete(_ index: Int, name: String) throws(NearbyError) -> String {
        let target = completePath(index, name: name)
        do {
            try FileSystem.rename(partial(index), to: target)
            try FileSystem.syncFolder(itemFolder(index))
        } catch { throw .system(error) }
        return target
    }

    /// The complete file of item `index`, if one is waiting to be delivered.
    func waitingFile(_ index: Int) -> String? {
        FileSystem.entries(of: itemFolder(index)).first { !$0.hasPrefix(".") }.map { itemFolder(index) + "/" + $0 }
    }

    /// Records that item `index` went to `destination`, then removes its file.
    func markDelivered(_ index: Int, destination: String, path: String) throws(NearbyError) {
        do {
            let record = try XMLPropertyListWriter().write(.dictionary(["Destination": .string(destination), "Path": .string(path)]))
            try AtomicFile.write(record, to: marker(index), permissions: 0o600)
        } catch let error as SystemCallError { throw .system(error) } catch { throw .corruptState(path: marker(index), detail: "\(error)") }
        if let file = waitingFile(index) { try? FileSystem.remove(file) }
    }

    /// Records which file item `index` is (device and inode) before it is moved out of the spool:
    /// a receiver killed after the move and before ``markDelivered(_:destination:path:)`` finds it
    /// by this record (in the download folder, which keeps no open request; or in an app's `tmp/`,
    /// where a delivery stages it before its open request is written) instead of taking the item
    /// a second time.
    func recordMove(_ index: Int, of path: String) throws(NearbyError) {
        guard let status = FileSystem.linkStatus(path) else { throw .corruptState(path: path, detail: "the verified item is gone") }
        do {
            let record = try XMLPropertyListWriter().write(.dictionary([
                "Device": .integer(Int64(bitPattern: status.device)), "Inode": .integer(Int64(bitPattern: status.inode)),
            ]))
            try AtomicFile.write(record, to: movingRecord(index), permissions: 0o600)
        } catch let error as SystemCallError { throw .system(error) } catch { throw .corruptState(path: movingRecord(index), detail: "\(error)") }
    }

    /// Where a move recorded by ``recordMove(_:of:)`` left item `index`'s file, when the move
    /// began but its delivery was never marked: `.found(path)` for the file in `folder` (possibly
    /// still under the mover's hidden temporary name), `.gone` when it is neither there nor in
    /// the spool (the move finished and the user already took it away, or it was copied to
    /// another file system), `nil` when no move began or the file is still in the spool.
    func interruptedMove(_ index: Int, into folder: String) -> InterruptedMove? {
        guard waitingFile(index) == nil, FileSystem.exists(movingRecord(index)),
              case .dictionary(let record)? = try? PropertyListReader.read(contentsOf: movingRecord(index)).value,
              case .integer(let device)? = record["Device"], case .integer(let inode)? = record["Inode"] else { return nil }
        for name in FileSystem.entries(of: folder) {
            let path = folder + "/" + name
            if let status = FileSystem.linkStatus(path), status.kind == .regular,
               status.device == UInt64(bitPattern: device), status.inode == UInt64(bitPattern: inode) { return .found(path) }
        }
        return .gone
    }

    /// What became of an interrupted move (``interruptedMove(_:into:)``).
    enum InterruptedMove: Equatable {
        case found(String)
        case gone
    }

    /// Removes transfers whose items were all delivered, once `age` seconds have passed since
    /// their folder last changed. Until then their `.delivered` markers answer a sender that
    /// retries a send whose confirmation it never saw (killed, cut off): it is told the items
    /// arrived instead of delivering them twice.
    static func purge(base: String, olderThan age: Double, now: Double) {
        for name in FileSystem.entries(of: base) {
            let folder = base + "/" + name
            guard let status = FileSystem.status(folder), status.kind == .directory, now - status.modified.secondsSince1970 > age else { continue }
            guard isFinished(folder) else { continue }
            try? FileSystem.removeTree(folder)
        }
    }

    /// Whether every item the transfer in `folder` holds was delivered: the one rule for purging
    /// and for what `nearby status` counts as unfinished.
    static func isFinished(_ folder: String) -> Bool {
        FileSystem.entries(of: folder).filter { !$0.hasPrefix(".") }.allSatisfy { FileSystem.exists(folder + "/" + $0 + "/.delivered") }
    }
}

extension NearbyFolder {
    /// The incoming transfers with an item not yet delivered (kept for resume). Finished ones
    /// stay for a week to answer a sender that retries; they are not counted.
    public var unfinishedTransfers: Int {
        FileSystem.entries(of: spool).filter { name in
            FileSystem.isDirectory(spool + "/" + name) && !Spool.isFinished(spool + "/" + name)
        }.count
    }
}
