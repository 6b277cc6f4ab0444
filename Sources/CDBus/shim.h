// libdbus-1, the reference D-Bus client library (Debian's libdbus-1-dev): DBusActivatable apps are
// started through org.freedesktop.Application on the session bus, and sandboxed apps receive
// documents through the document portal.
#include <dbus/dbus.h>
