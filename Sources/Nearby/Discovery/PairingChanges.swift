import SystemCalls

/// The changes of a device's paired devices (`ROOT/Nearby/Paired.plist`, which `nearby pair` and
/// `unpair` replace by a rename, from any process), as they happen: inotify on the folder, read
/// on a thread of its own.
///
/// A receiver announces tags its paired devices recognise; built only at start and once per
/// discovery epoch, a device paired while the receiver ran was "not seen" for up to 15 minutes.
enum PairingChanges {
    /// A stream that yields once per change of `folder`'s paired list (bursts may merge), until
    /// the stream is dropped or its consumer cancelled.
    static func stream(_ folder: NearbyFolder) throws(NearbyError) -> AsyncStream<Void> {
        try folder.create()
        let inotify: Inotify, stop: Pipe
        do {
            inotify = try Inotify()
            _ = try inotify.watch(folder.path, for: [.movedIn, .closedAfterWriting, .deleted, .movedOut])
            stop = try Pipe()
        } catch { throw .system(error) }
        let name = Array("Paired.plist".utf8)
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let stopWriter = stop.write
        continuation.onTermination = { _ in _ = try? stopWriter.writeAll([1]) }
        do {
            try BackgroundThread.start {
                while true {
                    guard let ready = try? Poll.readable([inotify.descriptor, stop.read], timeout: nil) else { break }
                    if ready[1] { break }
                    guard ready[0], let events = try? inotify.pendingEvents() else { continue }
                    if events.contains(where: { $0.name == name || $0.events.contains(.overflow) }) { continuation.yield() }
                }
                continuation.finish()
            }
        } catch { throw .system(error) }
        return stream
    }
}
