import Synchronization
import SystemCalls

/// A connected local socket that carries ``ContinuationFrame``s: between the offering app and its
/// device's receiver, or between the continuing app and its helper (`nearby continuation-streams`).
/// Blocking; one thread may read while another writes (a stream's two directions).
public final class ContinuationChannel: Sendable {
    let socket: OwnedDescriptor
    /// What was read past the last frame returned.
    private let buffered = Mutex<(bytes: [UInt8], start: Int)>(([], 0))
    /// The largest single read.
    static let readSize = 1 << 16

    /// Frames over the connected socket `socket`.
    package init(_ socket: OwnedDescriptor) { self.socket = socket }

    /// This process's standard input, when it is a socket that is its standard output too: the
    /// helper a continuing app starts (`nearby streams`) talks to the app through it.
    public static func standardInput() -> ContinuationChannel {
        ContinuationChannel(OwnedDescriptor(taking: 0, path: "standard input"))
    }

    /// The next frame; `nil` when the peer closed between frames.
    /// - Throws: ``HandoffError/malformed(_:)`` for a frame that is not one or is cut off,
    ///   ``HandoffError/system(_:)`` when reading fails.
    public func read() throws(HandoffError) -> ContinuationFrame? {
        guard let header = try take(ContinuationFrame.headerSize, endAllowed: true) else { return nil }
        let (kind, length) = try ContinuationFrame.payloadLength(header[...])
        let payload = length == 0 ? [] : try take(length, endAllowed: false)!
        return try ContinuationFrame.decode(kind, payload)
    }

    /// Writes `frame`; data longer than ``ContinuationFrame/writeChunk`` goes as several frames
    /// (the peer takes none over ``ContinuationFrame/maximumPayload``).
    public func write(_ frame: ContinuationFrame) throws(HandoffError) {
        if case .data(let all) = frame, all.count > ContinuationFrame.writeChunk {
            for start in stride(from: 0, to: all.count, by: ContinuationFrame.writeChunk) {
                try write(.data(Array(all[start..<min(all.count, start + ContinuationFrame.writeChunk)])))
            }
            return
        }
        let bytes = frame.encoded()
        var failure: SystemCallError?
        bytes.withUnsafeBytes { raw in
            do throws(SystemCallError) { try StreamSocket.sendAll(socket, raw) } catch { failure = error }
        }
        if let failure { throw .system("\(failure)") }
    }

    /// A descriptor of the socket for a library that takes it over and closes it itself (the
    /// receiver's event loop); only before anything was read here (nothing is buffered).
    public func handOffDescriptor() throws(HandoffError) -> Int32 {
        do { return try socket.duplicateForHandOff() } catch { throw .system("\(error)") }
    }

    /// Ends both directions at once: a thread blocked reading returns, and the peer reads the end.
    public func close() {
        try? StreamSocket.shutdown(socket, reading: true)
    }

    /// Exactly `count` bytes; `nil` when the peer closed before the first of them and `endAllowed`.
    private func take(_ count: Int, endAllowed: Bool) throws(HandoffError) -> [UInt8]? {
        var result: [UInt8] = []
        result.reserveCapacity(count)
        while result.count < count {
            let piece = buffered.withLock { state -> [UInt8] in
                let available = min(count - result.count, state.bytes.count - state.start)
                defer { state.start += available }
                return Array(state.bytes[state.start..<(state.start + available)])
            }
            result += piece
            if result.count == count { break }
            var chunk = [UInt8](repeating: 0, count: Self.readSize)
            var n = 0
            var failure: SystemCallError?
            chunk.withUnsafeMutableBytes { raw in
                do throws(SystemCallError) { n = try socket.read(into: raw) } catch { failure = error }
            }
            if let failure { throw .system("\(failure)") }
            if n == 0 {
                if result.isEmpty && endAllowed { return nil }
                throw .malformed("the connection ended inside a frame")
            }
            buffered.withLock { $0 = (Array(chunk[..<n]), 0) }
        }
        return result
    }
}
