import FuzzSupport
@_spi(Fuzzing) import Nearby

/// libFuzzer entry point for `PairingMessage.decode` and its round trip (`FuzzEntry.pairingMessage`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPairingMessage(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzEntry.pairingMessage(Array(UnsafeBufferPointer(start: start, count: count)))
    return 0
}

/// SwiftPM names an executable's entry point after its target.
@_cdecl("FuzzPairingMessage_main")
public func fuzzPairingMessageMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzPairingMessage)
}
