import FuzzSupport
@_spi(Fuzzing) import Nearby

/// libFuzzer entry point for LocalSend's JSON bodies and request targets (`FuzzEntry.localSend`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLocalSend(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzEntry.localSend(Array(UnsafeBufferPointer(start: start, count: count)))
    return 0
}

/// SwiftPM names an executable's entry point after its target.
@_cdecl("FuzzLocalSend_main")
public func fuzzLocalSendMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzLocalSend)
}
