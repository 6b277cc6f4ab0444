// The X11 backend: the CLIPBOARD selection through libxcb (ICCCM selections, INCR for data larger
// than one request) and XFixes (told when another program takes the clipboard or its owner goes).
#include "common.h"
#include <poll.h>
#include <signal.h>
#include <time.h>
#include <xcb/xcb.h>
#include <xcb/xfixes.h>

typedef struct x11_transfer {
    xcb_window_t requestor;
    xcb_atom_t property, type;
    dc_blob *blob;
    size_t offset;
    long long last;
    struct x11_transfer *next;
} x11_transfer;

typedef struct x11_clipboard {
    dc_clipboard base;
    xcb_connection_t *conn;
    xcb_window_t window;
    xcb_atom_t clipboard, targets, incr, timestamp, property;
    uint8_t xfixes_event;
    int owned;
    dc_offer_set offers;
    xcb_atom_t *atoms;
    x11_transfer *transfers;
    size_t chunk;
    int flags;
} x11_clipboard;

static xcb_atom_t intern(xcb_connection_t *conn, const char *name) {
    xcb_intern_atom_reply_t *reply = xcb_intern_atom_reply(conn, xcb_intern_atom(conn, 0, (uint16_t)strlen(name), name), NULL);
    xcb_atom_t atom = reply ? reply->atom : XCB_NONE;
    free(reply);
    return atom;
}

static void notify(x11_clipboard *x, xcb_selection_request_event_t *request, xcb_atom_t property) {
    xcb_selection_notify_event_t event;
    memset(&event, 0, sizeof event);
    event.response_type = XCB_SELECTION_NOTIFY;
    event.time = request->time;
    event.requestor = request->requestor;
    event.selection = request->selection;
    event.target = request->target;
    event.property = property;
    xcb_send_event(x->conn, 0, request->requestor, XCB_EVENT_MASK_NO_EVENT, (const char *)&event);
}

static void serve(x11_clipboard *x, xcb_selection_request_event_t *request) {
    xcb_atom_t property = request->property != XCB_NONE ? request->property : request->target;
    if (!x->owned || request->selection != x->clipboard) { notify(x, request, XCB_NONE); return; }
    if (request->target == x->targets) {
        xcb_atom_t *list = malloc(sizeof(xcb_atom_t) * (x->offers.count + 2));
        if (!list) { notify(x, request, XCB_NONE); return; }
        list[0] = x->targets;
        list[1] = x->timestamp;
        for (size_t i = 0; i < x->offers.count; i++) list[i + 2] = x->atoms[i];
        xcb_change_property(x->conn, XCB_PROP_MODE_REPLACE, request->requestor, property, XCB_ATOM_ATOM, 32, (uint32_t)(x->offers.count + 2), list);
        free(list);
        notify(x, request, property);
        return;
    }
    if (request->target == x->timestamp) {
        uint32_t now = XCB_CURRENT_TIME;
        xcb_change_property(x->conn, XCB_PROP_MODE_REPLACE, request->requestor, property, XCB_ATOM_INTEGER, 32, 1, &now);
        notify(x, request, property);
        return;
    }
    for (size_t i = 0; i < x->offers.count; i++) {
        if (x->atoms[i] != request->target) continue;
        dc_blob *blob = x->offers.entries[i].blob;
        if (blob->length <= x->chunk) {
            xcb_change_property(x->conn, XCB_PROP_MODE_REPLACE, request->requestor, property, request->target, 8, (uint32_t)blob->length, blob->bytes);
        } else {
            // INCR (ICCCM 2.7.2): announce the size, then one chunk each time the requestor
            // deletes the property, then an empty chunk.
            x11_transfer *t = calloc(1, sizeof *t);
            if (!t) { notify(x, request, XCB_NONE); return; }
            t->requestor = request->requestor;
            t->property = property;
            t->type = request->target;
            t->blob = dc_blob_retain(blob);
            t->last = dc_now_ms();
            t->next = x->transfers;
            x->transfers = t;
            uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE;
            xcb_change_window_attributes(x->conn, request->requestor, XCB_CW_EVENT_MASK, &mask);
            uint32_t size = blob->length > UINT32_MAX ? UINT32_MAX : (uint32_t)blob->length;
            xcb_change_property(x->conn, XCB_PROP_MODE_REPLACE, request->requestor, property, x->incr, 32, 1, &size);
        }
        notify(x, request, property);
        x->base.served++;
        return;
    }
    notify(x, request, XCB_NONE);
}

