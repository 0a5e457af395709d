/* The floor for Filelock: the same system calls as one uncontended try_lock()+unlock() on a
 * local filesystem (an unnamed file with O_TMPFILE, write the record, linkat it to the lock
 * path through /proc/self/fd, unlink the lock), in plain C with nothing else around them.
 * (On NFS and FUSE Filelock uses a named temp file instead: O_CREAT|O_EXCL, write, link,
 * unlink it.)
 * usage: file_floor DIR ITERATIONS  -> prints microseconds per cycle */
#define _GNU_SOURCE
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
    const char record[] =
        "a:3:{s:5:\"mypid\";i:12345;s:9:\"timestamp\";s:19:\"21-11-2026 "
        "05:00:00\";s:4:\"name\";s:5:\"floor\";}";
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < n; i++) {
        int fd = open(argv[1], O_WRONLY | O_TMPFILE | O_CLOEXEC, 0644);
        if (fd < 0 || write(fd, record, sizeof record - 1) < 0) return 1;
        snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
        if (linkat(AT_FDCWD, proc, AT_FDCWD, lock, AT_SYMLINK_FOLLOW) != 0) return 1;
        close(fd);
        unlink(lock);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%.3f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e3 / n);
    return 0;
}
