#include "common.h"
#include <time.h>

long long dc_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void dc_close(dc_clipboard *c) { if (c) c->backend->close(c); }
int dc_fd(dc_clipboard *c) { return c->backend->fd(c); }
int dc_flush(dc_clipboard *c) { return c->backend->flush(c); }
int dc_dispatch(dc_clipboard *c) { return c->backend->dispatch(c); }
int dc_publish(dc_clipboard *c, const char *const *types, const uint8_t *const *data, const size_t *lengths, size_t count) {
    return c->backend->publish(c, types, data, lengths, count);
}
void dc_release(dc_clipboard *c) { c->backend->release(c); }
int dc_owns(dc_clipboard *c) { return c->backend->owns(c); }
int dc_foreign_types(dc_clipboard *c, char ***types, size_t *count, int timeout_ms) { return c->backend->foreign_types(c, types, count, timeout_ms); }
int dc_fetch(dc_clipboard *c, const char *type, uint8_t **data, size_t *length, size_t limit, int timeout_ms) {
    return c->backend->fetch(c, type, data, length, limit, timeout_ms);
}
void dc_free(void *p) { free(p); }
uint64_t dc_served(dc_clipboard *c) { return c->served; }
