import Foundation
import NIOCore
import NIOEmbedded
import TestHelpers
@_spi(Fuzzing) @testable import Nearby
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

/// LocalSend's fuzz target holds for its seeds and for each seed cut short at every length (a
/// body cut off), and every seed does decode (the seeds are valid, so libFuzzer starts inside).
@Suite struct LocalSendSeedsTests {
    @Test func theLocalSendTargetHoldsForItsSeedsCutAnywhere() throws {
        let seeds = FuzzEntry.seeds.filter { $0.name.hasPrefix("localsend/") }
        #expect(seeds.count == 5)
        for (_, bytes) in seeds {
            for length in 1...bytes.count { FuzzEntry.localSend(Array(bytes.prefix(length))) }
        }
        let device = try #require(seeds.first { $0.name == "localsend/device-nulls" })
        #expect(try LocalSendDevice.decode(device.bytes.dropFirst()).deviceModel == nil)
        let request = try #require(seeds.first { $0.name == "localsend/prepare-upload" })
        #expect(try LocalSendPrepareUpload.decode(request.bytes.dropFirst()).files.count == 2)
    }
}

/// AirDrop's fuzz target holds for its seeds cut short at every length and at every cut point.
@Suite struct AirDropSeedsTests {
    @Test func theAirDropTargetHoldsForItsSeedsCutAnywhere() throws {
        let seeds = FuzzEntry.seeds.filter { $0.name.hasPrefix("airdrop/") }
        #expect(seeds.count == 4)
        for (_, bytes) in seeds {
            for length in 2...bytes.count { FuzzEntry.airDrop(Array(bytes.prefix(length))) }
            for cut in 0...255 { FuzzEntry.airDrop([bytes[0], UInt8(cut)] + bytes.dropFirst(2)) }
        }
        for name in ["airdrop/archive", "airdrop/archive-gzip"] {
            let archive = try #require(seeds.first { $0.name == name }).bytes.dropFirst(2)
            #expect(FuzzEntry.archive(Array(archive), cuts: []) == ["./notes.txt:5", "./empty:0", "trailer"])
        }
    }
}

/// The input `FuzzFrames` stopped on within 10,000 executions (issue #43): a `finished` frame
/// whose header declares 65,536 payload bytes. The decoder refuses it (a `finished` frame
/// carries nothing); the oracle allowed it a data frame's limit and trapped on that refusal. It
/// is kept in Fuzz/Regressions and must pass the target now.
@Suite struct FrameRegressionTests {
    static let input = TestSupport.packageRoot.appendingPathComponent("Fuzz/Regressions/nearby-frames-finished-with-payload.bin")

    @Test func aFinishedFrameWithAPayloadIsRefusedAndTheOracleAgrees() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.input))
        let stream = bytes.dropFirst(1 + 3 * Int(bytes[0] & 3))
        #expect(Array(stream.prefix(5)) == [Frame.Kind.finished.rawValue, 0, 1, 0, 0])
        #expect(FrameRegressionTests.decoderRefuses(Array(stream)))
        FuzzEntry.frames(bytes)
        // An empty `finished` frame is still taken.
        #expect(!FrameRegressionTests.decoderRefuses([Frame.Kind.finished.rawValue, 0, 0, 0, 0]))
    }

    static func decoderRefuses(_ stream: [UInt8]) -> Bool {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(FrameDecoder()))
        defer { _ = try? channel.finish() }
        do { try channel.writeInbound(ByteBuffer(bytes: stream)) } catch { return error is FrameDecoder.Invalid }
        return false
    }
}
