import FuzzSupport

/// libFuzzer entry point for the OpenStep reader: the round-trip oracle of FuzzSupport.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenStep(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    checkRoundTrip(start, count, as: .openStep)
    return 0
}

/// SwiftPM names an executable's entry point after its target.
@_cdecl("FuzzOpenStep_main")
public func fuzzOpenStepMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzOpenStep)
}
