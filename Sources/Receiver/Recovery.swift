import Handlers
import SystemCalls

extension InboxMover {
    /// Settles the moves a crash interrupted (rows still ``MoveStatus/moving`` or
    /// ``MoveStatus/copied`` whose process is gone; another receiver's move in progress is left
    /// alone). Each file is found where the crash left it:
    /// - still in the Inbox under its name, one link: the rename did not happen; the row is
    ///   dropped and the file will be moved again;
    /// - in the working folder (found by inode): the row becomes `stored`; when the same inode is
    ///   also still linked in the Inbox (case 8), that Inbox name is removed;
    /// - a cross-file-system copy: a partial copy is deleted (case 9) and a claimed Inbox file gets
    ///   its name back; a copy that was linked under its final name is kept and the Inbox copy
    ///   removed;
    /// - nowhere: the app deleted it from the Inbox, as it may; the row is dropped.
    public func recover() throws(ReceiverError) {
        guard let manifest else { return }
        let pending = try manifest.unfinished()
        guard !pending.isEmpty else { return }
        let inbox = try? OwnedDescriptor.openFolder(container.inbox)
        let target = try? OwnedDescriptor.openFolder(destination)
        defer {
            try? inbox?.sync()
            try? target?.sync()
        }
        for entry in pending where !isInProgress(entry) {
            let stored = try settle(entry, inbox: inbox, target: target, in: manifest)
            logger.notice("settled an interrupted move", metadata: [
                "inbox": "\(container.inbox)", "name": "\(DisplayName.of(entry.originalName))", "journal": "\(entry.status.rawValue)",
                "row": "\(entry.id)", "sha256": "\(entry.sha256)", "outcome": "\(stored.map { "stored as \($0)" } ?? "back in the Inbox or gone")",
            ])
            try? target?.sync()
            try? inbox?.sync()
            try manifest.finish(entry.id, storedAs: stored, time: clock.now())
        }
    }

    /// Whether a journaled move is still being carried out: by a live other process, or by this
    /// one in a batch not yet finished.
    func isInProgress(_ entry: ManifestEntry) -> Bool {
        if entry.owner == ProcessIdentity.current {
            return Self.inFlight.withLock { $0.contains(entry.id) }
        }
        return entry.owner.isRunning
    }

    /// Where an interrupted move left its file: the name it has in the working folder, or `nil`
    /// when it is (back) in the Inbox or gone. Removes the copies that must not stay.
    ///
    /// A crash may cut this short too, so each step leaves what the next attempt reaches the same
    /// conclusion from: a complete copy is journaled as `copied` before anything is removed, and a
    /// claimed file is given its name back before its partial copy goes.
    func settle(_ entry: ManifestEntry, inbox: OwnedDescriptor?, target: OwnedDescriptor?, in manifest: Manifest) throws(ReceiverError) -> String? {
        let partial = EntryNames.partial(String(entry.id))
        var stored: String? = entry.status == .copied ? entry.storedName : nil
        let copy = (try? target?.status(of: partial)) ?? nil
        // Linked under its final name: the copy was complete and flushed before the link.
        if stored == nil, let copy, let target, copy.linkCount > 1,
           let name = find(inode: copy.inode, device: copy.device, size: entry.size, in: target, except: partial) {
            try manifest.markCopied(entry.id, storedAs: name)
            stored = name
        }
        // The Inbox copy: under its name, or under the claim of a cross-file-system move. Once a
        // copy is complete, only the claim is looked at: the original is gone by then, and its
        // inode number may already belong to a new delivery under the same name.
        var source: [UInt8]?
        var sourceLinks = 0
        let candidates = stored == nil ? [entry.originalName, EntryNames.claim(String(entry.id))] : [EntryNames.claim(String(entry.id))]
        if let inbox {
            for name in candidates {
                if let info = (try? inbox.status(of: name)) ?? nil, info.inode == entry.inode, info.device == entry.device {
                    source = name
                    sourceLinks = info.linkCount
                    break
                }
            }
        }
        func removePartial() { if copy != nil { try? target?.remove(partial) } }
        if let stored {
            removePartial()
            if let source { try? inbox?.remove(source) }
            return stored
        }
        if let source, let inbox {
            // The same inode in both folders (a rename a power loss half kept): the working
            // folder's name is the one to keep.
            if sourceLinks > 1, let target, let other = find(inode: entry.inode, device: entry.device, size: entry.size, in: target, except: nil) {
                try? inbox.remove(source)
                return other
            }
            if source != entry.originalName { Self.giveBack(source, from: inbox, to: inbox, as: entry.originalName) }
            removePartial()   // a copy cut short (case 9)
            return nil
        }
        removePartial()
        guard let target else { return nil }
        return find(inode: entry.inode, device: entry.device, size: entry.size, in: target, except: nil)
    }

    /// The name under which `inode` is linked in `folder`, if any. `size` must match too (an
    /// inode number is reused once its file is deleted).
    func find(inode: UInt64, device: UInt64, size: Int64, in folder: OwnedDescriptor, except skipped: [UInt8]?) -> String? {
        for name in (try? folder.entryNames()) ?? [] where name != skipped {
            if let candidate = (try? folder.status(of: name)) ?? nil, candidate.inode == inode, candidate.device == device, candidate.size == size {
                return DisplayName.of(name)
            }
        }
        return nil
    }
}