static void continue_transfer(x11_clipboard *x, xcb_property_notify_event_t *event) {
    for (x11_transfer **link = &x->transfers; *link; link = &(*link)->next) {
        x11_transfer *t = *link;
        if (t->requestor != event->window || t->property != event->atom) continue;
        size_t n = t->blob->length - t->offset;
        if (n > x->chunk) n = x->chunk;
        xcb_change_property(x->conn, XCB_PROP_MODE_REPLACE, t->requestor, t->property, t->type, 8, (uint32_t)n, t->blob->bytes + t->offset);
        t->offset += n;
        t->last = dc_now_ms();
        if (n == 0) {
            uint32_t none = XCB_EVENT_MASK_NO_EVENT;
            xcb_change_window_attributes(x->conn, t->requestor, XCB_CW_EVENT_MASK, &none);
            *link = t->next;
            dc_blob_release(t->blob);
            free(t);
        }
        return;
    }
}

/// Handles one event that nobody waits for.
static void handle(x11_clipboard *x, xcb_generic_event_t *event) {
    uint8_t type = event->response_type & 0x7F;
    if (type == XCB_SELECTION_REQUEST) {
        serve(x, (xcb_selection_request_event_t *)event);
    } else if (type == XCB_SELECTION_CLEAR) {
        x->owned = 0;
    } else if (type == XCB_PROPERTY_NOTIFY) {
        xcb_property_notify_event_t *p = (xcb_property_notify_event_t *)event;
        if (p->state == XCB_PROPERTY_DELETE && p->window != x->window) continue_transfer(x, p);
    } else if (type == (uint8_t)(x->xfixes_event + XCB_XFIXES_SELECTION_NOTIFY)) {
        xcb_xfixes_selection_notify_event_t *s = (xcb_xfixes_selection_notify_event_t *)event;
        if (s->selection != x->clipboard) return;
        if (s->owner == x->window) return;
        x->owned = 0;
        x->flags |= s->owner == XCB_NONE ? DC_EVENT_SELECTION_EMPTY : DC_EVENT_FOREIGN_SELECTION;
    }
}

typedef int (*x11_match)(x11_clipboard *, xcb_generic_event_t *);

/// Waits for an event `match` accepts, handling the others; NULL after `timeout_ms` of silence
/// or when the connection breaks.
static xcb_generic_event_t *wait_for(x11_clipboard *x, x11_match match, int timeout_ms) {
    long long deadline = dc_now_ms() + timeout_ms;
    xcb_flush(x->conn);
    for (;;) {
        xcb_generic_event_t *event = xcb_poll_for_event(x->conn);
        if (event) {
            if (match(x, event)) return event;
            handle(x, event);
            free(event);
            deadline = dc_now_ms() + timeout_ms;
            continue;
        }
        if (xcb_connection_has_error(x->conn)) return NULL;
        long long left = deadline - dc_now_ms();
        if (left <= 0) return NULL;
        struct pollfd p = { .fd = xcb_get_file_descriptor(x->conn), .events = POLLIN };
        poll(&p, 1, (int)left);
    }
}

static int is_our_notify(x11_clipboard *x, xcb_generic_event_t *e) {
    if ((e->response_type & 0x7F) != XCB_SELECTION_NOTIFY) return 0;
    xcb_selection_notify_event_t *n = (xcb_selection_notify_event_t *)e;
    return n->requestor == x->window && n->selection == x->clipboard;
}

static int is_new_chunk(x11_clipboard *x, xcb_generic_event_t *e) {
    if ((e->response_type & 0x7F) != XCB_PROPERTY_NOTIFY) return 0;
    xcb_property_notify_event_t *p = (xcb_property_notify_event_t *)e;
    return p->window == x->window && p->atom == x->property && p->state == XCB_PROPERTY_NEW_VALUE;
}

