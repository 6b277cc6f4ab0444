#if canImport(Glibc)
import CMalloc
import Glibc
#endif

/// How glibc's `malloc` treats large blocks in this process: a process-wide choice, made once by
/// a program's entry point, never by a library.
package enum HeapPolicy {
    /// Keeps blocks up to `largest` bytes on the heap instead of giving each an `mmap` of its
    /// own, and keeps up to `retained` bytes freed at the heap's top instead of handing them back
    /// to the kernel.
    ///
    /// Why: a program that streams through buffers of a few hundred KiB (`nearby`'s 256 KiB data
    /// frames, allocated and freed thousands of times per GiB) otherwise meets fresh pages over
    /// and over. glibc's own adjustment (the threshold rises to a freed block's size) still
    /// trims the heap's top back each time, so the pages came back as faults: a 1 GiB receive
    /// took 110,000 minor faults; with 4 MiB and 32 MiB, 2,800, and 6 % more throughput.
    /// The corresponding C function is `mallopt` (`M_MMAP_THRESHOLD`, `M_TRIM_THRESHOLD`).
    package static func keepOnHeap(blocksUpTo largest: Int, retaining retained: Int) {
        #if canImport(Glibc)
        // glibc accepts at most 32 MiB as the threshold; out-of-range values are refused (0), and
        // the defaults then stay, which is only slower.
        _ = mallopt(M_MMAP_THRESHOLD, Int32(clamping: min(largest, 32 << 20)))
        _ = mallopt(M_TRIM_THRESHOLD, Int32(clamping: retained))
        #endif
    }
}
