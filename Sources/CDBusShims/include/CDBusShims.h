#ifndef CDBUSSHIMS_H
#define CDBUSSHIMS_H
// Nothing to call: this target only supplies two symbols the static libdbus-1.a needs (see the .c file).
int di_dbus_shims_linked(void);
#endif
