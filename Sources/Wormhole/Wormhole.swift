import FileCoordination
import KeyedArchives
import Notifications
import SystemCalls
import Synchronization

/// MMWormhole on Linux: messages passed between an app and its extensions through files in a
/// shared folder (the App Group container), with a Darwin notification per identifier so that
/// listeners hear at once. The on-disk format is MMWormhole's: `IDENTIFIER.archive` in the
/// container (or in its optional subfolder), holding an `NSKeyedArchiver` archive of the message
/// under the key `root`; the notification's name is the identifier itself. A wormhole on macOS
/// or iOS reading the same folder would read these messages, and these listeners hear its posts
/// when both share a notification table.
///
/// ```swift
/// let wormhole = try Wormhole(containerPath: group, optionalDirectory: "wormhole")
/// try wormhole.passMessage(.dictionary(["buttonNumber": .integer(1)]), identifier: "button")
/// try wormhole.listenForMessage(identifier: "button") { message in show(message) }
/// ```
///
/// One message per identifier is kept (the last one wins), as in MMWormhole; the queued mode
/// (``enqueueMessage(_:identifier:)``, ``listenForQueuedMessages(identifier:listener:)``) keeps
/// every message instead, each delivered once.
public final class Wormhole: Sendable {
    /// How messages are written and read.
    public enum Transiting: Sendable, Hashable {
        /// Atomic whole-file writes, plain reads (`MMWormholeFileTransiting`).
        case file
        /// The same under file coordination (`MMWormholeCoordinatedFileTransiting`).
        case coordinatedFile
    }

    /// The folder messages are in: the container, or the optional subfolder inside it.
    public let directory: String
    /// How messages are written and read.
    public let transiting: Transiting
    let notifications: NotifyCenter
    let coordinator: FileCoordinator
    private let listeners = Mutex<[String: NotificationToken]>([:])
    /// Numbers the messages this process queues (a tie-breaker within one clock tick).
    static let sequence = Atomic<UInt64>(0)

    /// The classes a message may be made of: Foundation's property-list and value classes.
    public static let messageClasses: Set<String> = ["NSString", "NSNumber", "NSArray", "NSDictionary", "NSData", "NSDate", "NSNull",
                                                     "NSURL", "NSUUID", "NSSet", "NSOrderedSet", "NSValue"]

    /// A wormhole in `containerPath` (an App Group container, or any folder for now), in its
    /// subfolder `optionalDirectory` when given (created when missing).
    public init(containerPath: String, optionalDirectory: String? = nil, transiting: Transiting = .file,
                notifications: NotifyCenter = .shared, coordination: CoordinationSpace = .shared) throws(WormholeError) {
        if let optionalDirectory { _ = try Self.fileName(optionalDirectory, suffix: "") }
        directory = containerPath + (optionalDirectory.map { "/" + $0 } ?? "")
        self.transiting = transiting
        self.notifications = notifications
        coordinator = FileCoordinator(space: coordination)
        do { try FileSystem.makeDirectories(directory) } catch { throw .system(error) }
    }

    /// `IDENTIFIER.archive`, after checking that the identifier names a file in the folder.
    static func fileName(_ identifier: String, suffix: String = ".archive") throws(WormholeError) -> String {
        if identifier.isEmpty { throw .invalidIdentifier(identifier, reason: "it is empty") }
        if identifier.contains("/") { throw .invalidIdentifier(identifier, reason: "it holds a '/'") }
        if identifier == "." || identifier == ".." { throw .invalidIdentifier(identifier, reason: "it names a folder") }
        if identifier.utf8.contains(0) { throw .invalidIdentifier(identifier, reason: "it holds a NUL byte") }
        if identifier.utf8.count + suffix.utf8.count > 255 { throw .invalidIdentifier(identifier, reason: "a file name is at most 255 bytes") }
        return identifier + suffix
    }

    /// The path of the identifier's message file.
    public func path(forIdentifier identifier: String) throws(WormholeError) -> String {
        directory + "/" + (try Self.fileName(identifier))
    }

    // MARK: One message per identifier

    /// Writes `message` as the identifier's message (replacing the last one) and posts the
    /// identifier's notification; with `nil`, only posts. `passMessageObject:identifier:`.
    public func passMessage(_ message: ArchivedValue?, identifier: String) throws(WormholeError) {
        let path = try path(forIdentifier: identifier)
        _ = try NotificationName.validateForWormhole(identifier)
        if let message {
            let bytes: [UInt8]
            do { bytes = try KeyedArchiver.archivedData(withRootValue: message) } catch { throw .unarchivable(error) }
            try storeMessage(bytes, at: path)
        }
        do { try notifications.post(identifier) } catch { throw .notification(error) }
    }

