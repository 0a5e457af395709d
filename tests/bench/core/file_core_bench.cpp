// Micro-benchmarks of the Filelock engine's hot paths (Google Benchmark, built by CMake as
// nativelock_core_bench): name mapping, owner-record encode/decode, one uncontended
// try_acquire + release on tmpfs (/dev/shm) and on the directory in NATIVELOCK_BENCH_LOCKDIR
// (default /tmp), and the raw syscalls of that cycle as the floor in the same binary.
#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <string>

#include "common/process.hpp"
#include "common/random.hpp"
#include "file/lock_file.hpp"
#include "file/name.hpp"
#include "file/record.hpp"

using namespace nativelock;
using namespace nativelock::file;

namespace {

OwnerRecord sample_record() {
    const auto &self = process::self();
    OwnerRecord r;
    r.pid = self.pid;
    r.timestamp = "21-11-2026 06:00:00";
    r.name = "nightly-report:tenant-42";
    r.host = self.host;
    r.boot_id = self.boot_id;
    r.pid_namespace = self.pid_namespace;
    r.start_ticks = self.start_ticks;
    r.token = random::hex_token(16);
    return r;
}

std::string temp_dir(const char *base) {
    std::string tmpl = std::string(base) + "/nl-core-bench-XXXXXX";
    if (!mkdtemp(tmpl.data())) return {};
    return tmpl;
}

std::string base_dir(int which) {
    if (which == 0) return "/dev/shm";
    const char *env = getenv("NATIVELOCK_BENCH_LOCKDIR");
    std::string d = env && *env ? env : "/tmp";
    while (d.size() > 1 && d.back() == '/') d.pop_back();
    return d;
}

void BM_MapName(benchmark::State &state) {
    const std::string name = "nightly-report:tenant-42/émail";
    for (auto _ : state) benchmark::DoNotOptimize(map_name(name));
}
BENCHMARK(BM_MapName);

void BM_LockFilePath(benchmark::State &state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(lock_file_path("/var/lock/app/", "nightly-report:tenant-42"));
}
BENCHMARK(BM_LockFilePath);

void BM_RecordEncode(benchmark::State &state) {
    const OwnerRecord r = sample_record();
    for (auto _ : state) benchmark::DoNotOptimize(encode(r));
}
BENCHMARK(BM_RecordEncode);

void BM_RecordDecode(benchmark::State &state) {
    const std::string text = encode(sample_record());
    for (auto _ : state) benchmark::DoNotOptimize(decode(text));
}
BENCHMARK(BM_RecordDecode);

void BM_HexToken(benchmark::State &state) {
    for (auto _ : state) benchmark::DoNotOptimize(random::hex_token(16));
}
BENCHMARK(BM_HexToken);

// Arg 0: tmpfs (/dev/shm); arg 1: the benchmark's lock directory (ext4 /tmp by default).
void BM_TryAcquireRelease(benchmark::State &state) {
    std::string dir = temp_dir(base_dir(state.range(0)).c_str());
    if (dir.empty()) {
        state.SkipWithError("cannot create a directory");
        return;
    }
    const std::string record = encode(sample_record());
    LockFile lock(dir + "/bench.lock");
    for (auto _ : state) {
        if (lock.try_acquire(record) != Status::Acquired) {
            state.SkipWithError("uncontended try_acquire failed");
            break;
        }
        lock.release();
    }
    rmdir(dir.c_str());
}
BENCHMARK(BM_TryAcquireRelease)->Arg(0)->Arg(1);

// The same syscalls with nothing around them (tests/bench/floor/file_floor.c, in-process): an
// unnamed file, the record, linked by its descriptor (through /proc/self/fd where the kernel
// refuses that), the lock unlinked.
void BM_SyscallFloor(benchmark::State &state) {
    std::string dir = temp_dir(base_dir(state.range(0)).c_str());
    if (dir.empty()) {
        state.SkipWithError("cannot create a directory");
        return;
    }
    const std::string record = encode(sample_record());
    const std::string lock = dir + "/floor.lock";
    bool by_descriptor = true;
    for (auto _ : state) {
        int fd = open(dir.c_str(), O_WRONLY | O_TMPFILE | O_CLOEXEC, 0644);
        if (fd < 0 || write(fd, record.data(), record.size()) < 0) {
            state.SkipWithError("open/write failed");
            break;
        }
        int linked = -1;
        if (by_descriptor) {
            linked = linkat(fd, "", AT_FDCWD, lock.c_str(), AT_EMPTY_PATH);
            by_descriptor = linked == 0 || errno != ENOENT;
        }
        if (linked != 0) {
            char proc[64];
            snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
            linked = linkat(AT_FDCWD, proc, AT_FDCWD, lock.c_str(), AT_SYMLINK_FOLLOW);
        }
        close(fd);
        if (linked != 0) {
            state.SkipWithError("link failed");
            break;
        }
        unlink(lock.c_str());
    }
    rmdir(dir.c_str());
}
BENCHMARK(BM_SyscallFloor)->Arg(0)->Arg(1);

}  // namespace
