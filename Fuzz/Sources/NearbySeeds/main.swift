#if canImport(Glibc)
import Glibc
#endif
@_spi(Fuzzing) import Nearby

/// Writes the seeds of the Nearby targets (`FuzzEntry.seeds`: every message kind encoded, and
/// framed sessions and pairings) into the folder given, `Seeds` by default: one folder per target
/// (`nearby-frames`, `nearby-session`, `nearby-pairing`), since libFuzzer takes folders.
@_cdecl("NearbySeeds_main")
public func nearbySeedsMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    let root = argc > 1 ? String(cString: argv[1]!) : "Seeds"
    for (name, bytes) in FuzzEntry.seeds {
        let path = root + "/" + name
        let folder = String(path[..<path.lastIndex(of: "/")!])
        _ = mkdir(root, 0o755)
        _ = mkdir(folder, 0o755)
        guard let file = fopen(path, "wb"), fwrite(bytes, 1, bytes.count, file) == bytes.count, fclose(file) == 0 else {
            print("NearbySeeds: cannot write \(path)")
            return 1
        }
    }
    return 0
}

/// Unused, but the package's builds link libFuzzer, whose objects refer to it: without it gold
/// fails with an internal error instead of naming the missing symbol.
@_cdecl("LLVMFuzzerTestOneInput")
public func nearbySeedsUnused(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt { 0 }
