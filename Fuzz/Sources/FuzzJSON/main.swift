import FuzzSupport

/// libFuzzer entry point for the JSON reader: the round-trip oracle of FuzzSupport.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    checkRoundTrip(start, count, as: .json)
    return 0
}

/// SwiftPM names an executable's entry point after its target.
@_cdecl("FuzzJSON_main")
public func fuzzJSONMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzJSON)
}
