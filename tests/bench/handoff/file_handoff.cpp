// Filelock's hand-off through the engine alone (ext/core, no PHP): a holder process takes the
// lock, waits 5 ms (the waiter is blocked by then), notes CLOCK_MONOTONIC and releases; the
// waiter, blocked in LockFile::acquire(), notes the clock once it owns the lock. The same
// measurement as tests/bench/bench.php's hand-off, without the PHP engine and the shim, to tell
// their share from the protocol's.
//   nativelock_file_handoff DIR [ROUNDS]   -> p50/p90/min in microseconds
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "file/lock_file.hpp"
#include "file/record.hpp"

using nativelock::Deadline;
using nativelock::file::encode_own;
using nativelock::file::LockFile;
using nativelock::file::Status;

namespace {

long long now_ns() {
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

// The holder: on every byte from `go`, takes the lock, says so on `ready`, holds it 5 ms,
// writes the release time to `released` and releases.
[[noreturn]] void hold(const std::string &path, int go, int ready, volatile long long *released) {
    char byte;
    while (read(go, &byte, 1) == 1) {
        LockFile lock(path);
        const std::string record = encode_own("holder", "27-11-2026 00:00:00");
        while (lock.try_acquire(record) != Status::Acquired) usleep(200);
        if (write(ready, "r", 1) != 1) _exit(1);
        usleep(5000);
        *released = now_ns();
        lock.release();
    }
    _exit(0);
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s DIR [ROUNDS]\n", argv[0]);
        return 2;
    }
    const std::string path = std::string(argv[1]) + "/file_handoff.lock";
    const int rounds = argc > 2 ? std::atoi(argv[2]) : 200;
    auto *released = static_cast<volatile long long *>(mmap(
        nullptr, sizeof(long long), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
    int go[2], ready[2];
    if (released == MAP_FAILED || rounds < 1 || pipe(go) != 0 || pipe(ready) != 0) return 1;
    const pid_t holder = fork();
    if (holder < 0) return 1;
    if (holder == 0) {
        close(go[1]);
        close(ready[0]);
        hold(path, go[0], ready[1], released);
    }
    close(go[0]);
    close(ready[1]);

    std::vector<double> micros;
    for (int i = 0; i < rounds; ++i) {
        char byte;
        if (write(go[1], "g", 1) != 1 || read(ready[0], &byte, 1) != 1) return 1;
        LockFile lock(path);
        const std::string record = encode_own("waiter", "27-11-2026 00:00:00");
        const auto result = lock.acquire(record, Deadline::after(10), nullptr);
        const long long owned = now_ns();
        if (result.status != Status::Acquired) return 1;
        micros.push_back(static_cast<double>(owned - *released) / 1e3);
        lock.release();
    }
    close(go[1]);
    waitpid(holder, nullptr, 0);
    std::sort(micros.begin(), micros.end());
    std::printf("engine hand-off over %d rounds: p50 %.1f us, p90 %.1f us, min %.1f us\n", rounds,
                micros[micros.size() / 2], micros[micros.size() * 9 / 10], micros.front());
    return 0;
}
