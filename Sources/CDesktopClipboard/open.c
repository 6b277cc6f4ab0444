// Opening a connection within a time limit. Neither libxcb nor libwayland-client bounds its
// connect: xcb_connect waits without end for the setup reply of a server that accepted the
// socket but does not answer (an X server in its reset, a stuck compositor, a TCP display whose
// host went away), and wl_display_roundtrip for a compositor that never replies. Neither has a
// timeout option, so the open runs on a thread of its own and the caller waits for it at most
// `timeout_ms`. A thread left waiting owns its job: when its open ends after all, it closes what
// it opened and frees the job. (The Swift side starts its threads with BackgroundThread; this one
// is started here because the job it shares with its caller is C's.) The thread blocks every
// signal: one left waiting must not take a SIGTERM meant for the caller's signalfd.
#include "common.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>

typedef struct open_job {
    pthread_mutex_t lock;
    pthread_cond_t finished_signal;
    int finished, abandoned;
    dc_backend_kind backend;
    char *display;
    dc_clipboard *result;
    char error[256];
} open_job;

static void job_free(open_job *job) {
    pthread_cond_destroy(&job->finished_signal);
    pthread_mutex_destroy(&job->lock);
    free(job->display);
    free(job);
}

static void *open_thread(void *argument) {
    open_job *job = argument;
    char error[sizeof job->error] = "";
    dc_clipboard *opened = job->backend == DC_BACKEND_X11 ? dc_x11_open(job->display, error, sizeof error)
                                                          : dc_wayland_open(job->display, error, sizeof error);
    pthread_mutex_lock(&job->lock);
    if (job->abandoned) {
        pthread_mutex_unlock(&job->lock);
        dc_close(opened);
        job_free(job);
        return NULL;
    }
    job->result = opened;
    memcpy(job->error, error, sizeof error);
    job->finished = 1;
    pthread_cond_signal(&job->finished_signal);
    pthread_mutex_unlock(&job->lock);
    return NULL;
}

dc_clipboard *dc_open(dc_backend_kind backend, const char *display, int timeout_ms, char *error, size_t error_size) {
    open_job *job = calloc(1, sizeof *job);
    if (!job || (display && !(job->display = strdup(display)))) {
        free(job);
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    job->backend = backend;
    pthread_mutex_init(&job->lock, NULL);
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&job->finished_signal, &attributes);
    pthread_condattr_destroy(&attributes);

    if (timeout_ms < 1) timeout_ms = 1;
    // The thread starts with the mask in force when it is created: every signal blocked.
    sigset_t all, before;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &before);
    pthread_t thread;
    int status = pthread_create(&thread, NULL, open_thread, job);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    if (status != 0) {
        job_free(job);
        snprintf(error, error_size, "cannot start a thread: %s", strerror(status));
        return NULL;
    }
    pthread_detach(thread);

    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += timeout_ms / 1000;
    deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) { deadline.tv_sec += 1; deadline.tv_nsec -= 1000000000L; }

    pthread_mutex_lock(&job->lock);
    while (!job->finished) {
        if (pthread_cond_timedwait(&job->finished_signal, &job->lock, &deadline) == ETIMEDOUT && !job->finished) break;
    }
    if (!job->finished) {
        // The thread frees the job when its open ends.
        job->abandoned = 1;
        pthread_mutex_unlock(&job->lock);
        const char *name = display ? display : getenv(backend == DC_BACKEND_X11 ? "DISPLAY" : "WAYLAND_DISPLAY");
        const char *kind = backend == DC_BACKEND_X11 ? "X" : "Wayland";
        if (timeout_ms % 1000 == 0)
            snprintf(error, error_size, "the %s display %s did not answer within %d s", kind, name ? name : "(not set)", timeout_ms / 1000);
        else
            snprintf(error, error_size, "the %s display %s did not answer within %d ms", kind, name ? name : "(not set)", timeout_ms);
        return NULL;
    }
    pthread_mutex_unlock(&job->lock);
    dc_clipboard *opened = job->result;
    if (!opened) snprintf(error, error_size, "%s", job->error);
    job_free(job);
    return opened;
}
