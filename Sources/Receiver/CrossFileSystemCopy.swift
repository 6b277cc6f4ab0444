import Handlers
import OpenRequests
import SystemCalls

/// A finished cross-file-system copy: its final name, and the two temporary names (the claimed
/// Inbox entry, the copy's spare link) still to remove.
struct FinishedCopy {
    var stored: String
    var claim: [UInt8]
    var partial: [UInt8]
}

/// How a copy ended: done, or failed (why) with the file back in the Inbox.
enum CopyResult {
    case done(FinishedCopy)
    case failed(String)
}

extension InboxMover {
    /// Claims an entry for a copy: renames it inside the Inbox to `.inboxd-TOKEN.claimed` (one
    /// receiver wins) and checks that what moved is the judged file. `nil` when claimed, else why not.
    func claim(_ item: ReadyEntry, token: String, in inbox: OwnedDescriptor) -> String? {
        let claim = EntryNames.claim(token)
        do { try inbox.rename(item.name, to: inbox, as: claim) } catch {
            return error.errno == .noSuchFileOrDirectory ? "gone during the move (another receiver took it)" : "cannot claim it: \(error.errno)"
        }
        guard Self.holds(claim, in: inbox, item.status) else {
            Self.giveBack(claim, from: inbox, to: inbox, as: item.name)
            return "replaced during the move"
        }
        return nil
    }

    /// Copies a claimed entry into the working folder on another file system: write and flush
    /// `.inboxd-TOKEN.partial`, link it under the first free name. On any failure (ENOSPC,
    /// EDQUOT, EIO…) the partial copy is removed and the file gets its name back in the Inbox.
    func copy(_ item: ReadyEntry, token: String, from inbox: OwnedDescriptor, to target: OwnedDescriptor) -> CopyResult {
        let claim = EntryNames.claim(token), partial = EntryNames.partial(token)
        var created = false
        func undo(_ why: String) -> CopyResult {
            if created { try? target.remove(partial) }
            Self.giveBack(claim, from: inbox, to: inbox, as: item.name)
            return .failed(why)
        }
        let output: OwnedDescriptor
        do { output = try target.open(partial, .writeOnly, options: [.create, .exclusive, .noFollow], permissions: 0o644) } catch {
            return undo("cannot create the copy: \(error.errno)")
        }
        created = true
        if let failure = copyContents(of: item, to: output) { return undo(failure) }
        for attempt in 0..<FreeName.attempts {
            let candidate = EntryNames.free(item.name, attempt)
            do {
                try target.link(partial, to: target, as: candidate)
                return .done(FinishedCopy(stored: DisplayName.of(candidate), claim: claim, partial: partial))
            } catch {
                if error.errno != .fileExists { return undo("cannot name the copy: \(error.errno)") }
            }
        }
        return undo("no free name in the working folder")
    }

    /// Writes the entry's bytes into `output`, keeps the sender's modification time, sets the
    /// folder's plain 0644 and flushes; why not, on failure.
    private func copyContents(of item: ReadyEntry, to output: OwnedDescriptor) -> String? {
        let size = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var offset: Int64 = 0
        while true {
            let n: Int
            do { n = try item.file.read(into: buffer, at: offset) } catch { return "cannot read it: \(error.errno)" }
            if n == 0 { break }
            do { try output.writeAll(UnsafeRawBufferPointer(rebasing: buffer[..<n])) } catch { return "cannot write the copy: \(error.errno)" }
            offset += Int64(n)
            if offset >= item.status.size / 2 { FaultInjection.checkpoint("copying") }
        }
        try? output.setTimes(accessed: item.status.modified, modified: item.status.modified)
        do { try output.setPermissions(0o644) } catch { return "cannot set the copy's mode: \(error.errno)" }
        do { try output.sync() } catch { return "flushing the copy failed: \(error.errno)" }
        return nil
    }
}
