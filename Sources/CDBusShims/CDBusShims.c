// Debian's static libdbus-1.a refers to sd_listen_fds and sd_is_socket (systemd socket activation,
// used only when a *server* such as dbus-daemon is started by systemd), and Debian ships no static
// libsystemd. The statically linked tools are D-Bus clients only, so these weak stand-ins (no
// sockets were passed) let them link; a dynamically linked libsystemd, when present, still wins at
// static link time because these are weak.
#include "CDBusShims.h"

__attribute__((weak)) int sd_listen_fds(int unset_environment) { (void)unset_environment; return 0; }
__attribute__((weak)) int sd_is_socket(int fd, int family, int type, int listening) {
    (void)fd; (void)family; (void)type; (void)listening;
    return 0;
}
int di_dbus_shims_linked(void) { return 1; }
