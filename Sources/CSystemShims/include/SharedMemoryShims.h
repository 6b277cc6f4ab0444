// Atomic access to words in memory shared between processes (a MAP_SHARED file mapping), and the
// futex calls that wait on and wake such a word. Swift's Atomic type cannot be placed at an
// address inside a mapping, and glibc has no futex wrapper: both are a line of C each.
#ifndef SHAREDMEMORYSHIMS_H
#define SHAREDMEMORYSHIMS_H
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>

/// The 32-bit word at `p`, read (sequentially consistent).
static inline uint32_t di_atomic_load_u32(const void *p) { return __atomic_load_n((const uint32_t *)p, __ATOMIC_SEQ_CST); }
/// Adds `v` to the 32-bit word at `p` (sequentially consistent); the new value.
static inline uint32_t di_atomic_add_u32(void *p, uint32_t v) { return __atomic_add_fetch((uint32_t *)p, v, __ATOMIC_SEQ_CST); }
/// Subtracts `v` from the 32-bit word at `p` (sequentially consistent); the new value.
static inline uint32_t di_atomic_sub_u32(void *p, uint32_t v) { return __atomic_sub_fetch((uint32_t *)p, v, __ATOMIC_SEQ_CST); }
/// The 64-bit word at `p`, read (sequentially consistent).
static inline uint64_t di_atomic_load_u64(const void *p) { return __atomic_load_n((const uint64_t *)p, __ATOMIC_SEQ_CST); }
/// Adds `v` to the 64-bit word at `p` (sequentially consistent); the new value.
static inline uint64_t di_atomic_add_u64(void *p, uint64_t v) { return __atomic_add_fetch((uint64_t *)p, v, __ATOMIC_SEQ_CST); }
/// Stores `v` in the 32-bit word at `p` when it holds `expected`; 1 when it did.
static inline int di_atomic_cas_u32(void *p, uint32_t expected, uint32_t v) {
    return __atomic_compare_exchange_n((uint32_t *)p, &expected, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

/// futex(FUTEX_WAIT) on a word shared between processes: sleeps while `*p == expected`, at most
/// `timeout` (NULL: no limit). 0 when woken, -1 with errno (EAGAIN: the word had changed,
/// ETIMEDOUT, EINTR).
static inline int di_futex_wait(void *p, uint32_t expected, const struct timespec *timeout) {
    return (int)syscall(SYS_futex, (uint32_t *)p, FUTEX_WAIT, expected, timeout, NULL, 0);
}

/// futex(FUTEX_WAKE): wakes up to `count` waiters on the word at `p`; how many were woken.
static inline int di_futex_wake(void *p, int count) {
    return (int)syscall(SYS_futex, (uint32_t *)p, FUTEX_WAKE, count, NULL, NULL, 0);
}
#endif
