// See include/CSystemShims.h. _GNU_SOURCE: the calls below are GNU extensions.
#define _GNU_SOURCE
#include <spawn.h>
#include <unistd.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include "CSystemShims.h"

int di_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int di_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

short di_spawn_setsid_flag(void) { return POSIX_SPAWN_SETSID; }

int di_ofd_trylock_range(int fd, int exclusive, long long start, long long length) {
    struct flock lock = {0};
    lock.l_type = exclusive ? F_WRLCK : F_RDLCK;
    lock.l_whence = SEEK_SET;
    lock.l_start = (off_t)start;
    lock.l_len = (off_t)length;
    return fcntl(fd, F_OFD_SETLK, &lock);
}

int di_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int di_mutex_lock_monotonic(pthread_mutex_t *mutex, const struct timespec *deadline) {
    return pthread_mutex_clocklock(mutex, CLOCK_MONOTONIC, deadline);
}

long di_recv_with_credentials(int fd, void *buffer, unsigned long length, unsigned int *uid, int *pid) {
    struct iovec io = {.iov_base = buffer, .iov_len = length};
    union { struct cmsghdr header; char space[CMSG_SPACE(sizeof(struct ucred))]; } control;
    struct msghdr message = {.msg_iov = &io, .msg_iovlen = 1, .msg_control = &control, .msg_controllen = sizeof control};
    *uid = (unsigned int)-1;
    *pid = -1;
    ssize_t n = recvmsg(fd, &message, MSG_CMSG_CLOEXEC);
    if (n < 0) return -1;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&message); c != NULL; c = CMSG_NXTHDR(&message, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS) {
            struct ucred credentials;
            memcpy(&credentials, CMSG_DATA(c), sizeof credentials);
            *uid = credentials.uid;
            *pid = credentials.pid;
        }
    }
    return (long)n;
}

int di_pass_credentials(int fd) {
    int on = 1;
    return setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &on, sizeof on);
}
