import FuzzSupport
@_spi(Fuzzing) import Nearby

/// libFuzzer entry point for AirDrop's Ask and Discover plists and upload archives (`FuzzEntry.airDrop`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAirDrop(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzEntry.airDrop(Array(UnsafeBufferPointer(start: start, count: count)))
    return 0
}

/// SwiftPM names an executable's entry point after its target.
@_cdecl("FuzzAirDrop_main")
public func fuzzAirDropMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzAirDrop)
}
