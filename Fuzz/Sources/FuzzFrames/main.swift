import FuzzSupport
@_spi(Fuzzing) import Nearby

/// libFuzzer entry point for Nearby's frame decoder: a TLS stream in slices through a real
/// pipeline, each message frame decoded as both kinds of message (`FuzzEntry.frames`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrames(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzEntry.frames(Array(UnsafeBufferPointer(start: start, count: count)))
    return 0
}

/// SwiftPM names an executable's entry point after its target.
@_cdecl("FuzzFrames_main")
public func fuzzFramesMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzFrames)
}
