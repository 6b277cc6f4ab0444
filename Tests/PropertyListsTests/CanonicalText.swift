import Foundation
import PropertyLists
import TestHelpers

/// A canonical, type-tagged text of a property list that Python's plistlib can produce too, so
/// the two readers' trees can be compared exactly (reals by bit pattern, strings by UTF-8 bytes).
enum CanonicalText {
    static func of(_ value: PropertyList) -> String {
        switch value {
        case .string(let s): return "s:" + hex(Array(s.utf8))
        case .integer(let i): return "i:\(i)"
        case .unsignedInteger(let u): return "i:\(u)"
        case .real(let r): return "r:\(r.bitPattern)"
        case .bool(let b): return b ? "T" : "F"
        case .date(let d): return "t:\(Int64(d.secondsSinceReferenceDate))"
        case .data(let d): return "b:" + hex(d)
        case .uid(let u): return "u:\(u)"
        case .array(let a): return "[" + a.map(of).joined(separator: ",") + "]"
        case .dictionary(let d):
            let entries = d.map { (hex(Array($0.key.utf8)), of($0.value)) }.sorted { $0.0 < $1.0 }
            return "{" + entries.map { "\($0.0)=\($0.1)" }.joined(separator: ",") + "}"
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// The Python program that prints the same canonical text for each file named on its command line.
    static let python = #"""
import plistlib, struct, sys, datetime
def h(b): return b.hex()
def c(v):
    if isinstance(v, bool): return "T" if v else "F"
    if isinstance(v, int): return "i:%d" % v
    if isinstance(v, float): return "r:%d" % struct.unpack("<Q", struct.pack("<d", v))[0]
    if isinstance(v, str): return "s:" + h(v.encode("utf-8"))
    if isinstance(v, bytes): return "b:" + h(v)
    if isinstance(v, plistlib.UID): return "u:%d" % v.data
    if isinstance(v, datetime.datetime):
        return "t:%d" % int((v - datetime.datetime(2001, 1, 1)).total_seconds())
    if isinstance(v, list): return "[" + ",".join(c(x) for x in v) + "]"
    if isinstance(v, dict):
        items = sorted((h(k.encode("utf-8")), c(x)) for k, x in v.items())
        return "{" + ",".join("%s=%s" % kv for kv in items) + "}"
    raise TypeError(type(v))
for path in sys.argv[1:]:
    with open(path, "rb") as f:
        print(c(plistlib.load(f)))
"""#

    /// plistlib's canonical text for each file, in order.
    static func pythonReading(_ files: [URL]) throws -> [String] {
        let run = try TestSupport.run("/usr/bin/env", ["python3", "-c", python] + files.map(\.path))
        guard run.status == 0 else { throw PythonFailure(message: run.stderr) }
        return run.out.split(separator: "\n").map(String.init)
    }

    struct PythonFailure: Error { var message: String }
}
