#define _GNU_SOURCE
// The Wayland backend: the clipboard through the wlr-data-control protocol (unstable v1), which
// lets a program that has no window own and read the selection (sway and other wlroots
// compositors). Debian ships no copy of the protocol's XML, so its four interfaces are declared
// here by hand, as wayland-scanner would (message names, signatures and argument interfaces,
// from the protocol's published definition).
#include "common.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>
#include <wayland-client.h>

// MARK: The protocol's interfaces

extern const struct wl_interface zwlr_data_control_manager_v1_interface;
extern const struct wl_interface zwlr_data_control_device_v1_interface;
extern const struct wl_interface zwlr_data_control_source_v1_interface;
extern const struct wl_interface zwlr_data_control_offer_v1_interface;

static const struct wl_interface *manager_create_source_types[] = { &zwlr_data_control_source_v1_interface };
static const struct wl_interface *manager_get_device_types[] = { &zwlr_data_control_device_v1_interface, &wl_seat_interface };
static const struct wl_interface *source_types[] = { &zwlr_data_control_source_v1_interface };
static const struct wl_interface *offer_types[] = { &zwlr_data_control_offer_v1_interface };
static const struct wl_interface *no_types[] = { NULL, NULL };

static const struct wl_message manager_requests[] = {
    { "create_data_source", "n", manager_create_source_types },
    { "get_data_device", "no", manager_get_device_types },
    { "destroy", "", no_types },
};
const struct wl_interface zwlr_data_control_manager_v1_interface = {
    "zwlr_data_control_manager_v1", 2, 3, manager_requests, 0, NULL,
};

static const struct wl_message device_requests[] = {
    { "set_selection", "?o", source_types },
    { "destroy", "", no_types },
    { "set_primary_selection", "2?o", source_types },
};
static const struct wl_message device_events[] = {
    { "data_offer", "n", offer_types },
    { "selection", "?o", offer_types },
    { "finished", "", no_types },
    { "primary_selection", "2?o", offer_types },
};
const struct wl_interface zwlr_data_control_device_v1_interface = {
    "zwlr_data_control_device_v1", 2, 3, device_requests, 4, device_events,
};

static const struct wl_message source_requests[] = {
    { "offer", "s", no_types },
    { "destroy", "", no_types },
};
static const struct wl_message source_events[] = {
    { "send", "sh", no_types },
    { "cancelled", "", no_types },
};
const struct wl_interface zwlr_data_control_source_v1_interface = {
    "zwlr_data_control_source_v1", 1, 2, source_requests, 2, source_events,
};

static const struct wl_message offer_requests[] = {
    { "receive", "sh", no_types },
    { "destroy", "", no_types },
};
static const struct wl_message offer_events[] = {
    { "offer", "s", no_types },
};
const struct wl_interface zwlr_data_control_offer_v1_interface = {
    "zwlr_data_control_offer_v1", 1, 2, offer_requests, 1, offer_events,
};

// MARK: State

/// An offer the compositor announced, with the types its source offers.
typedef struct wl_offer_state {
    struct wl_proxy *proxy;
    char **types;
    size_t count;
    struct wl_offer_state *next;
} wl_offer_state;

typedef struct wayland_clipboard {
    dc_clipboard base;
    struct wl_display *display;
    struct wl_registry *registry;
    struct wl_proxy *manager, *device;
    struct wl_seat *seat;
    struct wl_proxy *source;      // our data source while we own the selection
    dc_offer_set offers;          // what it offers
    wl_offer_state *pending;      // offers announced, not yet made the selection
    wl_offer_state *selection;    // the current foreign selection
    int flags;
    int owned;
} wayland_clipboard;

static void free_offer(wl_offer_state *o) {
    if (!o) return;
    wl_proxy_marshal_flags(o->proxy, 1, NULL, wl_proxy_get_version(o->proxy), WL_MARSHAL_FLAG_DESTROY);
    for (size_t i = 0; i < o->count; i++) free(o->types[i]);
    free(o->types);
    free(o);
}

