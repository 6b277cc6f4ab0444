import FuzzSupport

/// libFuzzer entry point for the Binary reader: the round-trip oracle of FuzzSupport.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinary(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    checkRoundTrip(start, count, as: .binary)
    return 0
}

/// SwiftPM names an executable's entry point after its target.
@_cdecl("FuzzBinary_main")
public func fuzzBinaryMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzBinary)
}
