/* The whole-process peer of `plutil -lint FILE`: read the file (one read of its size, as
 * plutil does), parse it with libplist's plist_from_xml or plist_from_bin, print "FILE: OK"
 * and exit without freeing the tree (a process about to exit need not; plutil does not).
 * Build: cc -O2 lint_libplist.c $(pkg-config --cflags --libs libplist-2.0)
 * Used by Benchmarks/PropertyListBenchmarks (docs/benchmarks.md). */
#include <plist/plist.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: lint_libplist FILE\n"); return 2; }
    int fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) { perror(argv[1]); return 1; }
    char *buf = malloc((size_t)st.st_size + 1);
    size_t n = 0;
    while (n < (size_t)st.st_size) {
        ssize_t r = read(fd, buf + n, (size_t)st.st_size - n);
        if (r <= 0) { perror(argv[1]); return 1; }
        n += (size_t)r;
    }
    close(fd);
    plist_t root = NULL;
    if (n >= 8 && memcmp(buf, "bplist00", 8) == 0) plist_from_bin(buf, (uint32_t)n, &root);
    else plist_from_xml(buf, (uint32_t)n, &root);
    if (!root) { fprintf(stderr, "%s: not a property list\n", argv[1]); return 1; }
    printf("%s: OK\n", argv[1]);
    return 0;
}