// MARK: Sending our data: one thread per paste, so a slow reader never stalls the loop.

typedef struct send_job {
    int fd;
    dc_blob *blob;
} send_job;

static void *send_thread(void *argument) {
    send_job *job = argument;
    size_t offset = 0;
    while (offset < job->blob->length) {
        ssize_t n = write(job->fd, job->blob->bytes + offset, job->blob->length - offset);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        offset += (size_t)n;
    }
    close(job->fd);
    dc_blob_release(job->blob);
    free(job);
    return NULL;
}

static void source_send(void *data, struct wl_proxy *source, const char *type, int32_t fd) {
    wayland_clipboard *w = data;
    (void)source;
    dc_entry *entry = dc_offer_set_find(&w->offers, type);
    // The descriptor is blocking for the writer thread, whatever the compositor gave.
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    send_job *job = entry ? malloc(sizeof *job) : NULL;
    pthread_t thread;
    pthread_attr_t attributes;
    if (job) {
        job->fd = fd;
        job->blob = dc_blob_retain(entry->blob);
        pthread_attr_init(&attributes);
        pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
        if (pthread_create(&thread, &attributes, send_thread, job) == 0) {
            pthread_attr_destroy(&attributes);
            w->base.served++;
            return;
        }
        pthread_attr_destroy(&attributes);
        dc_blob_release(job->blob);
        free(job);
    }
    close(fd);
}

static void source_cancelled(void *data, struct wl_proxy *source) {
    wayland_clipboard *w = data;
    if (w->source == source) { w->source = NULL; w->owned = 0; }
    wl_proxy_marshal_flags(source, 1, NULL, wl_proxy_get_version(source), WL_MARSHAL_FLAG_DESTROY);
}

static const struct { void (*send)(void *, struct wl_proxy *, const char *, int32_t); void (*cancelled)(void *, struct wl_proxy *); }
    source_listener = { source_send, source_cancelled };

// MARK: Offers and the selection

static void offer_offer(void *data, struct wl_proxy *proxy, const char *type) {
    wayland_clipboard *w = data;
    for (wl_offer_state *o = w->pending; o; o = o->next) {
        if (o->proxy != proxy) continue;
        char **larger = realloc(o->types, sizeof(char *) * (o->count + 1));
        if (!larger) return;
        o->types = larger;
        o->types[o->count] = strdup(type);
        if (o->types[o->count]) o->count++;
        return;
    }
}
static const struct { void (*offer)(void *, struct wl_proxy *, const char *); } offer_listener = { offer_offer };

static void device_data_offer(void *data, struct wl_proxy *device, struct wl_proxy *offer) {
    wayland_clipboard *w = data;
    (void)device;
    wl_offer_state *o = calloc(1, sizeof *o);
    if (!o) return;
    o->proxy = offer;
    o->next = w->pending;
    w->pending = o;
    wl_proxy_add_listener(offer, (void (**)(void))&offer_listener, w);
}

static wl_offer_state *take_pending(wayland_clipboard *w, struct wl_proxy *proxy) {
    for (wl_offer_state **link = &w->pending; *link; link = &(*link)->next) {
        if ((*link)->proxy == proxy) { wl_offer_state *o = *link; *link = o->next; o->next = NULL; return o; }
    }
    return NULL;
}

static void device_selection(void *data, struct wl_proxy *device, struct wl_proxy *offer) {
    wayland_clipboard *w = data;
    (void)device;
    free_offer(w->selection);
    w->selection = offer ? take_pending(w, offer) : NULL;
    if (!offer) {
        w->owned = 0;
        w->flags |= DC_EVENT_SELECTION_EMPTY;
        return;
    }
    // Our own source comes back to us as an offer: it is ours while our source is live.
    if (w->source && w->owned) return;
    w->flags |= DC_EVENT_FOREIGN_SELECTION;
}

static void device_finished(void *data, struct wl_proxy *device) {
    wayland_clipboard *w = data;
    (void)device;
    w->flags |= DC_EVENT_DISCONNECTED;
}

