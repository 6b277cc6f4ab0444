import PropertyLists

/// libFuzzer entry point: parse the input as Binary and, when it parses, write it back and read it
/// again: the binary round trip must give the same value, and XML written from the XML reading
/// must be the same bytes (XML dates hold whole seconds, so XML compares as fixed point).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinary(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    var options = PropertyListReadOptions()
    options.maximumExpandedNodes = 4096  // keeps each run fast; the default limit has its own test
    guard let document = try? PropertyListReader.read(bytes, as: .binary, options: options) else { return 0 }
    let binary = BinaryPropertyListWriter().write(document.value)
    guard let again = try? PropertyListReader.read(binary) else { fatalError("our own binary output did not read back") }
    precondition(again.value == document.value, "binary round trip changed the value")
    if let xml = try? XMLPropertyListWriter().write(document.value) {
        guard let fromXML = try? PropertyListReader.read(xml) else { fatalError("our own XML output did not read back") }
        guard let again = try? XMLPropertyListWriter().write(fromXML.value) else { fatalError("XML reading could not be written") }
        precondition(again == xml, "XML round trip changed the value")
    }
    return 0
}

/// SwiftPM names an executable's entry point after its target; hand it to libFuzzer's driver.
@_cdecl("FuzzBinary_main")
public func fuzzBinaryMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzBinary)
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt
