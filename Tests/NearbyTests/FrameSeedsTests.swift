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
