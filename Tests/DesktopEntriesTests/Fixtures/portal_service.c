/* A stand-in for xdg-document-portal's D-Bus side, for the launch tests (built with gcc against
 * gio-2.0 and gio-unix-2.0): answers AddFull with one document ID per descriptor and MOUNT as
 * the mount point, and writes "AddFull APP-ID FLAGS PERMS... -> FILE" to RECORD (the file the
 * O_PATH descriptor it received names, read back through /proc/self/fd).
 *   portal_service MOUNT RECORD */
#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <stdio.h>
#include <unistd.h>

static const char *xml =
  "<node><interface name='org.freedesktop.portal.Documents'>"
  "<method name='GetMountPoint'><arg type='ay' direction='out'/></method>"
  "<method name='AddFull'><arg type='ah' direction='in'/><arg type='u' direction='in'/><arg type='s' direction='in'/>"
  "<arg type='as' direction='in'/><arg type='as' direction='out'/><arg type='a{sv}' direction='out'/></method>"
  "</interface></node>";
static const char *mount, *record;
static int served;

static void call(GDBusConnection *c, const char *sender, const char *path, const char *iface, const char *method,
                 GVariant *params, GDBusMethodInvocation *inv, gpointer data) {
  if (g_str_equal(method, "GetMountPoint")) {
    g_dbus_method_invocation_return_value(inv, g_variant_new("(^ay)", mount));
    return;
  }
  GVariantIter *handles, *perms; guint32 flags; const char *app; gint32 h; const char *perm;
  g_variant_get(params, "(ahu&sas)", &handles, &flags, &app, &perms);
  GUnixFDList *fds = G_UNIX_FD_LIST(g_dbus_message_get_unix_fd_list(g_dbus_method_invocation_get_message(inv)));
  FILE *f = fopen(record, "a");
  fprintf(f, "AddFull %s %u", app, flags);
  while (g_variant_iter_next(perms, "&s", &perm)) fprintf(f, " %s", perm);
  GVariantBuilder ids; g_variant_builder_init(&ids, G_VARIANT_TYPE("as"));
  while (g_variant_iter_next(handles, "h", &h)) {
    int fd = g_unix_fd_list_get(fds, h, NULL);
    char link[64], target[4096]; snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, target, sizeof target - 1); target[n < 0 ? 0 : n] = 0;
    fprintf(f, " -> %s", target);
    close(fd);
    char id[16]; snprintf(id, sizeof id, "d%d", ++served);
    g_variant_builder_add(&ids, "s", id);
  }
  fprintf(f, "\n");
  fclose(f);
  GVariantBuilder extra; g_variant_builder_init(&extra, G_VARIANT_TYPE("a{sv}"));
  g_variant_builder_add(&extra, "{sv}", "mountpoint", g_variant_new_bytestring(mount));
  g_dbus_method_invocation_return_value(inv, g_variant_new("(asa{sv})", &ids, &extra));
}

static const GDBusInterfaceVTable vtable = { call, NULL, NULL };

static void acquired(GDBusConnection *c, const char *name, gpointer data) {
  GDBusNodeInfo *info = g_dbus_node_info_new_for_xml(xml, NULL);
  g_dbus_connection_register_object(c, "/org/freedesktop/portal/documents", info->interfaces[0], &vtable, NULL, NULL, NULL);
  FILE *f = fopen(record, "a"); fprintf(f, "ready\n"); fclose(f);
}

int main(int argc, char **argv) {
  mount = argv[1]; record = argv[2];
  GMainLoop *loop = g_main_loop_new(NULL, FALSE);
  g_bus_own_name(G_BUS_TYPE_SESSION, "org.freedesktop.portal.Documents", 0, acquired, NULL, NULL, NULL, NULL);
  g_timeout_add_seconds(30, (GSourceFunc)g_main_loop_quit, loop);
  g_main_loop_run(loop);
  return 0;
}
