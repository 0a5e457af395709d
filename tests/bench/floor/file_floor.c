/* The floor for Filelock: the same system calls as one uncontended try_lock()+unlock()
 * (temp file with O_CREAT|O_EXCL|O_NOFOLLOW, write the record, link, unlink the temp file,
 * unlink the lock), in plain C with nothing else around them.
 * usage: file_floor DIR ITERATIONS  -> prints microseconds per cycle */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    char lock[4096], temp[4096];
    snprintf(lock, sizeof lock, "%s/floor.lock", argv[1]);
    long n = atol(argv[2]);
    const char record[] =
        "a:3:{s:5:\"mypid\";i:12345;s:9:\"timestamp\";s:19:\"21-11-2026 "
        "05:00:00\";s:4:\"name\";s:5:\"floor\";}";
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < n; i++) {
        snprintf(temp, sizeof temp, "%s.pid.%d.mtrand.%ld", lock, (int)getpid(), i);
        int fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 || write(fd, record, sizeof record - 1) < 0) return 1;
        close(fd);
        if (link(temp, lock) != 0) return 1;
        unlink(temp);
        unlink(lock);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%.3f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e3 / n);
    return 0;
}
