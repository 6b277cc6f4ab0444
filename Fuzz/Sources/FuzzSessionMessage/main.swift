import FuzzSupport
@_spi(Fuzzing) import Nearby

/// libFuzzer entry point for `SessionMessage.decode` and its round trip (`FuzzEntry.sessionMessage`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSessionMessage(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzEntry.sessionMessage(Array(UnsafeBufferPointer(start: start, count: count)))
    return 0
}

/// SwiftPM names an executable's entry point after its target.
@_cdecl("FuzzSessionMessage_main")
public func fuzzSessionMessageMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzSessionMessage)
}
