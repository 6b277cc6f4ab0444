// The desktop clipboard (the CLIPBOARD selection) as one small C interface over two protocols:
// X11 through libxcb with XFixes, and Wayland through libwayland-client with the
// wlr-data-control protocol (sway, and other wlroots compositors). pasteboardd drives it from
// Swift; the protocol state machines (X11's INCR transfers, Wayland's data sources and offers)
// stay here, where the C libraries' callbacks and variadic calls are.
//
// Ownership rules: dc_publish copies the data (a paste may still be served after the caller's
// buffer is gone); dc_fetch returns a malloc'd buffer the caller frees with dc_free.
#ifndef CDESKTOPCLIPBOARD_H
#define CDESKTOPCLIPBOARD_H
#include <stddef.h>
#include <stdint.h>

typedef struct dc_clipboard dc_clipboard;

/// What dc_dispatch saw (bit flags).
enum {
    /// Another program set the clipboard: read it with dc_foreign_types and dc_fetch.
    DC_EVENT_FOREIGN_SELECTION = 1,
    /// The clipboard has no owner any more (its owner exited or cleared it).
    DC_EVENT_SELECTION_EMPTY = 2,
    /// The connection to the display is gone.
    DC_EVENT_DISCONNECTED = 4,
};

/// The two protocols.
typedef enum dc_backend_kind { DC_BACKEND_X11 = 0, DC_BACKEND_WAYLAND = 1 } dc_backend_kind;

/// Connects to a display of `backend` (NULL: the environment's) as dc_x11_open or
/// dc_wayland_open do, waiting at most `timeout_ms` for the display to answer. NULL on failure
/// or when the time ran out, with a message in `error`.
dc_clipboard *dc_open(dc_backend_kind backend, const char *display, int timeout_ms, char *error, size_t error_size);
/// Connects to an X11 display (NULL: $DISPLAY). NULL on failure, with a message in `error`.
dc_clipboard *dc_x11_open(const char *display, char *error, size_t error_size);
/// Connects to a Wayland display (NULL: $WAYLAND_DISPLAY). NULL on failure (no display, or a
/// compositor without wlr-data-control), with a message in `error`.
dc_clipboard *dc_wayland_open(const char *display, char *error, size_t error_size);
/// Closes the connection; the clipboard is released.
void dc_close(dc_clipboard *clipboard);

/// The descriptor to wait on for readability.
int dc_fd(dc_clipboard *clipboard);
/// Handles events already read and sends what is queued; call before waiting. 1 when events
/// wait for dc_dispatch (do not sleep), 0 when none, -1 when disconnected.
int dc_flush(dc_clipboard *clipboard);
/// Reads and handles what the display sent (serving pastes of published data); DC_EVENT_* flags.
int dc_dispatch(dc_clipboard *clipboard);

/// Takes the clipboard, offering `count` representations (type name and bytes; a name may repeat
/// the bytes of another). The bytes are copied. 0, or -1 on failure.
int dc_publish(dc_clipboard *clipboard, const char *const *types, const uint8_t *const *data, const size_t *lengths, size_t count);
/// Gives the clipboard up if this connection owns it.
void dc_release(dc_clipboard *clipboard);
/// Whether this connection owns the clipboard now.
int dc_owns(dc_clipboard *clipboard);

/// The types the clipboard's current (foreign) owner offers, as a malloc'd array of malloc'd
/// strings (free each and the array with dc_free). 0, or -1 (no owner, refused, timed out).
int dc_foreign_types(dc_clipboard *clipboard, char ***types, size_t *count, int timeout_ms);
/// Reads one type from the clipboard's current owner: at most `limit` bytes (-2 when larger),
/// within `timeout_ms` of silence. 0 and a malloc'd buffer, or -1.
int dc_fetch(dc_clipboard *clipboard, const char *type, uint8_t **data, size_t *length, size_t limit, int timeout_ms);
/// Frees what dc_fetch and dc_foreign_types returned.
void dc_free(void *pointer);

/// Serving statistics: pastes answered since opening.
uint64_t dc_served(dc_clipboard *clipboard);
#endif
