@_spi(Fuzzing) import Nearby
import Testing

/// The frame decoder's fuzz target holds for its own seeds, and for each seed cut at many places:
/// a data frame's payload comes in pieces, each the stream's next bytes.
@Suite struct FrameSeedsTests {
    @Test func theFrameTargetHoldsForItsSeedsCutAnywhere() {
        for (name, bytes) in FuzzEntry.seeds where name.hasPrefix("nearby-frames/") {
            FuzzEntry.frames(bytes)
            let stream = Array(bytes.dropFirst(1 + 3 * Int(bytes[0] & 3)))
            for step in [1, 2, 3, 5, 7, 4096, 70_001] {
                let cuts = stride(from: step, to: min(stream.count, 3 * step + 1), by: step).prefix(3).map { $0 }
                var input: [UInt8] = [UInt8(cuts.count)]
                for cut in cuts { input += [UInt8(cut >> 16), UInt8((cut >> 8) & 0xFF), UInt8(cut & 0xFF)] }
                FuzzEntry.frames(input + stream)
            }
        }
    }
}