static void device_primary_selection(void *data, struct wl_proxy *device, struct wl_proxy *offer) {
    wayland_clipboard *w = data;
    (void)device;
    if (offer) free_offer(take_pending(w, offer));
}

static const struct {
    void (*data_offer)(void *, struct wl_proxy *, struct wl_proxy *);
    void (*selection)(void *, struct wl_proxy *, struct wl_proxy *);
    void (*finished)(void *, struct wl_proxy *);
    void (*primary_selection)(void *, struct wl_proxy *, struct wl_proxy *);
} device_listener = { device_data_offer, device_selection, device_finished, device_primary_selection };

// MARK: The registry

static void registry_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    wayland_clipboard *w = data;
    if (strcmp(interface, "zwlr_data_control_manager_v1") == 0 && !w->manager) {
        w->manager = wl_registry_bind(registry, name, &zwlr_data_control_manager_v1_interface, version < 2 ? version : 2);
    } else if (strcmp(interface, "wl_seat") == 0 && !w->seat) {
        w->seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
    }
}
static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name) { (void)data; (void)registry; (void)name; }
static const struct wl_registry_listener registry_listener = { registry_global, registry_global_remove };

// MARK: The backend

static int wl_fd(dc_clipboard *c) { return wl_display_get_fd(((wayland_clipboard *)c)->display); }

static int wl_flush(dc_clipboard *c) {
    wayland_clipboard *w = (wayland_clipboard *)c;
    if (wl_display_dispatch_pending(w->display) < 0) return -1;
    if (wl_display_flush(w->display) < 0 && errno != EAGAIN) return -1;
    return w->flags ? 1 : 0;
}

static int wl_dispatch(dc_clipboard *c) {
    wayland_clipboard *w = (wayland_clipboard *)c;
    // Read only when there is something to read: events already queued (the first selection
    // after connecting) are handled without waiting.
    struct pollfd p = { .fd = wl_display_get_fd(w->display), .events = POLLIN };
    if (poll(&p, 1, 0) > 0) {
        if (wl_display_dispatch(w->display) < 0) w->flags |= DC_EVENT_DISCONNECTED;
    } else if (wl_display_dispatch_pending(w->display) < 0) {
        w->flags |= DC_EVENT_DISCONNECTED;
    }
    int flags = w->flags;
    w->flags = 0;
    return flags;
}

static int wl_publish(dc_clipboard *c, const char *const *types, const uint8_t *const *data, const size_t *lengths, size_t count) {
    wayland_clipboard *w = (wayland_clipboard *)c;
    if (dc_offer_set_fill(&w->offers, types, data, lengths, count) != 0) return -1;
    struct wl_proxy *source = wl_proxy_marshal_flags(w->manager, 0, &zwlr_data_control_source_v1_interface, wl_proxy_get_version(w->manager), 0, NULL);
    if (!source) return -1;
    wl_proxy_add_listener(source, (void (**)(void))&source_listener, w);
    for (size_t i = 0; i < count; i++) wl_proxy_marshal_flags(source, 0, NULL, wl_proxy_get_version(source), 0, types[i]);
    // The old source is cancelled by the compositor when the new one becomes the selection.
    w->source = source;
    w->owned = 1;
    wl_proxy_marshal_flags(w->device, 0, NULL, wl_proxy_get_version(w->device), 0, source);
    // The selection event for our own source must not look foreign: wait for it here.
    wl_display_roundtrip(w->display);
    w->flags &= ~DC_EVENT_FOREIGN_SELECTION;
    return 0;
}

static void wl_release(dc_clipboard *c) {
    wayland_clipboard *w = (wayland_clipboard *)c;
    if (!w->owned) return;
    wl_proxy_marshal_flags(w->device, 0, NULL, wl_proxy_get_version(w->device), 0, NULL);
    w->owned = 0;
    wl_display_roundtrip(w->display);
    w->flags &= ~DC_EVENT_SELECTION_EMPTY;
}

static int wl_owns(dc_clipboard *c) { return ((wayland_clipboard *)c)->owned; }

