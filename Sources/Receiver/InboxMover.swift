import AppRegistry
import Handlers
import Logging
import Synchronization
import SystemCalls

/// Moves complete files out of one app's `Documents/Inbox` into its `Documents/` (or another
/// working folder), through folder descriptors so that a swapped folder or a planted link
/// cannot redirect the move.
///
/// A pass: settle what a crash interrupted (``recover()``), list the Inbox, read the open
/// requests, then judge each entry (``admit(_:from:requests:)``: a regular file with one link,
/// within the size limit, from an allowed sender, accepted by the app's policy, no other process
/// writing it; set-id and sticky bits dropped; flushed), and move the accepted ones in batches
/// (group commit, ``commit(_:from:to:)``): one journal transaction, the renames
/// (`renameat2(RENAME_NOREPLACE)` under the name or the first free `name-N.ext`), one flush per
/// folder, one completion transaction. A rename moves the one inode, so a file is in exactly one
/// folder at every instant: a crash at any step leaves it in the Inbox (moved again at the next
/// pass) or in the working folder, never both and never neither. Across file systems a move is a
/// copy (``copy(_:token:from:to:)``); refused files go to the quarantine
/// (``quarantine(_:judged:type:request:from:reason:)``).
///
/// Every system call goes through `SystemCalls`; tests force failures and crashes per call and
/// per step (``FaultInjection``).
public struct InboxMover {
    /// The app's container.
    public var container: AppContainer
    /// The working folder files are moved into: the container's `Documents/` unless configured.
    public var destination: String
    /// Files larger than this are refused.
    public var sizeLimit: Int64
    /// The journal and record of moves, if kept.
    public var manifest: Manifest?
    /// The app's rule for what it accepts; none: everything that passes the checks.
    public var policy: AcceptancePolicy?
    /// The senders whose documents are accepted (the open request's `SourceApplication`).
    public var senders = SenderAllowList()
    /// Files moved together: one journal transaction, then each rename, then one flush per folder
    /// and one completion transaction (group commit). Bounds the open descriptors of a pass; 1
    /// makes each move durable before the next starts.
    public var batchSize = 256
    /// Where recovery says what it settled (notice).
    public var logger = Logger(label: "inboxd")
    /// Where times in the manifest come from.
    public var clock: Clock = .system

    /// A mover for `container`'s Inbox.
    public init(container: AppContainer, sizeLimit: Int64 = 1 << 32, manifest: Manifest? = nil) {
        self.container = container
        destination = container.documents
        self.sizeLimit = sizeLimit
        self.manifest = manifest
    }

    /// Moves every entry present now; each entry's outcome, in name order.
    /// - Throws: ``ReceiverError`` when the Inbox or the working folder cannot be opened, or the
    ///   journal cannot be read.
    public func moveAll() throws(ReceiverError) -> [EntryOutcome] {
        do { try container.create() } catch { throw .app(error) }
        try recover()
        let inbox: OwnedDescriptor, target: OwnedDescriptor
        do {
            inbox = try OwnedDescriptor.openFolder(container.inbox)
            target = try OwnedDescriptor.openFolder(destination)
        } catch { throw .system(error) }
        // Files other receivers have claimed for a copy in progress are theirs.
        let claimed = Set(((try? manifest?.unfinished()) ?? []).map { EntryNames.claim(String($0.id)) })
        let names: [[UInt8]]
        do { names = try inbox.entryNames() } catch { throw .system(error) }
        // Listed first, read second: every listed document's request is on disk by now.
        let requests = manifest == nil ? OpenRequestIndex() : OpenRequestIndex(container: container)
        var results: [EntryOutcome] = []
        var batch: [ReadyEntry] = []
        for name in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) where !claimed.contains(name) {
            switch admit(name, from: inbox, requests: requests) {
            case .ready(let entry):
                batch.append(entry)
                if batch.count >= batchSize { results += commit(batch, from: inbox, to: target); batch = [] }
            case .done(let outcome):
                results.append(EntryOutcome(name: name, outcome: outcome))
            case .refuse(let refusal):
                // A second link may be a sender's own name about to be removed: give it time.
                if manifest != nil, !(refusal.cause == .linkedElsewhere && changedRecently(name, in: inbox)) {
                    results.append(EntryOutcome(name: name, outcome: quarantine(refusal, from: inbox)))
                } else {
                    results.append(EntryOutcome(name: name, outcome: .refused(refusal.reason)))
                }
            }
        }
        results += commit(batch, from: inbox, to: target)
        return results.sorted { $0.name.lexicographicallyPrecedes($1.name) }
    }

    /// Whether `name` is a regular file whose inode changed in the last two seconds: a writer that
    /// links a file in and then removes its own name is given time (the refusal for its second
    /// link may already be stale) before the file goes to quarantine.
    func changedRecently(_ name: [UInt8], in inbox: OwnedDescriptor) -> Bool {
        guard let status = try? inbox.status(of: name), status.kind == .regular else { return false }
        return clock.now() - status.changed.secondsSince1970 < 2
    }

    /// Journal rows of moves this process is carrying out right now (a failed flush leaves a row
    /// open that this same process settles at its next pass).
    static let inFlight = Mutex<Set<Int64>>([])
}
