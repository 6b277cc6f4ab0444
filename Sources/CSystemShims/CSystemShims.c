// See include/CSystemShims.h. _GNU_SOURCE: the calls below are GNU extensions.
#define _GNU_SOURCE
#include <spawn.h>
#include <unistd.h>
#include <fcntl.h>
#include <pthread.h>
#include "CSystemShims.h"

int di_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int di_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int di_mutex_lock_monotonic(pthread_mutex_t *mutex, const struct timespec *deadline) {
    return pthread_mutex_clocklock(mutex, CLOCK_MONOTONIC, deadline);
}
