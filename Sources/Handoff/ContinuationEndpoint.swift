import Synchronization
import SystemCalls

/// Where an offering app's process is reached by its device's Handoff channel: a socket named
/// `PID.socket` beside the offers (``CurrentActivities/folder``, 0700, so only the user's own
/// processes connect). The receiver connects when a paired device continued the activity
/// (``ContinuationFrame/continued(madeCurrent:)``) or opened streams to it
/// (``ContinuationFrame/streams(madeCurrent:)``, after which the connection carries them).
///
/// Hand-written on a thread of its own rather than on an event loop: an app that offers an
/// activity should not have to run SwiftNIO, and a connection is rare and short of state.
public final class ContinuationEndpoint: Sendable {
    /// What reached the process.
    public enum Request: Sendable {
        /// The activity made current at `madeCurrent` was continued on another device.
        case continued(madeCurrent: Double)
        /// The device continuing the activity made current at `madeCurrent` opened streams: they
        /// travel on `channel` (data, then ``ContinuationFrame/finished``).
        case streams(madeCurrent: Double, channel: ContinuationChannel)
    }

    /// The socket file's path.
    public let path: String
    private let listener: OwnedDescriptor
    private let folder: OwnedDescriptor
    private let name: String
    private let stopped = StopFlag()
    /// How often the accepting thread looks whether it was closed.
    static let pollInterval = 0.1

    /// The name of the socket of process `processIdentifier`.
    public static func socketName(_ processIdentifier: Int32) -> String { "\(processIdentifier).socket" }

    /// Listens for this process (`processIdentifier`) on `board`'s device and hands each request
    /// to `handler`, on a thread of its own per connection.
    public init(board: CurrentActivities, processIdentifier: Int32, handler: @escaping @Sendable (Request) -> Void) throws(HandoffError) {
        name = Self.socketName(processIdentifier)
        path = board.folder + "/" + name
        do {
            try FileSystem.makeDirectories(board.folder, permissions: 0o700)
            folder = try OwnedDescriptor.openFolder(board.folder, followLinks: true)
            // A file of this name is a socket of an earlier process with this pid, which ended.
            try? folder.remove(Array(name.utf8))
            listener = try StreamSocket.listen(in: folder, name: name)
        } catch { throw .system("\(path): \(error)") }
        let listener = self.listener, stopped = self.stopped
        do {
            try BackgroundThread.start {
                while !stopped.value.load(ordering: .relaxed) {
                    guard (try? Poll.readable([listener], timeout: Self.pollInterval))?.first == true,
                          let connection = try? StreamSocket.accept(listener) else { continue }
                    try? BackgroundThread.start { Self.serve(ContinuationChannel(connection), handler) }
                }
            }
        } catch { throw .system("\(path): \(error)") }
    }

    /// Stops listening and removes the socket file.
    public func close() {
        guard !stopped.value.exchange(true, ordering: .relaxed) else { return }
        try? folder.remove(Array(name.utf8))
    }

    deinit { close() }

    /// Reads a connection's first frame and hands the request on; anything else closes it.
    static func serve(_ channel: ContinuationChannel, _ handler: @Sendable (Request) -> Void) {
        switch try? channel.read() {
        case .continued(let time)?:
            channel.close()
            handler(.continued(madeCurrent: time))
        case .streams(let time)?:
            handler(.streams(madeCurrent: time, channel: channel))
        default:
            channel.close()
        }
    }

    /// The receiver's side: connects to the offering process `processIdentifier` on `board`'s
    /// device and sends `first` (``ContinuationFrame/continued(madeCurrent:)`` or
    /// ``ContinuationFrame/streams(madeCurrent:)``).
    public static func connect(board: CurrentActivities, processIdentifier: Int32, sending first: ContinuationFrame) throws(HandoffError) -> ContinuationChannel {
        let name = socketName(processIdentifier)
        let channel: ContinuationChannel
        do {
            let folder = try OwnedDescriptor.openFolder(board.folder, followLinks: true)
            channel = ContinuationChannel(try StreamSocket.connect(in: folder, name: name))
        } catch { throw .system("the app's process \(processIdentifier) cannot be reached at \(board.folder)/\(name): \(error)") }
        try channel.write(first)
        return channel
    }
}

/// Whether the accepting thread should stop: a reference the thread and the endpoint share.
private final class StopFlag: Sendable {
    let value = Atomic<Bool>(false)
}
