// Shared by the two backends: the vtable, the published data (reference-counted so a paste in
// progress keeps it after a new publish), and small helpers.
#ifndef DC_COMMON_H
#define DC_COMMON_H
#include "CDesktopClipboard.h"
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct dc_blob {
    atomic_int references;
    size_t length;
    uint8_t bytes[];
} dc_blob;

static inline dc_blob *dc_blob_new(const uint8_t *data, size_t length) {
    dc_blob *blob = malloc(sizeof(dc_blob) + length);
    if (!blob) return NULL;
    atomic_init(&blob->references, 1);
    blob->length = length;
    if (length) memcpy(blob->bytes, data, length);
    return blob;
}
static inline dc_blob *dc_blob_retain(dc_blob *blob) { atomic_fetch_add(&blob->references, 1); return blob; }
static inline void dc_blob_release(dc_blob *blob) {
    if (blob && atomic_fetch_sub(&blob->references, 1) == 1) free(blob);
}

/// One published representation.
typedef struct dc_entry {
    char *type;
    dc_blob *blob;
} dc_entry;

/// What is published now.
typedef struct dc_offer_set {
    dc_entry *entries;
    size_t count;
} dc_offer_set;

static inline void dc_offer_set_clear(dc_offer_set *set) {
    for (size_t i = 0; i < set->count; i++) { free(set->entries[i].type); dc_blob_release(set->entries[i].blob); }
    free(set->entries);
    set->entries = NULL;
    set->count = 0;
}

/// Copies the caller's representations; equal buffers (same pointer and length) share one copy.
static inline int dc_offer_set_fill(dc_offer_set *set, const char *const *types, const uint8_t *const *data, const size_t *lengths, size_t count) {
    dc_offer_set_clear(set);
    set->entries = calloc(count ? count : 1, sizeof(dc_entry));
    if (!set->entries) return -1;
    for (size_t i = 0; i < count; i++) {
        dc_blob *shared = NULL;
        for (size_t j = 0; j < i; j++) {
            if (data[j] == data[i] && lengths[j] == lengths[i]) { shared = dc_blob_retain(set->entries[j].blob); break; }
        }
        set->entries[i].blob = shared ? shared : dc_blob_new(data[i], lengths[i]);
        set->entries[i].type = strdup(types[i]);
        set->count = i + 1;
        if (!set->entries[i].blob || !set->entries[i].type) return -1;
    }
    return 0;
}

static inline dc_entry *dc_offer_set_find(dc_offer_set *set, const char *type) {
    for (size_t i = 0; i < set->count; i++) if (strcmp(set->entries[i].type, type) == 0) return &set->entries[i];
    return NULL;
}

struct dc_clipboard {
    const struct dc_backend *backend;
    uint64_t served;
};

typedef struct dc_backend {
    void (*close)(dc_clipboard *);
    int (*fd)(dc_clipboard *);
    int (*flush)(dc_clipboard *);
    int (*dispatch)(dc_clipboard *);
    int (*publish)(dc_clipboard *, const char *const *, const uint8_t *const *, const size_t *, size_t);
    void (*release)(dc_clipboard *);
    int (*owns)(dc_clipboard *);
    int (*foreign_types)(dc_clipboard *, char ***, size_t *, int);
    int (*fetch)(dc_clipboard *, const char *, uint8_t **, size_t *, size_t, int);
} dc_backend;

/// Milliseconds on the monotonic clock.
long long dc_now_ms(void);
#endif