/// Converts the clipboard to `target` into our property and reads it (INCR included).
static int convert(x11_clipboard *x, xcb_atom_t target, uint8_t **out, size_t *length, xcb_atom_t *type, size_t limit, int timeout_ms) {
    xcb_delete_property(x->conn, x->window, x->property);
    xcb_convert_selection(x->conn, x->window, x->clipboard, target, x->property, XCB_CURRENT_TIME);
    xcb_generic_event_t *event = wait_for(x, is_our_notify, timeout_ms);
    if (!event) return -1;
    xcb_atom_t property = ((xcb_selection_notify_event_t *)event)->property;
    free(event);
    if (property == XCB_NONE) return -1;
    xcb_get_property_reply_t *reply = xcb_get_property_reply(x->conn, xcb_get_property(x->conn, 1, x->window, x->property, XCB_GET_PROPERTY_TYPE_ANY, 0, UINT32_MAX / 4), NULL);
    if (!reply) return -1;
    *type = reply->type;
    uint8_t *buffer = NULL;
    size_t size = 0;
    if (reply->type == x->incr) {
        size_t capacity = 0;
        if (xcb_get_property_value_length(reply) >= 4) capacity = *(uint32_t *)xcb_get_property_value(reply);
        free(reply);
        if (capacity > limit) return -2;
        buffer = malloc(capacity ? capacity : 1);
        if (!buffer) return -1;
        for (;;) {
            event = wait_for(x, is_new_chunk, timeout_ms);
            if (!event) { free(buffer); return -1; }
            free(event);
            reply = xcb_get_property_reply(x->conn, xcb_get_property(x->conn, 1, x->window, x->property, XCB_GET_PROPERTY_TYPE_ANY, 0, UINT32_MAX / 4), NULL);
            if (!reply) { free(buffer); return -1; }
            size_t n = (size_t)xcb_get_property_value_length(reply);
            if (n == 0) { free(reply); break; }
            if (size + n > limit) { free(reply); free(buffer); return -2; }
            if (size + n > capacity) {
                capacity = (size + n) * 2;
                uint8_t *larger = realloc(buffer, capacity);
                if (!larger) { free(reply); free(buffer); return -1; }
                buffer = larger;
            }
            memcpy(buffer + size, xcb_get_property_value(reply), n);
            size += n;
            free(reply);
        }
    } else {
        size = (size_t)xcb_get_property_value_length(reply);
        if (size > limit) { free(reply); return -2; }
        buffer = malloc(size ? size : 1);
        if (!buffer) { free(reply); return -1; }
        memcpy(buffer, xcb_get_property_value(reply), size);
        free(reply);
    }
    *out = buffer;
    *length = size;
    return 0;
}

static int x11_foreign_types(dc_clipboard *c, char ***types, size_t *count, int timeout_ms) {
    x11_clipboard *x = (x11_clipboard *)c;
    uint8_t *data;
    size_t length;
    xcb_atom_t type;
    if (convert(x, x->targets, &data, &length, &type, 1 << 20, timeout_ms) != 0) return -1;
    size_t n = length / 4;
    xcb_get_atom_name_cookie_t *cookies = malloc(sizeof *cookies * (n ? n : 1));
    char **names = calloc(n ? n : 1, sizeof(char *));
    if (!cookies || !names) { free(data); free(cookies); free(names); return -1; }
    for (size_t i = 0; i < n; i++) cookies[i] = xcb_get_atom_name(x->conn, ((xcb_atom_t *)data)[i]);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        xcb_get_atom_name_reply_t *reply = xcb_get_atom_name_reply(x->conn, cookies[i], NULL);
        if (!reply) continue;
        int len = xcb_get_atom_name_name_length(reply);
        char *name = malloc((size_t)len + 1);
        if (name) {
            memcpy(name, xcb_get_atom_name_name(reply), (size_t)len);
            name[len] = 0;
            names[kept++] = name;
        }
        free(reply);
    }
    free(cookies);
    free(data);
    *types = names;
    *count = kept;
    return 0;
}

static int x11_fetch(dc_clipboard *c, const char *name, uint8_t **data, size_t *length, size_t limit, int timeout_ms) {
    x11_clipboard *x = (x11_clipboard *)c;
    xcb_atom_t target = intern(x->conn, name), type;
    if (target == XCB_NONE) return -1;
    return convert(x, target, data, length, &type, limit, timeout_ms);
}

