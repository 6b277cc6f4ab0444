// Linux calls the C library declares only under _GNU_SOURCE, which Swift's Glibc module does not
// export: renameat2 (glibc 2.28+). Wrapped by hand because no Swift package exposes it.
#ifndef CSYSTEMSHIMS_H
#define CSYSTEMSHIMS_H
#include <sys/syscall.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

/// renameat2(2) with RENAME_NOREPLACE: fails with EEXIST instead of replacing the target.
static inline int di_rename_noreplace(int olddirfd, const char *oldpath, int newdirfd, const char *newpath) {
    return (int)syscall(SYS_renameat2, olddirfd, oldpath, newdirfd, newpath, RENAME_NOREPLACE);
}
#endif
