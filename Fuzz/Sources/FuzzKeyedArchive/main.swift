import FuzzSupport

/// libFuzzer entry point for the keyed-archive decoder: the archive oracle of FuzzSupport.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeyedArchive(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    checkKeyedArchive(start, count)
    return 0
}

/// SwiftPM names an executable's entry point after its target.
@_cdecl("FuzzKeyedArchive_main")
public func fuzzKeyedArchiveMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzKeyedArchive)
}
