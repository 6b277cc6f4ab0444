import NIOCore
import Synchronization
import SystemCalls

/// One session per transfer at a time. A sender killed or cut off and started again reaches the
/// receiver while its old session may still wait for bytes (until its idle timeout): the new
/// session takes over, closing the old one, so two sessions never write one item. Within the
/// process the old session's connection is closed; across processes (two receivers on one
/// root) an exclusive `flock` on the transfer's `.lock` decides, released when its holder ends
/// or dies.
final class TransferClaims: Sendable {
    let holders = Mutex<[String: any Channel]>([:])

    /// A held claim: the lock stays while this value lives.
    final class Claim: Sendable {
        let lock: OwnedDescriptor
        let folder: String
        let claims: TransferClaims
        init(lock: OwnedDescriptor, folder: String, claims: TransferClaims) {
            self.lock = lock
            self.folder = folder
            self.claims = claims
        }
        deinit { claims.holders.withLock { _ = $0.removeValue(forKey: folder) } }
    }

    /// Claims `spool`'s transfer for the session on `channel`, taking it over from an older
    /// session in this process; waits at most `timeout` seconds for one in another process.
    func claim(_ spool: Spool, for channel: any Channel, timeout: Double = 10) async throws -> Claim {
        let lockPath = spool.folder + "/.lock"
        let lock: OwnedDescriptor
        do {
            try FileSystem.makeDirectories(spool.folder, permissions: 0o700)
            lock = try OwnedDescriptor.open(lockPath, .readWrite, options: [.create, .noFollow], permissions: 0o600)
        } catch { throw NearbyError.system(error) }
        let deadline = Clock.monotonic() + timeout
        while true {
            let taken: Bool
            do { taken = try lock.tryLock(.exclusive) } catch { throw NearbyError.system(error) }
            if taken {
                holders.withLock { $0[spool.folder] = channel }
                return Claim(lock: lock, folder: spool.folder, claims: self)
            }
            if let older = holders.withLock({ $0[spool.folder] }) { older.close(promise: nil) }
            guard Clock.monotonic() < deadline else {
                throw NearbyError.declined("this transfer is in progress in another session")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