    /// The identifier's last message; `nil` when there is none. `messageWithIdentifier:`.
    public func message(identifier: String) throws(WormholeError) -> ArchivedValue? {
        let path = try path(forIdentifier: identifier)
        guard let bytes = try loadMessage(at: path) else { return nil }
        return try Self.decode(bytes, path: path)
    }

    /// Removes the identifier's message. `clearMessageContentsForIdentifier:`.
    public func clearMessageContents(identifier: String) throws(WormholeError) {
        let path = try path(forIdentifier: identifier)
        try remove(path)
    }

    /// Removes every message file in the folder; as in MMWormhole, only when the wormhole has
    /// its own subfolder (never the whole container). `clearAllMessageContents`.
    public func clearAllMessageContents(hasOwnDirectory: Bool = true) throws(WormholeError) {
        guard hasOwnDirectory else { return }
        for name in FileSystem.entries(of: directory) where name.hasSuffix(".archive") { try remove(directory + "/" + name) }
    }

    /// Calls `listener` with the identifier's message after each pass (on the notification
    /// center's delivery thread); one listener per identifier, a second replaces the first.
    /// `listenForMessageWithIdentifier:listener:`.
    public func listenForMessage(identifier: String, listener: @escaping @Sendable (ArchivedValue?) -> Void) throws(WormholeError) {
        _ = try path(forIdentifier: identifier)
        stopListeningForMessage(identifier: identifier)
        do {
            let token = try notifications.register(identifier) { [self] _ in listener(try? message(identifier: identifier)) }
            listeners.withLock { $0[identifier] = token }
        } catch {
            throw .notification(error)
        }
    }

    /// Stops calling the identifier's listener. `stopListeningForMessageWithIdentifier:`.
    public func stopListeningForMessage(identifier: String) {
        if let token = listeners.withLock({ $0.removeValue(forKey: identifier) }) { try? notifications.cancel(token) }
    }

    func setListener(_ token: NotificationToken, for key: String) { listeners.withLock { $0[key] = token } }

    // MARK: Files

    func storeMessage(_ bytes: [UInt8], at path: String) throws(WormholeError) {
        switch transiting {
        case .file:
            do { try AtomicWriter.writeContents(bytes, to: path) } catch { throw .coordination(error) }
        case .coordinatedFile:
            let failure = try coordinated { () throws(CoordinationError) -> CoordinationError? in
                try coordinator.coordinate(writingItemAt: path) { path -> CoordinationError? in
                    do throws(CoordinationError) { try AtomicWriter.writeContents(bytes, to: path); return nil } catch { return error }
                }
            }
            if let failure { throw .coordination(failure) }
        }
    }

    func loadMessage(at path: String) throws(WormholeError) -> [UInt8]? {
        let result: Result<[UInt8], SystemCallError>
        switch transiting {
        case .file:
            result = Result { () throws(SystemCallError) in try FileSystem.read(path) }
        case .coordinatedFile:
            result = try coordinated { () throws(CoordinationError) in
                try coordinator.coordinate(readingItemAt: path) { path in Result { () throws(SystemCallError) in try FileSystem.read(path) } }
            }
        }
        switch result {
        case .success(let bytes): return bytes
        case .failure(let error) where error.errno == .noSuchFileOrDirectory: return nil
        case .failure(let error): throw .system(error)
        }
    }

    func remove(_ path: String) throws(WormholeError) {
        let failure: SystemCallError?
        switch transiting {
        case .file: failure = Self.removeFile(path)
        case .coordinatedFile:
            failure = try coordinated { () throws(CoordinationError) in
                try coordinator.coordinate(writingItemAt: path, options: .forDeleting) { path in Self.removeFile(path) }
            }
        }
        if let failure { throw .system(failure) }
    }

    private static func removeFile(_ path: String) -> SystemCallError? {
        do throws(SystemCallError) { try FileSystem.remove(path); return nil } catch where error.errno == .noSuchFileOrDirectory { return nil } catch { return error }
    }

    private func coordinated<T>(_ body: () throws(CoordinationError) -> T) throws(WormholeError) -> T {
        do { return try body() } catch { throw .coordination(error) }
    }

    static func decode(_ bytes: [UInt8], path: String) throws(WormholeError) -> ArchivedValue {
        do { return try KeyedUnarchiver.unarchivedValue(from: bytes, allowing: messageClasses) } catch { throw .unreadableMessage(path: path, error) }
    }
}

extension NotificationName {
    /// Checks that a wormhole identifier is also a valid notification name.
    static func validateForWormhole(_ identifier: String) throws(WormholeError) -> Scope {
        do { return try validate(identifier) } catch { throw .notification(error) }
    }
}
