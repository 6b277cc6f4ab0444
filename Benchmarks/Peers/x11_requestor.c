// pasteboardd's X11 requestor (Sources/CDesktopClipboard) as a whole process doing what
// `xclip -o` does: connect, read one type of the CLIPBOARD selection (INCR included), write it to
// standard output. The benchmark's "read from the owner" figure is the import inside pasteboardd,
// which ends in memory; this gives the same work as the peer, process start and output included
// (docs/pasteboards.md, Figures).
//
//   S=Sources/CDesktopClipboard
//   gcc -O2 -I$S/include -I$S Benchmarks/Peers/x11_requestor.c $S/x11.c $S/clipboard.c -lxcb -lxcb-xfixes -o /tmp/x11_requestor
//   /tmp/x11_requestor text/plain > out
#include "CDesktopClipboard.h"
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
    const char *type = argc > 1 ? argv[1] : "text/plain";
    char error[256];
    dc_clipboard *clipboard = dc_x11_open(NULL, error, sizeof error);
    if (!clipboard) { fprintf(stderr, "x11_requestor: %s\n", error); return 1; }
    uint8_t *data;
    size_t length;
    if (dc_fetch(clipboard, type, &data, &length, (size_t)1 << 30, 5000) != 0) {
        fprintf(stderr, "x11_requestor: the owner did not send %s\n", type);
        return 1;
    }
    for (size_t offset = 0; offset < length;) {
        ssize_t n = write(1, data + offset, length - offset);
        if (n <= 0) { perror("x11_requestor: write"); return 1; }
        offset += (size_t)n;
    }
    dc_free(data);
    dc_close(clipboard);
    return 0;
}
