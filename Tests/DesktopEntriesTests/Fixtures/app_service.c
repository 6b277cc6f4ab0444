/* A tiny D-Bus activatable application for the launch tests (built with gcc against gio-2.0):
 * owns NAME, exports org.freedesktop.Application at PATH, and on Open/Activate writes the call
 * ("Open URI..." or "Activate") to RECORD, answers, and exits.
 *   app_service NAME PATH RECORD */
#include <gio/gio.h>
#include <stdio.h>

static const char *xml =
  "<node><interface name='org.freedesktop.Application'>"
  "<method name='Activate'><arg type='a{sv}' direction='in'/></method>"
  "<method name='Open'><arg type='as' direction='in'/><arg type='a{sv}' direction='in'/></method>"
  "<method name='ActivateAction'><arg type='s' direction='in'/><arg type='av' direction='in'/><arg type='a{sv}' direction='in'/></method>"
  "</interface></node>";
static const char *record;
static GMainLoop *loop;

static void call(GDBusConnection *c, const char *sender, const char *path, const char *iface, const char *method,
                 GVariant *params, GDBusMethodInvocation *inv, gpointer data) {
  FILE *f = fopen(record, "w");
  fprintf(f, "%s", method);
  if (g_str_equal(method, "Open")) {
    GVariantIter *uris; const char *uri;
    g_variant_get(params, "(asa{sv})", &uris, NULL);
    while (g_variant_iter_next(uris, "&s", &uri)) fprintf(f, " %s", uri);
  }
  fprintf(f, "\n");
  fclose(f);
  g_dbus_method_invocation_return_value(inv, NULL);
  /* The reply must leave before the process does (exiting at once loses it: NoReply). */
  g_dbus_connection_flush_sync(c, NULL, NULL);
  g_main_loop_quit(loop);
}

static const GDBusInterfaceVTable vtable = { call, NULL, NULL };

static void acquired(GDBusConnection *c, const char *name, gpointer path) {
  GDBusNodeInfo *info = g_dbus_node_info_new_for_xml(xml, NULL);
  g_dbus_connection_register_object(c, path, info->interfaces[0], &vtable, NULL, NULL, NULL);
}

int main(int argc, char **argv) {
  record = argv[3];
  loop = g_main_loop_new(NULL, FALSE);
  g_bus_own_name(G_BUS_TYPE_SESSION, argv[1], 0, acquired, NULL, NULL, argv[2], NULL);
  g_timeout_add_seconds(20, (GSourceFunc)g_main_loop_quit, loop);
  g_main_loop_run(loop);
  return 0;
}
