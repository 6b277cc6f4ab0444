/* GIO's answers for the DesktopEntries agreement tests (built by the tests with gcc and gio-2.0).
 *   gio_peer types TYPE...          per type: "type T", "default ID|(none)", then "all ID" lines (g_app_info_get_all_for_type)
 *   gio_peer launch FILE.desktop PATH...   g_app_info_launch with the paths as GFiles, no launch context
 *   gio_peer keyfile FILE.desktop   how GKeyFile reads it: "invalid" or key lines as GIO's getters return them
 */
#include <gio/gio.h>
#include <gio/gdesktopappinfo.h>
#include <stdio.h>
#include <string.h>

static int status;
static void launched(GObject *source, GAsyncResult *result, gpointer loop) {
  GError *error = NULL;
  if (!g_app_info_launch_uris_finish(G_APP_INFO(source), result, &error)) { printf("error %s\n", error->message); status = 1; }
  g_main_loop_quit(loop);
}

static void show(const char *label, const char *value) { printf("%s %s\n", label, value ? value : "(null)"); }

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  if (strcmp(argv[1], "types") == 0) {
    for (int i = 2; i < argc; i++) {
      printf("type %s\n", argv[i]);
      GAppInfo *d = g_app_info_get_default_for_type(argv[i], FALSE);
      show("default", d ? g_app_info_get_id(d) : "(none)");
      GList *l = g_app_info_get_all_for_type(argv[i]);
      for (GList *j = l; j; j = j->next) show("all", g_app_info_get_id(j->data));
    }
    return 0;
  }
  if (strcmp(argv[1], "launch") == 0) {
    GDesktopAppInfo *info = g_desktop_app_info_new_from_filename(argv[2]);
    if (!info) { printf("cannot load\n"); return 1; }
    GList *uris = NULL;
    for (int i = 3; i < argc; i++) uris = g_list_append(uris, g_file_get_uri(g_file_new_for_path(argv[i])));
    /* The asynchronous call, waited for: a D-Bus activation is only sent from the main loop. */
    GMainLoop *loop = g_main_loop_new(NULL, FALSE);
    g_app_info_launch_uris_async(G_APP_INFO(info), uris, NULL, NULL, launched, loop);
    g_timeout_add_seconds(10, (GSourceFunc)g_main_loop_quit, loop);
    g_main_loop_run(loop);
    return status;
  }
  if (strcmp(argv[1], "keyfile") == 0) {
    GKeyFile *k = g_key_file_new();
    GError *error = NULL;
    if (!g_key_file_load_from_file(k, argv[2], G_KEY_FILE_NONE, &error)) { printf("invalid\n"); return 0; }
    const char *g = "Desktop Entry";
    gchar *s;
    s = g_key_file_get_locale_string(k, g, "Name", NULL, NULL); show("Name", s);
    s = g_key_file_get_string(k, g, "Exec", NULL); show("Exec", s);
    s = g_key_file_get_string(k, g, "Comment", NULL); show("Comment", s);
    gsize n = 0;
    gchar **list = g_key_file_get_string_list(k, g, "MimeType", &n, NULL);
    printf("MimeType");
    if (!list) printf(" (null)"); else for (gsize i = 0; i < n; i++) printf(" [%s]", list[i]);
    printf("\n");
    GError *b = NULL;
    gboolean v = g_key_file_get_boolean(k, g, "NoDisplay", &b);
    printf("NoDisplay %s\n", b ? "(error)" : (v ? "true" : "false"));
    return 0;
  }
  return 2;
}
