#if canImport(Glibc)
import CMalloc
import Glibc

/// Readies the heap for reading one large property list: the memory the parse will touch is
/// taken from the kernel at once and backed by 2 MiB pages.
///
/// Why: `plutil` is a fresh process per file, and a fresh process meets every 4 KiB page it
/// touches with a page fault (about 2 µs each here, zeroing included). Reading a 3.8 MB XML plist
/// touches about 13 MB (the input and the tree), 3,300 faults, which was 6.6 ms of a 23 ms run;
/// with 2 MiB pages that is a handful of faults. glibc's `glibc.malloc.hugetlb=1` tunable does the
/// same, but only from the environment at start-up, so this is its equivalent for one process.
///
/// How: the heap's top is grown once by an estimate of what the parse needs (`M_TOP_PAD`), kept
/// from being trimmed back, and marked `MADV_HUGEPAGE`; big buffers are kept on that heap rather
/// than in `mmap`ed blocks of their own (`M_MMAP_THRESHOLD`). Untouched parts of the reservation
/// cost only address space. Where transparent huge pages are off, the advice changes nothing.
///
/// The raw libc calls of `plutil` live here, in one small file, until the typed syscall layer has
/// these too.
enum HeapReservation {
    /// Files smaller than this start fast anyway: a 2 MiB page is zeroed whole on first touch,
    /// which would cost a small file more than its 4 KiB faults.
    static let threshold = 1 << 20

    /// Bytes of heap per input byte: a binary plist's tree takes about 7 times its size (the
    /// XML form's, 2.5 times plus the input), so 8 covers both.
    static let bytesPerInputByte = 8

    /// The most that is reserved, whatever the input's size.
    static let maximum = 1 << 30

    /// How much is reserved already.
    nonisolated(unsafe) private static var reserved = 0

    /// Makes room for the parse of a file of `inputSize` bytes; does nothing below ``threshold``
    /// or when an earlier call reserved enough.
    static func prepare(forInputOf inputSize: Int) {
        guard inputSize >= threshold else { return }
        let wanted = min(maximum, inputSize.multipliedReportingOverflow(by: bytesPerInputByte).overflow
            ? maximum : inputSize * bytesPerInputByte + (4 << 20))
        guard wanted > reserved else { return }
        // 32 MiB is the most glibc accepts; every buffer below it then comes from the heap.
        mallopt(M_MMAP_THRESHOLD, 32 << 20)
        // Growing and trimming both leave `M_TOP_PAD` bytes free at the top, so a free() of the
        // input buffer hands nothing back to the kernel.
        mallopt(M_TOP_PAD, Int32(clamping: wanted))
        // One allocation just larger than the free top makes malloc grow the heap now, by the pad.
        let request = min(Int(mallinfo2().keepcost) + 4096, 32 << 20)
        guard let block = malloc(request) else { return }
        free(block)
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = Int(bitPattern: block) & ~(pageSize - 1)
        let end = Int(bitPattern: sbrk(0))
        guard end > start else { return }
        if madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_HUGEPAGE) == 0 {
            reserved = wanted
        }
    }
}
#else
/// No reservation where glibc's malloc is not the allocator.
enum HeapReservation {
    /// Does nothing on this platform.
    static func prepare(forInputOf inputSize: Int) {}
}
#endif
