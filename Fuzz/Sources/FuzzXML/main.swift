import FuzzSupport

/// libFuzzer entry point for the XML reader: the round-trip oracle of FuzzSupport.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXML(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    checkRoundTrip(start, count, as: .xml)
    return 0
}

/// SwiftPM names an executable's entry point after its target.
@_cdecl("FuzzXML_main")
public func fuzzXMLMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzXML)
}