static int x11_publish(dc_clipboard *c, const char *const *types, const uint8_t *const *data, const size_t *lengths, size_t count) {
    x11_clipboard *x = (x11_clipboard *)c;
    if (dc_offer_set_fill(&x->offers, types, data, lengths, count) != 0) return -1;
    free(x->atoms);
    x->atoms = calloc(count ? count : 1, sizeof(xcb_atom_t));
    if (!x->atoms) return -1;
    xcb_intern_atom_cookie_t *cookies = malloc(sizeof *cookies * (count ? count : 1));
    if (!cookies) return -1;
    for (size_t i = 0; i < count; i++) cookies[i] = xcb_intern_atom(x->conn, 0, (uint16_t)strlen(types[i]), types[i]);
    for (size_t i = 0; i < count; i++) {
        xcb_intern_atom_reply_t *reply = xcb_intern_atom_reply(x->conn, cookies[i], NULL);
        x->atoms[i] = reply ? reply->atom : XCB_NONE;
        free(reply);
    }
    free(cookies);
    xcb_set_selection_owner(x->conn, x->window, x->clipboard, XCB_CURRENT_TIME);
    xcb_get_selection_owner_reply_t *owner = xcb_get_selection_owner_reply(x->conn, xcb_get_selection_owner(x->conn, x->clipboard), NULL);
    x->owned = owner && owner->owner == x->window;
    free(owner);
    return x->owned ? 0 : -1;
}

static void x11_release(dc_clipboard *c) {
    x11_clipboard *x = (x11_clipboard *)c;
    if (x->owned) xcb_set_selection_owner(x->conn, XCB_NONE, x->clipboard, XCB_CURRENT_TIME);
    x->owned = 0;
    xcb_flush(x->conn);
}

static int x11_owns(dc_clipboard *c) { return ((x11_clipboard *)c)->owned; }
static int x11_fd(dc_clipboard *c) { return xcb_get_file_descriptor(((x11_clipboard *)c)->conn); }
static int x11_flush(dc_clipboard *c) {
    x11_clipboard *x = (x11_clipboard *)c;
    // Events xcb already read from the socket (while waiting for a reply) would not wake a
    // poll on the descriptor: handle them now.
    xcb_generic_event_t *event;
    while ((event = xcb_poll_for_queued_event(x->conn))) { handle(x, event); free(event); }
    if (xcb_flush(x->conn) <= 0 || xcb_connection_has_error(x->conn)) return -1;
    return x->flags ? 1 : 0;
}

static int x11_dispatch(dc_clipboard *c) {
    x11_clipboard *x = (x11_clipboard *)c;
    xcb_generic_event_t *event;
    while ((event = xcb_poll_for_event(x->conn))) { handle(x, event); free(event); }
    // A requestor that stopped reading an INCR transfer for 30 s is given up on.
    long long now = dc_now_ms();
    for (x11_transfer **link = &x->transfers; *link;) {
        x11_transfer *t = *link;
        if (now - t->last > 30000) { *link = t->next; dc_blob_release(t->blob); free(t); } else link = &t->next;
    }
    xcb_flush(x->conn);
    int flags = x->flags;
    x->flags = 0;
    if (xcb_connection_has_error(x->conn)) flags |= DC_EVENT_DISCONNECTED;
    return flags;
}

static void x11_close(dc_clipboard *c) {
    x11_clipboard *x = (x11_clipboard *)c;
    while (x->transfers) { x11_transfer *t = x->transfers; x->transfers = t->next; dc_blob_release(t->blob); free(t); }
    dc_offer_set_clear(&x->offers);
    free(x->atoms);
    xcb_disconnect(x->conn);
    free(x);
}

static const dc_backend x11_backend = {
    x11_close, x11_fd, x11_flush, x11_dispatch, x11_publish, x11_release, x11_owns, x11_foreign_types, x11_fetch,
};

/// What `xcb_connection_has_error` reports, in words.
static const char *connection_error(int code) {
    switch (code) {
    case XCB_CONN_ERROR: return "no server answered, or it closed the connection";
    case XCB_CONN_CLOSED_EXT_NOTSUPPORTED: return "an extension is missing";
    case XCB_CONN_CLOSED_MEM_INSUFFICIENT: return "out of memory";
    case XCB_CONN_CLOSED_REQ_LEN_EXCEED: return "a request was too long";
    case XCB_CONN_CLOSED_PARSE_ERR: return "the display name cannot be parsed";
    case XCB_CONN_CLOSED_INVALID_SCREEN: return "the display has no such screen";
    default: return "the server refused the connection";
    }
}

