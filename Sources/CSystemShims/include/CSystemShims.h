// Linux calls the C library declares only under _GNU_SOURCE, which Swift's Glibc module does not
// export: renameat2 (glibc 2.28+), sync_file_range and file leases; and <sys/xattr.h>, which it leaves out. Wrapped
// by hand because no Swift package exposes them.
#ifndef CSYSTEMSHIMS_H
#define CSYSTEMSHIMS_H
#include <fcntl.h>
#include <pthread.h>
#include <time.h>
#include <spawn.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/xattr.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif
#ifndef F_SETLEASE
#define F_SETLEASE 1024
#endif
#ifndef O_NOATIME
#define O_NOATIME 01000000
#endif

/// statvfs(3) under a name of its own: in Swift, `statvfs(path, &info)` names the struct's
/// initializer, not the function.
static inline int di_statvfs(const char *path, struct statvfs *info) { return statvfs(path, info); }

/// open(2)'s O_NOATIME: reading does not update the access time (the file's owner only).
static const int di_o_noatime = O_NOATIME;

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

/// renameat2(2) with RENAME_EXCHANGE: swaps the two names atomically; ENOENT when either is gone.
static inline int di_rename_exchange(int olddirfd, const char *oldpath, int newdirfd, const char *newpath) {
    return (int)syscall(SYS_renameat2, olddirfd, oldpath, newdirfd, newpath, RENAME_EXCHANGE);
}

/// renameat2(2) with RENAME_NOREPLACE: fails with EEXIST instead of replacing the target.
static inline int di_rename_noreplace(int olddirfd, const char *oldpath, int newdirfd, const char *newpath) {
    return (int)syscall(SYS_renameat2, olddirfd, oldpath, newdirfd, newpath, RENAME_NOREPLACE);
}

/// sync_file_range(2) with SYNC_FILE_RANGE_WRITE: starts writeback of the range's dirty pages
/// and returns without waiting for it.
static inline int di_start_writeback(int fd, off_t offset, off_t length) {
    return (int)syscall(SYS_sync_file_range, fd, offset, length, 2 /* SYNC_FILE_RANGE_WRITE */);
}

/// Whether no other process has `fd`'s file open for writing: a read lease (F_SETLEASE, F_RDLCK)
/// is granted only then. Returns 0 when none does (the lease is released again), else -1 with
/// errno (EAGAIN: a writer has it open; EACCES: the caller may not take leases on it).
static inline int di_no_other_writer(int fd) {
    if (fcntl(fd, F_SETLEASE, F_RDLCK) != 0) return -1;
    fcntl(fd, F_SETLEASE, F_UNLCK);
    return 0;
}

/// signalfd(2) for `mask` (the signals must be blocked first), close-on-exec.
static inline int di_signalfd(const sigset_t *mask) {
    return signalfd(-1, mask, SFD_CLOEXEC);
}
/// pipe2(2) with O_CLOEXEC: both ends closed in started programs.
int di_pipe_cloexec(int fds[2]);

/// posix_spawn_file_actions_addchdir_np (glibc 2.29+): the child starts in `path`.
int di_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path);
/// posix_spawn_file_actions_addclosefrom_np (glibc 2.34+): every descriptor from `from` up is
/// closed in the child.
int di_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from);
/// fcntl(F_OFD_SETLK): an open-file-description lock on `length` bytes from `start`, shared or
/// exclusive, without waiting; -1 with errno EAGAIN when a conflicting lock is held.
int di_ofd_trylock_range(int fd, int exclusive, long long start, long long length);
/// POSIX_SPAWN_SETSID (glibc 2.26+): the child starts a session of its own.
short di_spawn_setsid_flag(void);

/// pthread_mutex_clocklock(CLOCK_MONOTONIC) (glibc 2.30+): a timed wait that a change of the
/// wall clock does not stretch or cut.
int di_mutex_lock_monotonic(pthread_mutex_t *mutex, const struct timespec *deadline);

/// Receives one datagram on `fd` (which has SO_PASSCRED set) with the sender's credentials as the
/// kernel attached them: returns the length (or -1 with errno); `uid` and `pid` are set to the
/// sender's, or to (uint32_t)-1 and -1 when none came.
long di_recv_with_credentials(int fd, void *buffer, unsigned long length, unsigned int *uid, int *pid);

/// Sets SO_PASSCRED on a Unix socket: each datagram received carries its sender's credentials.
int di_pass_credentials(int fd);
/// Socket options glibc defines only under _GNU_SOURCE or newer headers (Linux values):
/// IP_MULTICAST_ALL (Linux 2.6.31), IPV6_RECVPKTINFO (RFC 3542) and IPV6_MULTICAST_ALL (Linux 4.20).
static const int di_ip_multicast_all = 49;
static const int di_ipv6_recvpktinfo = 49;
static const int di_ipv6_multicast_all = 29;

/// Receives one datagram on a UDP socket that has IP_PKTINFO or IPV6_RECVPKTINFO set: returns its
/// length (or -1 with errno); the sender's address goes to `from` (`*from_length` bytes), the index
/// of the interface it came in on to `*interface` (0 when the kernel attached none), and
/// `*truncated` is 1 when the datagram was longer than `length` (the rest is lost).
long di_recv_with_interface(int fd, void *buffer, unsigned long length, struct sockaddr_storage *from,
                            unsigned int *from_length, unsigned int *interface, int *truncated);

/// Sends one datagram to `to` out of the interface `interface` (IP_PKTINFO or IPV6_PKTINFO by the
/// address family, which also wins over IP_MULTICAST_IF for a multicast group; 0 leaves the
/// choice to the routing table): the bytes sent, or -1 with errno.
long di_send_on_interface(int fd, const void *buffer, unsigned long length, const struct sockaddr *to,
                          unsigned int to_length, unsigned int interface);
#include "SharedMemoryShims.h"
/// accept4 with SOCK_CLOEXEC (a _GNU_SOURCE function Glibc's module does not export).
int di_accept_cloexec(int socket);

#endif
