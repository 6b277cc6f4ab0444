// glibc's malloc tuning (mallopt, mallinfo2), which Swift's Glibc module does not export:
// plutil readies the heap for a large parse with it (Sources/plutil/HeapReservation.swift), and
// SystemCalls' HeapPolicy keeps large blocks on the heap.
#include <malloc.h>
