import Foundation
import Handoff
import SystemCalls
import Testing
@testable import InterchangeKit

/// Continuation streams scheduled in a run loop, as the seed's code uses them: the delegate gets
/// the events of Foundation's streams through that run loop. The other side is a real socket
/// speaking the stream frames, as the helper and the receiver do.
@Suite struct ContinuationStreamEventsTests {
    /// Records a stream's events and reads what each `.hasBytesAvailable` offers.
    final class Recorder: NSObject, StreamDelegate, @unchecked Sendable {
        var events: [(stream: String, event: Stream.Event)] = []
        var received: [UInt8] = []
        var done = false
        let input: InputStream, output: OutputStream

        init(_ input: InputStream, _ output: OutputStream) {
            self.input = input
            self.output = output
        }

        func stream(_ aStream: Stream, handle eventCode: Stream.Event) {
            events.append((aStream === input ? "input" : "output", eventCode))
            if aStream === input, eventCode == .hasBytesAvailable {
                var buffer = [UInt8](repeating: 0, count: 7000)
                let n = input.read(&buffer, maxLength: buffer.count)
                if n > 0 { received += buffer[..<n] }
            }
            if aStream === input, eventCode == .endEncountered || eventCode == .errorOccurred { done = true }
        }
    }

    /// Opens both streams on a thread whose run loop runs until the input stream ended (at most
    /// 20 s), while `peer` plays the other side; what the delegate saw.
    func run(_ peerSide: @escaping @Sendable (ContinuationChannel) -> Void) throws -> (Recorder, [ContinuationFrame]) {
        let (ours, theirs) = try StreamSocket.pair()
        let peer = ContinuationChannel(theirs)
        let (input, output) = ContinuationStreamPair(ContinuationChannel(ours)).streams()
        let recorder = Recorder(input, output)
        let shared = recorder
        let finished = DispatchSemaphore(value: 0)
        Thread {
            for stream in [shared.input, shared.output] as [Stream] {
                stream.delegate = shared
                stream.schedule(in: .current, forMode: .default)
                stream.open()
            }
            let deadline = Date() + 20
            while !shared.done && Date() < deadline { _ = RunLoop.current.run(mode: .default, before: Date() + 0.05) }
            _ = shared.output.write([1, 2, 3], maxLength: 3)
            shared.output.close()
            shared.input.close()
            finished.signal()
        }.start()
        peerSide(peer)
        finished.wait()
        var frames: [ContinuationFrame] = []
        while let frame = try? peer.read() { frames.append(frame) }
        return (recorder, frames)
    }

    @Test func eventsComeThroughTheRunLoopUntilTheEnd() throws {
        let payload = (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let (recorder, frames) = try run { peer in
            try? peer.write(.data(Array(payload[..<12_000])))
            try? peer.write(.data(Array(payload[12_000...])))
            try? peer.write(.finished)
        }
        #expect(recorder.received == payload)
        let input = recorder.events.filter { $0.stream == "input" }.map(\.event)
        #expect(input.first == .openCompleted && input.last == .endEncountered, "\(input)")
        #expect(input.filter { $0 == .hasBytesAvailable }.count >= 2, "\(input)")
        let output = recorder.events.filter { $0.stream == "output" }.map(\.event)
        #expect(output.prefix(2) == [.openCompleted, .hasSpaceAvailable], "\(output)")
        // What this side wrote reached the other, then its end.
        #expect(frames == [.data([1, 2, 3]), .finished])
    }

    @Test func aPeerThatDiesEndsTheStreamWithAnErrorEvent() throws {
        let (recorder, _) = try run { peer in
            try? peer.write(.data([9, 9]))
            peer.close()
        }
        #expect(recorder.received == [9, 9])
        #expect(recorder.events.last { $0.stream == "input" }?.event == .errorOccurred)
        #expect(recorder.input.streamError != nil && recorder.input.streamStatus == .closed)
    }
}
