/* The floor for Filelock: the same system calls as one uncontended try_lock()+unlock() on a
 * local filesystem (an unnamed file with O_TMPFILE, write the record, linkat it to the lock
 * path, unlink the lock), in plain C with nothing else around them. The link is made as the
 * engine makes it: by the descriptor (AT_EMPTY_PATH, Linux 6.10+ or CAP_DAC_READ_SEARCH), or
 * through /proc/self/fd where the kernel refuses that.
 * (On NFS and FUSE Filelock uses a named temp file instead: O_CREAT|O_EXCL, write, link,
 * unlink it.)
 * usage: file_floor DIR ITERATIONS [proc]  -> prints microseconds per cycle
 *   proc: always link through /proc/self/fd (the floor of the runs before the engine linked by
 *   the descriptor, kept for comparison) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    char lock[4096], proc[64];
    snprintf(lock, sizeof lock, "%s/floor.lock", argv[1]);
    long n = atol(argv[2]);
    int by_descriptor = !(argc > 3 && strcmp(argv[3], "proc") == 0);
    const char record[] =
        "a:3:{s:5:\"mypid\";i:12345;s:9:\"timestamp\";s:19:\"21-11-2026 "
        "05:00:00\";s:4:\"name\";s:5:\"floor\";}";
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < n; i++) {
        int fd = open(argv[1], O_WRONLY | O_TMPFILE | O_CLOEXEC, 0644);
        if (fd < 0 || write(fd, record, sizeof record - 1) < 0) return 1;
        int linked = -1;
        if (by_descriptor) {
            linked = linkat(fd, "", AT_FDCWD, lock, AT_EMPTY_PATH);
            if (linked != 0 && errno != ENOENT) return 1;
            if (linked != 0) by_descriptor = 0; /* refused: /proc from now on */
        }
        if (linked != 0) {
            snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
            if (linkat(AT_FDCWD, proc, AT_FDCWD, lock, AT_SYMLINK_FOLLOW) != 0) return 1;
        }
        close(fd);
        unlink(lock);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%.3f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e3 / n);
    return 0;
}