static int wl_foreign_types(dc_clipboard *c, char ***types, size_t *count, int timeout_ms) {
    wayland_clipboard *w = (wayland_clipboard *)c;
    (void)timeout_ms;
    wl_offer_state *o = w->selection;
    if (!o || w->owned) return -1;
    char **copy = calloc(o->count ? o->count : 1, sizeof(char *));
    if (!copy) return -1;
    for (size_t i = 0; i < o->count; i++) copy[i] = strdup(o->types[i]);
    *types = copy;
    *count = o->count;
    return 0;
}

static int wl_fetch(dc_clipboard *c, const char *type, uint8_t **data, size_t *length, size_t limit, int timeout_ms) {
    wayland_clipboard *w = (wayland_clipboard *)c;
    if (!w->selection || w->owned) return -1;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return -1;
    wl_proxy_marshal_flags(w->selection->proxy, 0, NULL, wl_proxy_get_version(w->selection->proxy), 0, type, fds[1]);
    close(fds[1]);
    wl_display_flush(w->display);
    size_t size = 0, capacity = 1 << 16;
    uint8_t *buffer = malloc(capacity);
    int status = buffer ? 0 : -1;
    while (status == 0) {
        struct pollfd p = { .fd = fds[0], .events = POLLIN };
        int ready = poll(&p, 1, timeout_ms);
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) { status = -1; break; }
        if (size == capacity) {
            if (capacity >= limit + 1) { status = -2; break; }
            capacity *= 2;
            uint8_t *larger = realloc(buffer, capacity);
            if (!larger) { status = -1; break; }
            buffer = larger;
        }
        ssize_t n = read(fds[0], buffer + size, capacity - size);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) { status = -1; break; }
        if (n == 0) break;
        size += (size_t)n;
        if (size > limit) { status = -2; break; }
    }
    close(fds[0]);
    if (status != 0) { free(buffer); return status; }
    *data = buffer;
    *length = size;
    return 0;
}

static void wl_close(dc_clipboard *c) {
    wayland_clipboard *w = (wayland_clipboard *)c;
    free_offer(w->selection);
    while (w->pending) { wl_offer_state *o = w->pending; w->pending = o->next; free_offer(o); }
    dc_offer_set_clear(&w->offers);
    wl_display_disconnect(w->display);
    free(w);
}

static const dc_backend wayland_backend = {
    wl_close, wl_fd, wl_flush, wl_dispatch, wl_publish, wl_release, wl_owns, wl_foreign_types, wl_fetch,
};

dc_clipboard *dc_wayland_open(const char *name, char *error, size_t error_size) {
    // A paste target that closes its end early must not kill us with SIGPIPE.
    signal(SIGPIPE, SIG_IGN);
    struct wl_display *display = wl_display_connect(name);
    if (!display) {
        snprintf(error, error_size, "cannot connect to the Wayland display %s", name ? name : getenv("WAYLAND_DISPLAY") ? getenv("WAYLAND_DISPLAY") : "(WAYLAND_DISPLAY not set)");
        return NULL;
    }
    wayland_clipboard *w = calloc(1, sizeof *w);
    if (!w) { wl_display_disconnect(display); return NULL; }
    w->base.backend = &wayland_backend;
    w->display = display;
    w->registry = wl_display_get_registry(display);
    wl_registry_add_listener(w->registry, &registry_listener, w);
    wl_display_roundtrip(display);
    if (!w->manager || !w->seat) {
        snprintf(error, error_size, "the compositor offers no %s", w->manager ? "seat" : "wlr-data-control (zwlr_data_control_manager_v1)");
        wl_display_disconnect(display);
        free(w);
        return NULL;
    }
    w->device = wl_proxy_marshal_flags(w->manager, 1, &zwlr_data_control_device_v1_interface, wl_proxy_get_version(w->manager), 0, NULL, w->seat);
    wl_proxy_add_listener(w->device, (void (**)(void))&device_listener, w);
    wl_display_roundtrip(display);
    return &w->base;
}
