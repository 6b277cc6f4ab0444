// See include/CSystemShims.h. _GNU_SOURCE: the calls below are GNU extensions.
#define _GNU_SOURCE
#include <spawn.h>
#include <unistd.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <netinet/in.h>
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

long di_recv_with_interface(int fd, void *buffer, unsigned long length, struct sockaddr_storage *from,
                            unsigned int *from_length, unsigned int *interface, int *truncated) {
    struct iovec io = {.iov_base = buffer, .iov_len = length};
    union {
        struct cmsghdr header;
        char space[CMSG_SPACE(sizeof(struct in_pktinfo)) + CMSG_SPACE(sizeof(struct in6_pktinfo))];
    } control;
    struct msghdr message = {.msg_name = from, .msg_namelen = sizeof *from, .msg_iov = &io, .msg_iovlen = 1,
                             .msg_control = &control, .msg_controllen = sizeof control};
    *interface = 0;
    *truncated = 0;
    ssize_t n = recvmsg(fd, &message, MSG_CMSG_CLOEXEC);
    if (n < 0) return -1;
    *from_length = message.msg_namelen;
    *truncated = (message.msg_flags & MSG_TRUNC) != 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&message); c != NULL; c = CMSG_NXTHDR(&message, c)) {
        if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_PKTINFO) {
            struct in_pktinfo info;
            memcpy(&info, CMSG_DATA(c), sizeof info);
            *interface = (unsigned int)info.ipi_ifindex;
        } else if (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_PKTINFO) {
            struct in6_pktinfo info;
            memcpy(&info, CMSG_DATA(c), sizeof info);
            *interface = info.ipi6_ifindex;
        }
    }
    return (long)n;
}

long di_send_on_interface(int fd, const void *buffer, unsigned long length, const struct sockaddr *to,
                          unsigned int to_length, unsigned int interface) {
    struct iovec io = {.iov_base = (void *)buffer, .iov_len = length};
    union {
        struct cmsghdr header;
        char space[CMSG_SPACE(sizeof(struct in6_pktinfo))];
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = {.msg_name = (void *)to, .msg_namelen = to_length, .msg_iov = &io, .msg_iovlen = 1};
    if (interface != 0) {
        struct cmsghdr *c = &control.header;
        if (to->sa_family == AF_INET6) {
            struct in6_pktinfo info = {.ipi6_ifindex = interface};
            c->cmsg_level = IPPROTO_IPV6;
            c->cmsg_type = IPV6_PKTINFO;
            c->cmsg_len = CMSG_LEN(sizeof info);
            memcpy(CMSG_DATA(c), &info, sizeof info);
            message.msg_controllen = CMSG_SPACE(sizeof info);
        } else {
            struct in_pktinfo info = {.ipi_ifindex = (int)interface};
            c->cmsg_level = IPPROTO_IP;
            c->cmsg_type = IP_PKTINFO;
            c->cmsg_len = CMSG_LEN(sizeof info);
            memcpy(CMSG_DATA(c), &info, sizeof info);
            message.msg_controllen = CMSG_SPACE(sizeof info);
        }
        message.msg_control = &control;
    }
    return (long)sendmsg(fd, &message, MSG_NOSIGNAL);
}

int di_accept_cloexec(int socket) {
    return accept4(socket, NULL, NULL, SOCK_CLOEXEC);
}
