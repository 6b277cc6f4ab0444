import Handlers
import SystemCalls

/// An Inbox entry that passed every check, flushed and still open.
struct ReadyEntry {
    var name: [UInt8]
    var file: OwnedDescriptor
    var status: FileStatus
    var sha256: String
    var request: OpenRequestIndex.Entry?
    var type: String?
}

/// An entry refused as it was judged: what quarantine may move (the status it had), why, its
/// type if known, and its request (recorded with it).
struct Refusal {
    /// Why, as a value: what the mover decides on (a second hard link may be a sender's own name
    /// about to be removed, and is given time before quarantine).
    enum Cause: Sendable, Hashable {
        /// The file has other hard links: a link to a file elsewhere.
        case linkedElsewhere
        /// Any other reason (not a regular file, too large, the policy, the sender).
        case other
    }

    var name: [UInt8]
    var reason: String
    var cause: Cause = .other
    var judged: FileStatus
    var type: String?
    var request: OpenRequestIndex.Entry?
}

/// How judging one entry ended.
enum EntryAdmission {
    case ready(ReadyEntry)
    case done(Outcome)
    case refuse(Refusal)
}

extension InboxMover {
    /// Checks one entry and flushes it: the steps of a move before the rename.
    func admit(_ name: [UInt8], from inbox: OwnedDescriptor, requests: OpenRequestIndex) -> EntryAdmission {
        // O_NOATIME (allowed for the file's owner): reading it for the checksum leaves its inode
        // clean; with the access time dirtied, every flush cost twice as much (measured).
        let file: OwnedDescriptor
        do {
            file = try inbox.open(name, .readOnly, options: [.noFollow, .nonBlocking, .noControllingTerminal, .noAccessTime])
        } catch {
            switch error.errno {
            case .tooManySymbolicLinkLevels: return judgeUnopened(name, in: inbox, as: .symbolicLink, "a symbolic link")
            case .noSuchFileOrDirectory: return .done(.deferred("gone before it could be opened"))
            case .noSuchAddressOrDevice: return judgeUnopened(name, in: inbox, as: .fifo, "a socket or FIFO without a writer")
            default: return .done(.deferred("cannot open: \(error.errno)"))
            }
        }
        let status: FileStatus
        do { status = try file.status() } catch { return .done(.deferred("cannot stat: \(error.errno)")) }
        let request = requests.request(for: name, status: status)
        var type: String?
        func refuse(_ reason: String, cause: Refusal.Cause = .other) -> EntryAdmission {
            .refuse(Refusal(name: name, reason: reason, cause: cause, judged: status, type: type, request: request))
        }
        guard status.kind == .regular else { return refuse(status.kind.phrase) }
        guard status.linkCount == 1 else { return refuse("\(status.linkCount) hard links (a link to a file elsewhere)", cause: .linkedElsewhere) }
        guard status.size <= sizeLimit else { return refuse("\(status.size) bytes, over the limit of \(sizeLimit)") }
        if let policy {
            let judgement = policy.judge(ArrivingDocument(name: name, file: file, request: request?.request))
            type = judgement.type
            if let reason = judgement.refusal { return refuse(reason) }
        }
        if !senders.admitsEveryone {
            guard let sender = request?.request.sourceApplication else { return refuse("no open request names its sender") }
            guard senders.admits(sender) else { return refuse("its sender \(sender) is not allowed") }
        }
        if file.hasOtherWriter() { return .done(.deferred("still open for writing")) }
        // Only when needed: a mode change dirties the inode, and its fsync then costs a journal commit.
        if status.permissions != 0o644 {
            do { try file.setPermissions(0o644) } catch { return .done(.deferred("cannot set its mode: \(error.errno)")) }
        }
        var digest = ""
        if manifest != nil {
            do { digest = try FileDigest.sha256(of: file, size: Int(status.size)) } catch {
                return .done(.deferred("cannot read it: \(error)"))
            }
        }
        do { try file.sync() } catch { return .done(.deferred("fsync failed: \(error.errno)")) }
        return .ready(ReadyEntry(name: name, file: file, status: status, sha256: digest, request: request, type: type))
    }

    /// An entry that could not be opened (a link, a FIFO or socket): refused as `reason` when
    /// it still is of that `kind` (sockets count as FIFOs), else left for a fresh look.
    func judgeUnopened(_ name: [UInt8], in inbox: OwnedDescriptor, as kind: FileKind, _ reason: String) -> EntryAdmission {
        guard let status = try? inbox.status(of: name) else { return .done(.deferred("gone before it could be opened")) }
        guard status.kind == kind || (kind == .fifo && status.kind == .socket) else { return .done(.deferred("changed while it was checked")) }
        return .refuse(Refusal(name: name, reason: reason, judged: status, type: nil, request: nil))
    }
}
