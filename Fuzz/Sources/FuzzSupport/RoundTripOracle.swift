// Every target that uses the oracles also needs the driver.
@_exported import FuzzDriver
import PropertyLists


/// The check every fuzz target runs: parse the input as one format and, when it parses, write it
/// back and read it again. The binary round trip must give the same value; XML written from the
/// XML reading must be the same bytes (XML dates hold whole seconds, so XML compares as a fixed
/// point); a container JSON can hold must read back from JSON as the same value. A failure
/// traps, which libFuzzer records as a crash.
public func checkRoundTrip(_ start: UnsafePointer<UInt8>, _ count: Int, as format: PropertyListFormat) {
    var options = PropertyListReadOptions()
    options.maximumExpandedNodes = 4096  // keeps each run fast; the default limit has its own test
    guard let document = try? PropertyListReader.read(UnsafeRawBufferPointer(start: start, count: count), as: format, options: options)
    else { return }
    let binary = BinaryPropertyListWriter().write(document.value)
    guard let again = try? PropertyListReader.read(binary) else { fatalError("our own binary output did not read back") }
    precondition(again.value == document.value, "binary round trip changed the value")
    if let xml = try? XMLPropertyListWriter().write(document.value) {
        guard let fromXML = try? PropertyListReader.read(xml) else { fatalError("our own XML output did not read back") }
        guard let rewritten = try? XMLPropertyListWriter().write(fromXML.value) else { fatalError("XML reading could not be written") }
        precondition(rewritten == xml, "XML round trip changed the value")
    }
    switch document.value {
    case .array, .dictionary:
        // Refused when it holds a date, data, a UID or a non-finite real; otherwise it must come back.
        guard let json = try? JSONPropertyListWriter(nonJSONValues: .refuse).write(document.value) else { break }
        var jsonOptions = PropertyListReadOptions()
        jsonOptions.readsJSON = true
        guard let fromJSON = try? PropertyListReader.read(json, options: jsonOptions) else { fatalError("our own JSON output did not read back") }
        precondition(fromJSON.value == document.value, "JSON round trip changed the value")
    default: break
    }
}