/// Connects to `display`. An X server resets when its last client leaves (unless started with
/// -noreset) and drops connections that arrive meanwhile (ECONNRESET, which xcb reports as
/// XCB_CONN_ERROR): 2-9% of connections made while another client kept connecting failed so on
/// Xvfb. Such a failure is retried every 50 ms for up to 2 s; other failures are final.
static xcb_connection_t *connect_retrying(const char *display, int *code) {
    for (int attempt = 0;; attempt++) {
        xcb_connection_t *conn = xcb_connect(display, NULL);
        *code = xcb_connection_has_error(conn);
        // A connection accepted as the reset began is closed right after: the first round trip
        // (the XFixes query, which every use needs) tells.
        if (*code == 0) {
            xcb_get_extension_data(conn, &xcb_xfixes_id);
            *code = xcb_connection_has_error(conn);
            if (*code == 0) return conn;
        }
        xcb_disconnect(conn);
        if (*code != XCB_CONN_ERROR || attempt == 40) return NULL;
        struct timespec pause = {0, 50 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
}

dc_clipboard *dc_x11_open(const char *display, char *error, size_t error_size) {
    // libxcb writes with writev: a server that closes our connection (a reset that began as we
    // connected, a crash, xkill) must not kill us with SIGPIPE before we can say so.
    signal(SIGPIPE, SIG_IGN);
    int code = 0;
    xcb_connection_t *conn = connect_retrying(display, &code);
    if (!conn) {
        snprintf(error, error_size, "cannot connect to the X display %s: %s%s",
                 display ? display : getenv("DISPLAY") ? getenv("DISPLAY") : "(DISPLAY not set)", connection_error(code),
                 code == XCB_CONN_ERROR ? " (tried for 2 s)" : "");
        return NULL;
    }
    const xcb_query_extension_reply_t *fixes = xcb_get_extension_data(conn, &xcb_xfixes_id);
    if (!fixes || !fixes->present) {
        snprintf(error, error_size, "the X server has no XFixes extension");
        xcb_disconnect(conn);
        return NULL;
    }
    free(xcb_xfixes_query_version_reply(conn, xcb_xfixes_query_version(conn, 5, 0), NULL));
    x11_clipboard *x = calloc(1, sizeof *x);
    if (!x) { xcb_disconnect(conn); return NULL; }
    x->base.backend = &x11_backend;
    x->conn = conn;
    x->xfixes_event = fixes->first_event;
    xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(conn)).data;
    x->window = xcb_generate_id(conn);
    uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE;
    xcb_create_window(conn, XCB_COPY_FROM_PARENT, x->window, screen->root, 0, 0, 1, 1, 0, XCB_WINDOW_CLASS_INPUT_ONLY,
                      screen->root_visual, XCB_CW_EVENT_MASK, &mask);
    x->clipboard = intern(conn, "CLIPBOARD");
    x->targets = intern(conn, "TARGETS");
    x->incr = intern(conn, "INCR");
    x->timestamp = intern(conn, "TIMESTAMP");
    x->property = intern(conn, "DOCUMENT_INTERCHANGE_SELECTION");
    // Data larger than one chunk goes by INCR, in chunks of 1 MiB (xclip's size too). Pastes of
    // 64 MiB by xclip -o from Xvfb, six rounds interleaved: 89-123 ms with 1 MiB chunks,
    // 106-131 ms with 256 KiB, 121-195 ms with 128 KiB, 104-284 ms with 4 MiB (16 MiB, the most
    // one request carries: 212-249 ms). Each chunk is copied by the server and the requestor;
    // small ones cost round trips, large ones fall out of the caches. Appending one 64 MiB
    // property without INCR was slower still (the server reallocates it per append).
    // Again on a quiet machine, xclip -o > file, 12 pastes each, alternating with an xclip owner
    // (109 ms): 256 KiB 135 ms, 1 MiB 100 ms, 4 MiB 131 ms, 16 MiB 203 ms.
    size_t maximum = (size_t)xcb_get_maximum_request_length(conn) * 4;
    x->chunk = 1u << 20;
    if (maximum > 4096 && x->chunk > maximum - 4096) x->chunk = maximum - 4096;
    xcb_xfixes_select_selection_input(conn, x->window, x->clipboard,
        XCB_XFIXES_SELECTION_EVENT_MASK_SET_SELECTION_OWNER | XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_WINDOW_DESTROY |
        XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_CLIENT_CLOSE);
    // The clipboard as it is now, reported at the first dispatch like a change.
    xcb_get_selection_owner_reply_t *owner = xcb_get_selection_owner_reply(conn, xcb_get_selection_owner(conn, x->clipboard), NULL);
    x->flags = owner && owner->owner != XCB_NONE ? DC_EVENT_FOREIGN_SELECTION : DC_EVENT_SELECTION_EMPTY;
    free(owner);
    xcb_flush(conn);
    return &x->base;
}
